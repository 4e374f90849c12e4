package io.tidb.operator.controller.tidbcluster.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.certs.MutualTls;
import io.tidb.operator.pd.PdClientOptions;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS clients of each TLS cluster, made from its {@code <tc>-cluster-client-secret}. The
 * Secret is read on every reconcile; the clients are rebuilt only when its content changed (a
 * rotated certificate is used from the next reconcile on, without a restart), and kept otherwise
 * so connections are reused.
 */
public final class ClusterTransports {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterTransports.class);

  /**
   * The clients of one cluster: one per component whose certificate is checked, each trusting
   * only a server whose certificate names that component's Service.
   *
   * @param pd checks PD's certificate names {@code names.pd()}
   * @param tidb checks TiDB's certificate names {@code names.tidb()}
   * @param ticdc checks TiCDC's certificate names {@code names.ticdc()}
   */
  public record Transport(
      String fingerprint, ServerNames names, HttpClient pd, HttpClient tidb, HttpClient ticdc) {}

  private final ClientSecretSource secrets;
  private final Duration connectTimeout;
  private final Clock clock;
  private final Map<String, Transport> byCluster = new ConcurrentHashMap<>();

  public ClusterTransports(ClientSecretSource secrets, Duration connectTimeout, Clock clock) {
    this.secrets = secrets;
    this.connectTimeout = connectTimeout;
    this.clock = clock;
  }

  /**
   * The clients for cluster {@code namespace/name}, whose servers must present certificates for
   * {@code names}.
   *
   * @throws ClusterTlsUnavailableException when the Secret is missing or unusable
   */
  public Transport forCluster(String namespace, String name, ServerNames names) {
    String secretName = ClusterClientCertificate.secretName(name);
    Optional<Secret> secret = secrets.get(namespace, secretName);
    if (secret.isEmpty()) {
      byCluster.remove(namespace + "/" + name);
      throw new ClusterTlsUnavailableException(List.of("spec.tlsCluster.enabled is true but the "
          + "Secret " + namespace + "/" + secretName + " (ca.crt, tls.crt, tls.key) does not exist"));
    }
    ClusterClientCertificate.Decoded decoded =
        ClusterClientCertificate.decode(secretName, secret.get().getData(), clock.instant());
    if (!decoded.valid()) {
      byCluster.remove(namespace + "/" + name);
      throw new ClusterTlsUnavailableException(decoded.problems());
    }
    ClusterClientCertificate cert = decoded.certificate();
    return byCluster.compute(namespace + "/" + name, (key, current) -> {
      if (current != null && current.fingerprint().equals(cert.fingerprint())
          && current.names().equals(names)) {
        return current;
      }
      LOG.info("event=cluster_tls_loaded cluster={} secret={} subject=\"{}\" notAfter={} "
              + "reloaded={}", key, secretName,
          cert.chain().get(0).getSubjectX500Principal().getName(),
          cert.chain().get(0).getNotAfter().toInstant(), current != null);
      return new Transport(cert.fingerprint(), names, client(cert, names.pd()),
          client(cert, names.tidb()), client(cert, names.ticdc()));
    });
  }

  private HttpClient client(ClusterClientCertificate cert, String serverHost) {
    return PdClientOptions.defaults()
        .withTimeouts(connectTimeout, connectTimeout)
        .withSslContext(MutualTls.client(cert.ca(), cert.chain(), cert.key(), serverHost))
        .newHttpClient();
  }
}
