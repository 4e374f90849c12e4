package io.tidb.operator.controller.tidbcluster.tidb;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import java.util.List;
import java.util.Optional;

/**
 * The TiDB start script, rendered from plain parameters.
 *
 * <p>After the shared prelude it runs {@code /tidb-server} with {@code --store=tikv},
 * {@code --advertise-address=<pod>.<cluster>-tidb-peer.<ns>.svc[.<domain>]}, {@code --host=0.0.0.0},
 * {@code --path=<cluster>-pd:2379} (with {@code spec.acrossK8s}, the endpoints discovery answers,
 * see {@link AcrossK8sPd}) and {@code --config=/etc/tidb/tidb.toml}; then
 * {@code --enable-binlog=true} when binlog is on, {@code --plugin-dir=/plugins --plugin-load=a,b}
 * when plugins are listed, {@code --log-slow-query=$SLOW_LOG_FILE} when that env is non-empty, and
 * finally {@code spec.tidb.arguments} verbatim.
 *
 * @param cluster the TidbCluster name
 * @param namespace the TidbCluster namespace
 * @param clusterDomain {@code spec.clusterDomain}, or empty
 * @param pdAddress the PD address TiDB connects to, normally {@code <cluster>-pd:2379}
 * @param binlogEnabled whether to pass {@code --enable-binlog=true}
 * @param plugins {@code spec.tidb.plugins}
 * @param arguments {@code spec.tidb.arguments}, appended to the command line as written
 * @param acrossK8s with {@code spec.acrossK8s}, the discovery lookup whose answer replaces
 *     {@code pdAddress}
 */
public record TidbStartScript(
    String cluster, String namespace, String clusterDomain, String pdAddress, boolean binlogEnabled,
    List<String> plugins, List<String> arguments, Optional<AcrossK8sPd> acrossK8s) {

  /** Where the TiDB config file is mounted. */
  public static final String CONFIG_FILE = "/etc/tidb/tidb.toml";
  /** Where plugins are loaded from. */
  public static final String PLUGIN_DIR = "/plugins";

  public TidbStartScript {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
    plugins = plugins == null ? List.of() : List.copyOf(plugins);
    arguments = arguments == null ? List.of() : List.copyOf(arguments);
  }

  public String render() {
    String host = Names.podHost("${POD_NAME}", Names.peerService(cluster, TidbObjects.COMPONENT), namespace,
        clusterDomain);
    StringBuilder extra = new StringBuilder();
    if (binlogEnabled) {
      extra.append("ARGS=\"${ARGS} --enable-binlog=true\"\n");
    }
    if (!plugins.isEmpty()) {
      extra.append("ARGS=\"${ARGS} --plugin-dir=").append(PLUGIN_DIR)
          .append(" --plugin-load=").append(String.join(",", plugins)).append("\"\n");
    }
    return ScriptPrelude.render("/tidb-server") + acrossK8s.map(AcrossK8sPd::render).orElse("")
        + """

        ARGS="--store=tikv \\
        --advertise-address=%1$s \\
        --host=0.0.0.0 \\
        --path=%2$s \\
        --config=%3$s"
        %4$s
        if [ -n "${SLOW_LOG_FILE:-}" ]; then
            ARGS="${ARGS} --log-slow-query=${SLOW_LOG_FILE}"
        fi
        """.formatted(host, acrossK8s.isPresent() ? AcrossK8sPd.RESULT : pdAddress, CONFIG_FILE,
            extra)
        + ScriptPrelude.exec("/tidb-server", String.join(" ", arguments));
  }
}
