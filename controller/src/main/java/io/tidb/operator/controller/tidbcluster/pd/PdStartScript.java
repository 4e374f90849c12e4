package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.controller.tidbcluster.member.DnsWait;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.member.StartScriptFetch;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion.Flag;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.Optional;

/**
 * The PD start script, rendered from plain parameters, in the version {@code spec.startScriptVersion}
 * chooses.
 *
 * <p>What the unset version's script does, in order (the same flags, files and discovery protocol
 * as upstream's PD start script, so PD pods behave identically):
 * <ol>
 *   <li>The shared prelude (debug mode, {@code POD_NAME}).
 *   <li>Waits up to {@code startTimeoutSeconds} for its own DNS name
 *       {@code <pod>.<cluster>-pd-peer.<ns>.svc[.<clusterDomain>]} to resolve (the peer Service
 *       publishes not-ready addresses, so this succeeds before the pod is Ready): {@code nslookup},
 *       or with {@code spec.pd.startUpScriptVersion: v1} {@code dig} for A and AAAA records, as
 *       upstream's default (v1) script.
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
 * <p>{@code v1} and {@code v2} do what upstream's do: the same flags and start modes (join file,
 * existing data, discovery), and a jitter of up to 9 s before the start; their DNS waits sleep a
 * second before each lookup and give up with exit code 1 after {@code startTimeoutSeconds}.
 * <ul>
 *   <li>v1 waits with {@code nslookup} ({@code dig} with {@code pd.startUpScriptVersion: v1}) and
 *       asks discovery at {@code <cluster>-discovery.<ns>.svc:10261};
 *   <li>v2 waits with {@code dig}; with {@code WaitForDnsNameIpMatch} it first sleeps
 *       {@code spec.pd.initWaitTime}, then waits until the name resolves to one of the pod's own
 *       addresses ({@code hostname -I}); with {@code NoWaitDNS} (which wins over the other) it does
 *       not wait; with {@code PreferPDAddressesOverDiscovery} and {@code spec.pdAddresses} it
 *       always joins those hosts' peer URLs ({@code <scheme>://<host>:2380}) instead of reading the
 *       join file or asking discovery; with {@code BashShebang} the first line is
 *       {@code #!/bin/bash}. It ignores {@code pd.startUpScriptVersion}, as upstream's.
 * </ul>
 *
 * @param cluster the TidbCluster name
 * @param namespace the TidbCluster namespace
 * @param clusterDomain {@code spec.clusterDomain}, or empty
 * @param scheme {@code http}, or {@code https} with cluster TLS
 * @param dataDir PD's data directory, {@code /var/lib/pd[/<dataSubDir>]}
 * @param startTimeoutSeconds how long to wait for the pod's DNS name ({@code spec.pd.startTimeout})
 * @param acrossK8s {@code spec.acrossK8s}: PD members are named by their full DNS name
 * @param discovery how the script calls the discovery service
 * @param initWaitSeconds v2 with {@code WaitForDnsNameIpMatch}: the sleep before the DNS wait
 *     ({@code spec.pd.initWaitTime})
 * @param digCheck {@code spec.pd.startUpScriptVersion: v1}: the unset version and v1 check DNS
 *     with {@code dig}
 * @param version {@code spec.startScriptVersion} and its feature flags
 */
public record PdStartScript(
    String cluster, String namespace, String clusterDomain, String scheme, String dataDir,
    int startTimeoutSeconds, boolean acrossK8s, StartScriptFetch discovery, int initWaitSeconds,
    boolean digCheck, StartScriptVersion version) {

  /** PD's data volume mount path. */
  public static final String DATA_MOUNT = "/var/lib/pd";
  /** Where the PD config file is mounted. */
  public static final String CONFIG_FILE = "/etc/pd/pd.toml";

  private static final String DOMAIN = "\"${PD_DOMAIN}\"";
  private static final String TIMEOUT_MESSAGE = "waiting for pd cluster ready timeout";

  public PdStartScript {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  /** The discovery service address the script asks, {@code <cluster>-discovery.<ns>:10261}. */
  public String discoveryAddress() {
    return ClusterAddresses.discoveryName(cluster) + "." + namespace + ":" + ClusterAddresses.DISCOVERY_PORT;
  }

  public String render() {
    return switch (version.version()) {
      case DEFAULT -> renderUnset();
      case V1 -> renderVersioned(ScriptPrelude.render("/pd-server"),
          DnsWait.until(v1Check(), "${PD_DOMAIN}", startTimeoutSeconds, TIMEOUT_MESSAGE),
          ClusterAddresses.discoveryName(cluster) + "." + namespace + ".svc:"
              + ClusterAddresses.DISCOVERY_PORT,
          Optional.empty());
      case V2 -> renderVersioned(ScriptPrelude.render("/pd-server", version.shebang()), v2DnsWait(),
          discoveryAddress(), version.preferredPd(scheme + "://", PdObjects.PEER_PORT));
    };
  }

  private String v1Check() {
    return digCheck ? DnsWait.dig(DOMAIN) : DnsWait.nslookup(DOMAIN);
  }

  private String v2DnsWait() {
    if (version.has(Flag.NO_WAIT_DNS)) {
      return "";
    }
    if (version.has(Flag.WAIT_FOR_DNS_NAME_IP_MATCH)) {
      return "\nsleep " + initWaitSeconds + "\n"
          + DnsWait.untilOwnAddress(DnsWait.digLookup(DOMAIN), "${PD_DOMAIN}", startTimeoutSeconds);
    }
    return DnsWait.until(DnsWait.dig(DOMAIN), "${PD_DOMAIN}", startTimeoutSeconds, TIMEOUT_MESSAGE);
  }

  private String podDomain() {
    return Names.podHost("${POD_NAME}", Names.peerService(cluster, ClusterAddresses.PD), namespace,
        clusterDomain);
  }

  private String memberName() {
    return clusterDomain.isEmpty() && !acrossK8s ? "${POD_NAME}" : "${PD_DOMAIN}";
  }

  /** v1 and v2: join the preferred addresses, else the join file, the data, or discovery. */
  private String renderVersioned(
      String prelude, String dnsWait, String discoveryAddress, Optional<String> preferredJoin) {
    String start = preferredJoin
        .map(join -> "ARGS=\"${ARGS} --join=" + join + "\"\n")
        .orElseGet(() -> """
            if [ -f %1$s/join ]; then
                # An earlier start recorded the members it joined, as name=peerURL,name=peerURL.
                join=$(tr ',' '\\n' < %1$s/join | awk -F= '{print $2}' | tr '\\n' ',')
                ARGS="${ARGS} --join=${join%%,}"
            elif [ ! -d %1$s/member/wal ]; then
                # First start: the discovery service says whether to bootstrap or join.
                encoded=$(printf '%%s' "${PD_DOMAIN}:%2$d" | base64 | tr -d '\\n')
                until result=$(%4$s 2>/dev/null); do
                    echo "waiting for the discovery service %3$s ..."
                    sleep $(( ${RANDOM:-0} %% 5 ))
                done
                ARGS="${ARGS} ${result}"
            fi
            """.formatted(dataDir, PdObjects.PEER_PORT, discoveryAddress,
                discovery.get(discoveryAddress, "/new/${encoded}")));
    return prelude + "PD_DOMAIN=" + podDomain() + "\n" + dnsWait + """

        ARGS="--data-dir=%2$s \\
        --name=%3$s \\
        --peer-urls=%1$s://0.0.0.0:%4$d \\
        --advertise-peer-urls=%1$s://${PD_DOMAIN}:%4$d \\
        --client-urls=%1$s://0.0.0.0:%5$d \\
        --advertise-client-urls=%1$s://${PD_DOMAIN}:%5$d \\
        --config=%6$s"

        """.formatted(scheme, dataDir, memberName(), PdObjects.PEER_PORT,
            ClusterAddresses.PD_CLIENT_PORT, CONFIG_FILE)
        + start + """

        # Spread the starts of pods created together.
        sleep $(( ${RANDOM:-0} % 10 ))
        """ + ScriptPrelude.exec("/pd-server", "");
  }

  /** The unset version: the script as rendered before versions existed. */
  private String renderUnset() {
    return ScriptPrelude.render("/pd-server") + """
        PD_DOMAIN=%2$s

        # Wait for this pod's DNS record: PD advertises that name to its peers.
        waited=0
        until %11$s; do
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
        """.formatted(scheme, podDomain(), startTimeoutSeconds, dataDir, memberName(), PdObjects.PEER_PORT,
            ClusterAddresses.PD_CLIENT_PORT, CONFIG_FILE, discoveryAddress(),
            discovery.get(discoveryAddress(), "/new/${encoded}"), v1Check())
        + ScriptPrelude.exec("/pd-server", "");
  }
}
