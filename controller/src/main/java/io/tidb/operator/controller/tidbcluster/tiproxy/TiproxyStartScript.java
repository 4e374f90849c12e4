package io.tidb.operator.controller.tidbcluster.tiproxy;

import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;

/**
 * The TiProxy start script, upstream's: the shared prelude, then {@code /bin/tiproxy
 * --config=/etc/proxy/proxy.toml}, with {@code
 * --advertise-addr=<pod>.<tc>-tiproxy-peer.<ns>.svc[.<domain>]} when the binary knows that flag
 * (older TiProxy versions do not, and the config file is read-only, so it cannot go there).
 *
 * @param advertiseHost the pod's host name with {@code ${POD_NAME}} for the pod
 */
record TiproxyStartScript(String advertiseHost) {

  static final String BINARY = "/bin/tiproxy";

  String render() {
    return ScriptPrelude.render(BINARY) + """

        ARGS="--config=%1$s"
        if %2$s --help 2>&1 | grep -q -- "advertise-addr"; then
            ARGS="${ARGS} --advertise-addr=%3$s"
        fi
        """.formatted(TiproxyObjects.CONFIG_FILE, BINARY, advertiseHost)
        + ScriptPrelude.exec(BINARY, "");
  }
}
