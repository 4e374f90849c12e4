package io.tidb.operator.controller.tidbcluster.tikv;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import java.util.Optional;

/**
 * The TiKV start script, rendered from plain parameters.
 *
 * <p>After the shared prelude it runs {@code /tikv-server} with {@code --pd=<cluster>-pd:2379}
 * (with {@code spec.acrossK8s}, the endpoints discovery answers, see {@link AcrossK8sPd}),
 * {@code --advertise-addr=<pod>.<cluster>-tikv-peer.<ns>.svc[.<domain>]:20160},
 * {@code --addr=<listen>:20160}, {@code --status-addr=<listen>:20180},
 * {@code --advertise-status-addr=<pod host>:20180} (only with {@code spec.enableDynamicConfiguration}),
 * {@code --data-dir}, {@code --capacity=${CAPACITY}} (the pod env, from {@code limits.storage}) and
 * {@code --config=/etc/tikv/tikv.toml}; {@code STORE_LABELS} in the env, if set, becomes
 * {@code --labels}.
 *
 * @param cluster the TidbCluster name
 * @param namespace the TidbCluster namespace
 * @param clusterDomain {@code spec.clusterDomain}, or empty
 * @param pdAddress the PD address TiKV connects to, normally {@code <cluster>-pd:2379}
 * @param dataDir {@code /var/lib/tikv[/<dataSubDir>]}
 * @param advertiseStatusAddr whether to pass {@code --advertise-status-addr}
 * @param preferIPv6 listen on {@code [::]} instead of {@code 0.0.0.0}
 * @param acrossK8s with {@code spec.acrossK8s}, the discovery lookup whose answer replaces
 *     {@code pdAddress}
 */
public record TikvStartScript(
    String cluster, String namespace, String clusterDomain, String pdAddress, String dataDir,
    boolean advertiseStatusAddr, boolean preferIPv6, Optional<AcrossK8sPd> acrossK8s) {

  /** TiKV's data volume mount path. */
  public static final String DATA_MOUNT = "/var/lib/tikv";
  /** Where the TiKV config file is mounted. */
  public static final String CONFIG_FILE = "/etc/tikv/tikv.toml";

  public TikvStartScript {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  public String render() {
    String host = Names.podHost("${POD_NAME}", Names.peerService(cluster, TikvObjects.COMPONENT), namespace,
        clusterDomain);
    String listen = preferIPv6 ? "[::]" : "0.0.0.0";
    String statusAdvertise = advertiseStatusAddr
        ? "--advertise-status-addr=" + host + ":" + TikvObjects.STATUS_PORT + " \\\n"
        : "";
    return ScriptPrelude.render("/tikv-server") + acrossK8s.map(AcrossK8sPd::render).orElse("")
        + """

        ARGS="--pd=%1$s \\
        --advertise-addr=%2$s:%3$d \\
        --addr=%4$s:%3$d \\
        --status-addr=%4$s:%5$d \\
        %6$s--data-dir=%7$s \\
        --capacity=${CAPACITY} \\
        --config=%8$s"

        if [ -n "${STORE_LABELS:-}" ]; then
            ARGS="${ARGS} --labels ${STORE_LABELS}"
        fi
        """.formatted(acrossK8s.isPresent() ? AcrossK8sPd.RESULT : pdAddress, host, TikvObjects.SERVER_PORT, listen, TikvObjects.STATUS_PORT,
            statusAdvertise, dataDir, CONFIG_FILE)
        + ScriptPrelude.exec("/tikv-server", "");
  }
}
