package io.tidb.operator.controller.tidbcluster.pump;

import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;

/**
 * The Pump start script, upstream's: the shared prelude, then {@code /pump} with {@code
 * -pd-urls=<scheme>://<tc>-pd:2379}, {@code -L=<log-level>} ({@code spec.pump.config} {@code
 * log-level}, else {@code info}), {@code -advertise-addr=<pod>.<tc>-pump[.<ns>.svc.<domain>]:8250},
 * {@code -config=/etc/pump/pump.toml}, {@code -data-dir=/data} and an empty {@code -log-file}
 * (logs to stderr). Pump exits 0 only once it has gone offline; the script then idles, so the
 * pod stays until the operator removes it, as upstream's does.
 *
 * @param pdUrl PD's client URL
 * @param advertiseHost the pod's host name with {@code ${POD_NAME}} for the pod
 */
record PumpStartScript(String pdUrl, String logLevel, String advertiseHost) {

  static final String BINARY = "/pump";

  String render() {
    return ScriptPrelude.render(BINARY) + """

        ARGS="-pd-urls=%1$s \\
        -L=%2$s \\
        -advertise-addr=%3$s:%4$d \\
        -config=%5$s \\
        -data-dir=%6$s \\
        -log-file="

        echo "starting %7$s ${ARGS}"
        %7$s ${ARGS}
        code=$?
        if [ "${code}" -eq 0 ]; then
            echo "$(date -u +'[%%Y/%%m/%%d %%H:%%M:%%S %%z]') pump offline, please delete my pod"
            tail -f /dev/null
        fi
        exit "${code}"
        """.formatted(pdUrl, logLevel, advertiseHost, PumpObjects.PORT, PumpObjects.CONFIG_FILE,
            PumpObjects.DATA_DIR, BINARY);
  }
}
