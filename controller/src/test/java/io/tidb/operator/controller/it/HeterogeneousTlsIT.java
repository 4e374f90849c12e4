package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.api.v1alpha1.cluster.TlsCluster;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A TLS heterogeneous pair: upstream's {@code heterogeneous-tls} cluster {@code basic} and
 * {@code basic-heterogeneous} (upstream's heterogeneous manifest with {@code tlsCluster.enabled})
 * joining its PD. The simulator serves HTTPS only, with one certificate naming basic's PD and
 * both TiDB Services; each TidbCluster's operator calls present its own client certificate.
 */
@WithLocalControlPlane
class HeterogeneousTlsIT {

  private static final String A = "basic";
  private static final String B = "basic-heterogeneous";
  private static final TestCertificates CA = TestCertificates.newCa("hetero-tls-it-ca");

  private static ControllerHarness h;
  private static ServingCertificate clientA;
  private static ServingCertificate clientB;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.startTls(access, "hetero-tls-it", CA, List.of(A + "/pd", A + "/tidb", B + "/tidb"));
    clientA = CA.peer(List.of("TiDB"));
    clientB = CA.peer(List.of("TiDB"));
    h.admin.resource(CA.secret(h.namespace, A + "-cluster-client-secret", clientA)).create();
    h.admin.resource(CA.secret(h.namespace, B + "-cluster-client-secret", clientB)).create();
    h.simulator.clusters().join(new ClusterKey(h.namespace, B), new ClusterKey(h.namespace, A));
    h.create(Fixtures.compat("heterogeneous-tls__tidb-cluster.yaml"));
    TidbCluster b = Fixtures.compat("heterogeneous__heterogeneous-cluster.yaml");
    b.getSpec().setTiflash(null);
    TlsCluster tls = new TlsCluster();
    tls.setEnabled(true);
    b.getSpec().setTlsCluster(tls);
    h.create(b);
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Set<String> pods(Map<String, TikvStore> stores) {
    return stores == null ? Set.of()
        : stores.values().stream().map(TikvStore::getPodName).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void theTlsPairConvergesEachCallingPdWithItsOwnCertificate() {
    TidbCluster a = h.awaitReady(A);
    TidbCluster b = h.awaitReady(B);
    assertEquals(Set.of("basic-tikv-0"), pods(a.getStatus().getTikv().getStores()));
    assertEquals(Set.of("basic-heterogeneous-tikv-0"), pods(b.getStatus().getTikv().getStores()));
    // basic's store is basic-heterogeneous's peer; Ready does not wait for it (basic's TiKV may
    // come up after basic-heterogeneous's last reconcile), the next reconcile records it.
    h.await(B, "basic's store among its peers",
        tc -> Set.of("basic-tikv-0").equals(pods(tc.getStatus().getTikv().getPeerStores())));
    List<X509Certificate> used = h.simulator.clientCertificates();
    assertTrue(used.contains(clientA.certificate()), "basic's calls present its certificate");
    assertTrue(used.contains(clientB.certificate()), "basic-heterogeneous's calls present its own");
    assertTrue(used.stream().allMatch(c -> c.equals(clientA.certificate()) || c.equals(clientB.certificate())));
    assertTrue(h.simulator.calls().stream().anyMatch(c -> "tidb".equals(c.component())
        && c.cluster() != null && B.equals(c.cluster().name())),
        "basic-heterogeneous's TiDB status port was asked over TLS");
  }
}
