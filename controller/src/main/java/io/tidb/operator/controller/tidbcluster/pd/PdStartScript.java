package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.controller.tidbcluster.member.StartScriptFetch;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;

/**
 * The PD start script, rendered from plain parameters.
 *
 * <p>What the script does, in order (the same flags, files and discovery protocol as upstream's PD
 * start script, so PD pods behave identically):
 * <ol>
 *   <li>The shared prelude (debug mode, {@code POD_NAME}).
 *   <li>Waits up to {@code startTimeoutSeconds} for its own DNS name
 *       {@code <pod>.<cluster>-pd-peer.<ns>.svc[.<clusterDomain>]} to resolve (the peer Service
 *       publishes not-ready addresses, so this succeeds before the pod is Ready).
 *   <li>Builds {@code --data-dir}, {@code --name} (the pod name; the full DNS name when a cluster
 *       domain is set or {@code spec.acrossK8s}), {@code --peer-urls}, {@code --advertise-peer-urls}, {@code --client-urls},
 *       {@code --advertise-client-urls}, {@code --config=/etc/pd/pd.toml}.
 *   <li>Chooses how to start: a {@code join} file left in the data dir by an earlier start means
 *       {@code --join=<its peer URLs>}; an existing {@code member/wal} means a restart that needs no
 *       flag; otherwise it asks the discovery service
 *       {@code GET http://<cluster>-discovery.<ns>:10261/new/<base64(advertise peer host:2380)>} until
 *       it answers (with discovery mTLS, {@code curl https://...} with PD's cluster certificate,
 *       see {@link StartScriptFetch}), and appends the answer ({@code --initial-cluster=...} or {@code --join=...}).
 *   <li>{@code exec /pd-server ...}.
 * </ol>
 *
 * @param cluster the TidbCluster name
 * @param namespace the TidbCluster namespace
 * @param clusterDomain {@code spec.clusterDomain}, or empty
 * @param scheme {@code http}, or {@code https} with cluster TLS
 * @param dataDir PD's data directory, {@code /var/lib/pd[/<dataSubDir>]}
 * @param startTimeoutSeconds how long to wait for the pod's DNS name ({@code spec.pd.startTimeout})
 * @param acrossK8s {@code spec.acrossK8s}: PD members are named by their full DNS name
 * @param discovery how the script calls the discovery service
 */
public record PdStartScript(
    String cluster, String namespace, String clusterDomain, String scheme, String dataDir,
    int startTimeoutSeconds, boolean acrossK8s, StartScriptFetch discovery) {

  /** PD's data volume mount path. */
  public static final String DATA_MOUNT = "/var/lib/pd";
  /** Where the PD config file is mounted. */
  public static final String CONFIG_FILE = "/etc/pd/pd.toml";

  public PdStartScript {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  /** The discovery service address the script asks, {@code <cluster>-discovery.<ns>:10261}. */
  public String discoveryAddress() {
    return ClusterAddresses.discoveryName(cluster) + "." + namespace + ":" + ClusterAddresses.DISCOVERY_PORT;
  }

  public String render() {
    String domain = Names.podHost("${POD_NAME}", Names.peerService(cluster, ClusterAddresses.PD), namespace,
        clusterDomain);
    String name = clusterDomain.isEmpty() && !acrossK8s ? "${POD_NAME}" : "${PD_DOMAIN}";
    return ScriptPrelude.render("/pd-server") + """
        PD_DOMAIN=%2$s

        # Wait for this pod's DNS record: PD advertises that name to its peers.
        waited=0
        until nslookup "${PD_DOMAIN}" >/dev/null 2>&1; do
            if [ "${waited}" -ge %3$d ]; then
                echo "no DNS record for ${PD_DOMAIN} after %3$d seconds" >&2
                exit 1
            fi
            sleep 1
            waited=$((waited + 1))
        done

        ARGS="--data-dir=%4$s \\
        --name=%5$s \\
        --peer-urls=%1$s://0.0.0.0:%6$d \\
        --advertise-peer-urls=%1$s://${PD_DOMAIN}:%6$d \\
        --client-urls=%1$s://0.0.0.0:%7$d \\
        --advertise-client-urls=%1$s://${PD_DOMAIN}:%7$d \\
        --config=%8$s"

        if [ -f %4$s/join ]; then
            # An earlier start recorded the members it joined, as name=peerURL,name=peerURL.
            join=$(tr ',' '\\n' < %4$s/join | awk -F= '{print $2}' | tr '\\n' ',')
            ARGS="${ARGS} --join=${join%%,}"
        elif [ ! -d %4$s/member/wal ]; then
            # First start: the discovery service says whether to bootstrap or join.
            encoded=$(printf '%%s' "${PD_DOMAIN}:%6$d" | base64 | tr -d '\\n')
            until result=$(%10$s 2>/dev/null); do
                echo "waiting for the discovery service %9$s ..."
                sleep $(( ${RANDOM:-1} %% 5 + 1 ))
            done
            ARGS="${ARGS} ${result}"
        fi

        # Spread the starts of pods created together.
        sleep $(( ${RANDOM:-0} %% 5 ))
        """.formatted(scheme, domain, startTimeoutSeconds, dataDir, name, PdObjects.PEER_PORT,
            ClusterAddresses.PD_CLIENT_PORT, CONFIG_FILE, discoveryAddress(),
            discovery.get(discoveryAddress(), "/new/${encoded}"))
        + ScriptPrelude.exec("/pd-server", "");
  }
}
