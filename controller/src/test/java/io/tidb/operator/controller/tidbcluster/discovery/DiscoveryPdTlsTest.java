package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException;
import io.tidb.operator.pd.ComponentHttp;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdConnectionException;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Discovery's PD client under cluster TLS, against the PD simulator serving HTTPS with a
 * certificate for {@code basic-pd.ns}: it presents {@code basic-cluster-client-secret}, follows
 * a rotated Secret, and says so when the Secret is missing.
 */
class DiscoveryPdTlsTest {

  private final TestCertificates certs = TestCertificates.newCa("discovery-test-ca");
  private final AtomicReference<Secret> secret = new AtomicReference<>();
  private PdSimulatorServer pd;
  private URI pdUrl;

  @BeforeEach
  void start() throws Exception {
    pd = PdSimulatorServer.startTls(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0),
        certs.server(certs.peer(TestCertificates.componentNames("basic", "ns", "pd"))));
    pd.pd(new ClusterKey("ns", "basic")).addMember("basic-pd-0");
    pdUrl = pd.pdUrl(new ClusterKey("ns", "basic"));
  }

  @AfterEach
  void stop() {
    pd.close();
  }

  private Supplier<ComponentHttp> tlsClient() {
    return DiscoveryMain.pdHttp((ns, name) -> Optional.ofNullable(secret.get())
        .filter(s -> s.getMetadata().getName().equals(name)), "ns", "basic", true);
  }

  @Test
  void callsPdWithTheClusterClientCertificateAndFollowsItsRotation() {
    var first = certs.peer(List.of("TiDB"));
    secret.set(certs.secret("ns", "basic-cluster-client-secret", first));
    Supplier<ComponentHttp> http = tlsClient();
    assertEquals(List.of("basic-pd-0"), new PdClient(pdUrl, http.get(), PdClientOptions.DEFAULT_TIMEOUT)
        .members().members().stream().map(m -> m.name()).toList());
    var rotated = certs.peer(List.of("TiDB"));
    secret.set(certs.secret("ns", "basic-cluster-client-secret", rotated));
    new PdClient(pdUrl, http.get(), PdClientOptions.DEFAULT_TIMEOUT).members();
    assertEquals(List.of(first.certificate(), rotated.certificate()), pd.clientCertificates());
  }

  @Test
  void withoutTheClusterClientCertificateTheCallFails() {
    Supplier<ComponentHttp> plain = DiscoveryMain.pdHttp((ns, name) -> Optional.empty(), "ns", "basic", false);
    assertThrows(PdConnectionException.class,
        () -> new PdClient(pdUrl, plain.get(), PdClientOptions.DEFAULT_TIMEOUT).members());
  }

  @Test
  void aMissingSecretIsNamed() {
    ClusterTlsUnavailableException e =
        assertThrows(ClusterTlsUnavailableException.class, () -> tlsClient().get());
    assertEquals("spec.tlsCluster.enabled is true but the Secret ns/basic-cluster-client-secret"
        + " (ca.crt, tls.crt, tls.key) does not exist", e.getMessage());
  }
}
