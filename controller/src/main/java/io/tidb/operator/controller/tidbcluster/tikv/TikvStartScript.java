package io.tidb.operator.controller.tidbcluster.tikv;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.DnsWait;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion.Flag;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.Optional;

/**
 * The TiKV start script, rendered from plain parameters, in the version {@code
 * spec.startScriptVersion} chooses.
 *
 * <p>After the shared prelude it runs {@code /tikv-server} with {@code --pd=<cluster>-pd:2379}
 * (with {@code spec.acrossK8s}, the endpoints discovery answers, see {@link AcrossK8sPd}),
 * {@code --advertise-addr=<pod>.<cluster>-tikv-peer.<ns>.svc[.<domain>]:20160},
 * {@code --addr=<listen>:20160}, {@code --status-addr=<listen>:20180},
 * {@code --advertise-status-addr=<pod host>:20180} (only with {@code spec.enableDynamicConfiguration}),
 * {@code --data-dir}, {@code --capacity=${CAPACITY}} (the pod env, from {@code limits.storage}) and
 * {@code --config=/etc/tikv/tikv.toml}; {@code STORE_LABELS} in the env, if set, becomes
 * {@code --labels}. How {@code --pd} is written depends on the version, as upstream's:
 * <ul>
 *   <li>unset: {@code https://} before the address under cluster TLS, nothing otherwise;
 *   <li>v1: always with the scheme ({@code http://} or {@code https://}); across Kubernetes
 *       clusters discovery is asked about {@code <scheme>://<cluster>-pd:2379} and its answer is
 *       used as it is;
 *   <li>v2: never with a scheme ({@code http://} is stripped from discovery's answer); with
 *       {@code PreferPDAddressesOverDiscovery} and {@code spec.pdAddresses}, their hosts at port
 *       2379 and no discovery; {@code --advertise-status-addr} comes after {@code --config}; with
 *       {@code WaitForDnsNameIpMatch} it first waits, up to {@code spec.pd.startTimeout}, until the
 *       pod's name resolves ({@code getent ahosts}) to one of its own addresses. {@code NoWaitDNS}
 *       and {@code BashShebang} change nothing (upstream's TiKV script reads neither).
 * </ul>
 *
 * @param cluster the TidbCluster name
 * @param namespace the TidbCluster namespace
 * @param clusterDomain {@code spec.clusterDomain}, or empty
 * @param scheme {@code http}, or {@code https} with cluster TLS
 * @param pdClientAddress the PD address TiKV connects to without a scheme, normally
 *     {@code <cluster>-pd:2379}
 * @param dataDir {@code /var/lib/tikv[/<dataSubDir>]}
 * @param advertiseStatusAddr whether to pass {@code --advertise-status-addr}
 * @param preferIPv6 listen on {@code [::]} instead of {@code 0.0.0.0}
 * @param acrossK8s with {@code spec.acrossK8s}, the discovery lookup whose answer replaces
 *     {@code pdClientAddress}
 * @param startTimeoutSeconds v2's {@code WaitForDnsNameIpMatch} limit ({@code spec.pd.startTimeout})
 * @param version {@code spec.startScriptVersion} and its feature flags
 */
public record TikvStartScript(
    String cluster, String namespace, String clusterDomain, String scheme, String pdClientAddress,
    String dataDir, boolean advertiseStatusAddr, boolean preferIPv6, Optional<AcrossK8sPd> acrossK8s,
    int startTimeoutSeconds, StartScriptVersion version) {

  /** TiKV's data volume mount path. */
  public static final String DATA_MOUNT = "/var/lib/tikv";
  /** Where the TiKV config file is mounted. */
  public static final String CONFIG_FILE = "/etc/tikv/tikv.toml";

  public TikvStartScript {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  public String render() {
    return switch (version.version()) {
      case DEFAULT -> render(ScriptPrelude.render("/tikv-server"), "",
          "https".equals(scheme) ? scheme + "://" + pdClientAddress : pdClientAddress, acrossK8s, false);
      case V1 -> render(ScriptPrelude.render("/tikv-server"), "", scheme + "://" + pdClientAddress,
          acrossK8s.map(a -> new AcrossK8sPd(scheme + "://" + a.pdUrl(), a.discoveryAddress(),
              a.discovery(), true)), false);
      case V2 -> {
        Optional<String> preferred = version.preferredPd("", ClusterAddresses.PD_CLIENT_PORT);
        String wait = version.has(Flag.WAIT_FOR_DNS_NAME_IP_MATCH)
            ? DnsWait.untilOwnAddress(DnsWait.getentLookup("\"" + host() + "\""), host(), startTimeoutSeconds)
            : "";
        yield render(ScriptPrelude.render("/tikv-server"), wait,
            preferred.orElse(pdClientAddress), preferred.isPresent() ? Optional.empty() : acrossK8s, true);
      }
    };
  }

  private String host() {
    return Names.podHost("${POD_NAME}", Names.peerService(cluster, TikvObjects.COMPONENT), namespace,
        clusterDomain);
  }

  /** @param statusAdvertiseLast v2's place for {@code --advertise-status-addr}: after {@code --config} */
  private String render(String prelude, String dnsWait, String pd, Optional<AcrossK8sPd> across,
      boolean statusAdvertiseLast) {
    String listen = preferIPv6 ? "[::]" : "0.0.0.0";
    String statusAdvertise = "--advertise-status-addr=" + host() + ":" + TikvObjects.STATUS_PORT;
    String inline = advertiseStatusAddr && !statusAdvertiseLast ? statusAdvertise + " \\\n" : "";
    String after = advertiseStatusAddr && statusAdvertiseLast
        ? "ARGS=\"${ARGS} " + statusAdvertise + "\"\n"
        : "";
    return prelude + dnsWait + across.map(AcrossK8sPd::render).orElse("")
        + """

        ARGS="--pd=%1$s \\
        --advertise-addr=%2$s:%3$d \\
        --addr=%4$s:%3$d \\
        --status-addr=%4$s:%5$d \\
        %6$s--data-dir=%7$s \\
        --capacity=${CAPACITY} \\
        --config=%8$s"
        %9$s
        if [ -n "${STORE_LABELS:-}" ]; then
            ARGS="${ARGS} --labels ${STORE_LABELS}"
        fi
        """.formatted(across.isPresent() ? AcrossK8sPd.RESULT : pd, host(), TikvObjects.SERVER_PORT, listen, TikvObjects.STATUS_PORT,
            inline, dataDir, CONFIG_FILE, after)
        + ScriptPrelude.exec("/tikv-server", "");
  }
}
