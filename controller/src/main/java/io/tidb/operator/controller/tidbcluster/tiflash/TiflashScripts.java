package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;

/**
 * TiFlash's two scripts, with upstream's behaviour (its v1 and v2 start scripts agree for TiFlash
 * without cross-Kubernetes discovery):
 *
 * <ul>
 *   <li>{@link #init}: run by the {@code init} container (helper image, POSIX sh); writes {@code
 *       /data0/config.toml} and {@code /data0/proxy.toml} from the ConfigMap's templates with
 *       {@code POD_NUM} replaced by the pod's ordinal (the last dash-separated part of {@code
 *       POD_NAME}); fails the pod when a template cannot be read.
 *   <li>{@link #start}: the main container's start script, in the ConfigMap under {@code
 *       startup-script}: the shared prelude (debug mode), then {@code exec /tiflash/tiflash server
 *       --config-file /data0/config.toml}.
 * </ul>
 */
final class TiflashScripts {

  static final String BINARY = "/tiflash/tiflash";

  private TiflashScripts() {}

  static String init() {
    return """
        set -eu
        ordinal=$(echo "${POD_NAME}" | awk -F- '{print $NF}')
        sed "s/POD_NUM/${ordinal}/g" %1$s/config_templ.toml > /data0/config.toml
        sed "s/POD_NUM/${ordinal}/g" %1$s/proxy_templ.toml > /data0/proxy.toml
        """.formatted(TiflashObjects.CONFIG_DIR);
  }

  static String start() {
    return ScriptPrelude.render(BINARY)
        + """

        ARGS="server --config-file /data0/config.toml"
        """
        + ScriptPrelude.exec(BINARY, "");
  }
}
