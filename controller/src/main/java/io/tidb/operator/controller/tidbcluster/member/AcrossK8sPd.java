package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.Optional;

/**
 * With {@code spec.acrossK8s}, a component does not connect to a fixed PD address: its start
 * script asks the discovery service {@code /verify/<base64(pdUrl)>} (retrying until it answers)
 * and uses the answer, the cluster's own PD followed by the PD members of the other Kubernetes
 * clusters, as upstream's scripts do. {@link #render()} sets {@code ${result}}.
 *
 * @param pdUrl the address the component would use otherwise, {@code <tc>-pd:2379} (TiCDC:
 *     {@code <scheme>://<tc>-pd:2379})
 * @param discoveryAddress {@code <tc>-discovery.<ns>:10261}
 * @param discovery how the script calls discovery (plain, or mTLS with the component's cluster
 *     certificate)
 * @param keepScheme the answer is used as discovery gives it (TiCDC's {@code --pd} takes URLs);
 *     otherwise {@code http://} is stripped (TiKV, TiDB), as upstream's scripts do
 */
public record AcrossK8sPd(
    String pdUrl, String discoveryAddress, StartScriptFetch discovery, boolean keepScheme) {

  /** The shell variable holding the answer: what the component is given as its PD address. */
  public static final String RESULT = "${result}";

  /**
   * The lookup of a component of {@code tc} whose cluster certificate is under {@code certDir},
   * when {@code spec.acrossK8s} is set.
   */
  public static Optional<AcrossK8sPd> of(TidbCluster tc, String pdUrl, String certDir) {
    return of(tc, pdUrl, certDir, false);
  }

  /** TiCDC's lookup: {@code pdUrl} with its scheme, the answer used as it is. */
  public static Optional<AcrossK8sPd> withScheme(TidbCluster tc, String pdUrl, String certDir) {
    return of(tc, pdUrl, certDir, true);
  }

  private static Optional<AcrossK8sPd> of(
      TidbCluster tc, String pdUrl, String certDir, boolean keepScheme) {
    if (!Boolean.TRUE.equals(tc.getSpec().getAcrossK8s())) {
      return Optional.empty();
    }
    String discovery = ClusterAddresses.discoveryName(tc.getMetadata().getName()) + "."
        + tc.getMetadata().getNamespace() + ":" + ClusterAddresses.DISCOVERY_PORT;
    return Optional.of(
        new AcrossK8sPd(pdUrl, discovery, StartScriptFetch.of(tc, certDir), keepScheme));
  }

  /** The script lines that leave the PD endpoints in {@code ${result}}. */
  public String render() {
    return """

        # Across Kubernetes clusters: discovery says which PD endpoints to use.
        encoded_pd_url=$(printf '%%s' "%1$s" | base64 | tr -d '\\n')
        until answer=$(%2$s 2>/dev/null) && [ -n "${answer}" ]; do
            echo "waiting for the verification of PD endpoints ..."
            sleep $(( ${RANDOM:-1} %% 5 + 1 ))
        done
        %3$s
        """.formatted(pdUrl, discovery.get(discoveryAddress, "/verify/${encoded_pd_url}"),
            keepScheme ? "result=\"${answer}\"" : "result=$(printf '%s' \"${answer}\" | sed 's|http://||g')");
  }
}
