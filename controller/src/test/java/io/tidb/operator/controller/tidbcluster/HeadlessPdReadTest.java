package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A heterogeneous TLS cluster without PD across Kubernetes clusters reads the referenced PD
 * through its headless Service, so the PD's certificate must name {@code <ref>-pd-peer.<ns>}, as
 * upstream's PD control; without {@code acrossK8s}, {@code <ref>-pd.<ns>}.
 */
class HeadlessPdReadTest {

  private final TestCertificates certs = TestCertificates.newCa("headless-ca");
  private PdSimulatorServer sim;
  private ClusterApiFactory factory;

  @BeforeEach
  void start() throws Exception {
    // the PD's certificate names only its headless Service
    sim = PdSimulatorServer.startTls(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0),
        certs.server(certs.peer(List.of("first-pd-peer.ns1"))));
    sim.pd(new ClusterKey("ns1", "first")).addMember("first-pd-0");
    Secret client = certs.secret("ns2", "second-cluster-client-secret", certs.peer(List.of("TiDB")));
    factory = new ClusterApiFactory(
        new ComponentUrls(sim.pdUrlTemplate(), sim.tidbStatusUrlTemplate(),
            sim.pdMemberUrlTemplate(), Duration.ofSeconds(2)),
        (ns, name) -> Optional.of(client).filter(s -> s.getMetadata().getName().equals(name)
            && ns.equals("ns2")),
        Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    sim.close();
  }

  private static TidbCluster second(boolean acrossK8s) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getMetadata().setName("second");
    tc.getMetadata().setNamespace("ns2");
    tc.getSpec().setPd(null);
    tc.getSpec().setAcrossK8s(acrossK8s);
    tc.getSpec().getTlsCluster().setEnabled(true);
    TidbClusterRef ref = new TidbClusterRef();
    ref.setName("first");
    ref.setNamespace("ns1");
    tc.getSpec().setCluster(ref);
    return tc;
  }

  @Test
  void acrossKubernetesClustersThePeerServiceNameIsChecked() throws Exception {
    assertEquals(List.of("first-pd-0"),
        factory.forCluster(second(true)).pdHealth().stream().map(h -> h.name()).toList());
  }

  @Test
  void otherwiseTheClientServiceNameIsChecked() {
    assertThrows(IOException.class, () -> factory.forCluster(second(false)).pdHealth());
  }
}
