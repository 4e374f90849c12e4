package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;

/**
 * How a start script calls the discovery service, as upstream's scripts do: {@code wget} over
 * plain HTTP, or with {@code spec.tlsCluster.enableDiscoveryMTLS} {@code curl} over HTTPS
 * presenting the component's own cluster certificate (the runtime images' {@code wget} cannot
 * present one) and trusting the discovery server only if it chains to that certificate's CA.
 *
 * @param mtls whether discovery serves mutual TLS
 * @param certDir where the component's cluster certificate is mounted ({@code ca.crt},
 *     {@code tls.crt}, {@code tls.key})
 */
public record StartScriptFetch(boolean mtls, String certDir) {

  /** The call of a component of {@code tc} whose cluster certificate is under {@code certDir}. */
  public static StartScriptFetch of(TidbCluster tc, String certDir) {
    return new StartScriptFetch(mtls(tc), certDir);
  }

  /**
   * Whether discovery serves mutual TLS: {@code spec.tlsCluster.enableDiscoveryMTLS}, which only
   * counts with {@code spec.tlsCluster.enabled} (upstream's {@code IsDiscoveryMTLSEnabled}).
   */
  public static boolean mtls(TidbCluster tc) {
    return MemberPods.tlsCluster(tc)
        && Boolean.TRUE.equals(tc.getSpec().getTlsCluster().getEnableDiscoveryMTLS());
  }

  /**
   * The command that prints the body of {@code address + path} and fails on an error answer,
   * for {@code $(...)} in a retry loop.
   */
  public String get(String address, String path) {
    if (!mtls) {
      return "wget -qO- -T 3 \"http://" + address + path + "\"";
    }
    return "curl -sS --fail --max-time 3 --cacert " + certDir + "/ca.crt --cert " + certDir
        + "/tls.crt --key " + certDir + "/tls.key \"https://" + address + path + "\"";
  }
}
