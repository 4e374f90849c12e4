package io.tidb.operator.controller.tidbcluster.tidb;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.List;
import java.util.Optional;

/**
 * The TiDB start script, rendered from plain parameters, in the version {@code
 * spec.startScriptVersion} chooses.
 *
 * <p>After the shared prelude it runs {@code /tidb-server} with {@code --store=tikv},
 * {@code --advertise-address=<pod>.<cluster>-tidb-peer.<ns>.svc[.<domain>]}, {@code --host=0.0.0.0},
 * {@code --path=<cluster>-pd:2379} (with {@code spec.acrossK8s}, the endpoints discovery answers,
 * see {@link AcrossK8sPd}) and {@code --config=/etc/tidb/tidb.toml}; then
 * {@code --enable-binlog=true} when binlog is on, {@code --plugin-dir=/plugins --plugin-load=a,b}
 * when plugins are listed, {@code --log-slow-query=$SLOW_LOG_FILE} when that env is non-empty, and
 * finally {@code spec.tidb.arguments} verbatim. That is upstream's v2 script, so the unset version
 * and v2 render the same text; with v2's {@code PreferPDAddressesOverDiscovery} and {@code spec.pdAddresses}, {@code --path=<their
 * hosts>:2379} without asking discovery.
 *
 * <p>v1, as upstream's: the binlog flag comes from the pod env {@code BINLOG_ENABLED=true} when the
 * script runs, and {@code --plugin-dir /plugins --plugin-load a,b} (separate words) after the slow
 * log flag.
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
 * @param version {@code spec.startScriptVersion} and its feature flags
 */
public record TidbStartScript(
    String cluster, String namespace, String clusterDomain, String pdAddress, boolean binlogEnabled,
    List<String> plugins, List<String> arguments, Optional<AcrossK8sPd> acrossK8s,
    StartScriptVersion version) {

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
    return switch (version.version()) {
      case DEFAULT -> render(ScriptPrelude.render("/tidb-server"), pdAddress, acrossK8s, v2Flags(), "");
      case V1 -> render(ScriptPrelude.render("/tidb-server"), pdAddress, acrossK8s, """
          if [ "${BINLOG_ENABLED:-}" = "true" ]; then
              ARGS="${ARGS} --enable-binlog=true"
          fi
          """, plugins.isEmpty() ? "" : "ARGS=\"${ARGS} --plugin-dir " + PLUGIN_DIR + " --plugin-load "
              + String.join(",", plugins) + "\"\n");
      case V2 -> {
        Optional<String> preferred = version.preferredPd("", ClusterAddresses.PD_CLIENT_PORT);
        yield render(ScriptPrelude.render("/tidb-server"), preferred.orElse(pdAddress),
            preferred.isPresent() ? Optional.empty() : acrossK8s, v2Flags(), "");
      }
    };
  }

  private String v2Flags() {
    StringBuilder extra = new StringBuilder();
    if (binlogEnabled) {
      extra.append("ARGS=\"${ARGS} --enable-binlog=true\"\n");
    }
    if (!plugins.isEmpty()) {
      extra.append("ARGS=\"${ARGS} --plugin-dir=").append(PLUGIN_DIR)
          .append(" --plugin-load=").append(String.join(",", plugins)).append("\"\n");
    }
    return extra.toString();
  }

  /**
   * @param beforeSlowLog flag lines between {@code --config} and the slow log flag
   * @param afterSlowLog flag lines after the slow log flag
   */
  private String render(String prelude, String pd, Optional<AcrossK8sPd> across, String beforeSlowLog,
      String afterSlowLog) {
    String host = Names.podHost("${POD_NAME}", Names.peerService(cluster, TidbObjects.COMPONENT), namespace,
        clusterDomain);
    return prelude + across.map(AcrossK8sPd::render).orElse("")
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
        %5$s""".formatted(host, across.isPresent() ? AcrossK8sPd.RESULT : pd, CONFIG_FILE,
            beforeSlowLog, afterSlowLog)
        + ScriptPrelude.exec("/tidb-server", String.join(" ", arguments));
  }
}
