package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A cluster with {@code spec.tlsCluster.enabled} (upstream's {@code basic-tls} manifest) on the
 * full local control plane. The PD simulator serves HTTPS only, with a certificate from a CA this
 * test makes, naming the PD and TiDB Services, and refuses any client certificate not issued by
 * that CA, so a plaintext or wrongly authenticated call fails and the cluster never gets Ready.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TlsClusterIT {

  private static final String TC = "basic-tls";
  private static final String SECRET = "basic-tls-cluster-client-secret";
  private static final TestCertificates CA = TestCertificates.newCa("tls-it-ca");

  private static ControllerHarness h;
  private static ServingCertificate client;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.startTls(access, "tls-it", CA, List.of(TC + "/pd", TC + "/tidb"));
    client = CA.peer(List.of("TiDB"));
    putSecret(CA.secret(h.namespace, SECRET, client));
    h.create(Fixtures.compat("basic-tls__tidb-cluster.yaml"));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static void putSecret(Secret secret) {
    h.admin.secrets().inNamespace(h.namespace).resource(secret).forceConflicts().serverSideApply();
  }

  private static int stsReplicas(String name) {
    return h.admin.apps().statefulSets().inNamespace(h.namespace).withName(name).get()
        .getSpec().getReplicas();
  }

  private static String reachable(TidbCluster tc) {
    return Fixtures.condition(tc, "PDReachable").map(Condition::getStatus).orElse("");
  }

  @Test
  @Order(1)
  void bootstrapsToReadyOverMutualTlsWithTheClusterClientCertificate() {
    TidbCluster tc = h.awaitReady(TC);
    assertEquals(1, tc.getStatus().getPd().getMembers().size());
    assertEquals(1, tc.getStatus().getTikv().getStores().size());
    List<X509Certificate> used = h.simulator.clientCertificates();
    assertFalse(used.isEmpty(), "the operator called PD and TiDB");
    assertTrue(used.stream().allMatch(client.certificate()::equals),
        "every call presented the Secret's certificate");
    assertTrue(h.simulator.calls().stream().anyMatch(c -> "tidb".equals(c.component())),
        "TiDB's status port was asked over TLS too");
  }

  @Test
  @Order(2)
  void scalesOutOverTls() {
    h.edit(TC, tc -> {
      tc.getSpec().getTikv().setReplicas(4);
      return tc;
    });
    TidbCluster tc = h.await(TC, "4 TiKV stores, Ready",
        t -> Fixtures.ready(t) && t.getStatus().getTikv().getStores().size() == 4);
    assertEquals(4, stsReplicas(TC + "-tikv"));
    assertEquals("True", reachable(tc));
  }

  @Test
  @Order(3)
  void rotatesItsClientCertificateWithoutAFailedCall() throws Exception {
    List<String> notReady = new CopyOnWriteArrayList<>();
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler = new Thread(() -> {
      while (sampling.get()) {
        TidbCluster t = h.get(TC);
        if (!"True".equals(reachable(t)) || !Fixtures.ready(t)) {
          notReady.add(String.valueOf(t.getStatus().getConditions()));
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.start();
    ServingCertificate rotated = CA.peer(List.of("TiDB"));
    putSecret(CA.secret(h.namespace, SECRET, rotated));
    Await.until("the operator presents the rotated certificate", Duration.ofSeconds(60),
        () -> h.simulator.clientCertificates(), used -> used.contains(rotated.certificate()));
    int switched = h.simulator.clientCertificates().indexOf(rotated.certificate());
    Thread.sleep(12_000);
    sampling.set(false);
    sampler.join();

    List<X509Certificate> after = h.simulator.clientCertificates();
    assertTrue(after.subList(switched, after.size()).stream()
        .allMatch(rotated.certificate()::equals), "the old certificate is not used any more");
    assertTrue(after.size() - switched > 5, "calls went on with the new certificate");
    assertEquals(List.of(), notReady, "PD stayed reachable and the cluster Ready throughout");
  }

  @Test
  @Order(4)
  void refusesToProceedWithAWrongCa() throws Exception {
    TestCertificates wrong = TestCertificates.newCa("wrong-ca");
    putSecret(wrong.secret(h.namespace, SECRET, wrong.peer(List.of("TiDB"))));
    TidbCluster refused = h.await(TC, "PDReachable=False", t -> "False".equals(reachable(t)));
    String message = Fixtures.condition(refused, "PDReachable").orElseThrow().getMessage();
    assertTrue(message.contains("TLS handshake failed"), message);
    assertTrue(message.contains("https://"), message);
    assertTrue(h.events(TC).stream().anyMatch(e -> "Warning".equals(e.getType())
        && "ClusterTLSHandshakeFailed".equals(e.getReason())
        && e.getMessage().contains("Secret " + SECRET)), "a Warning names the Secret to check");

    h.simulator.recorder().clear();
    int callsBefore = h.simulator.clientCertificates().size();
    h.edit(TC, tc -> {
      tc.getSpec().getTikv().setReplicas(3);
      return tc;
    });
    Thread.sleep(15_000);
    assertEquals(4, stsReplicas(TC + "-tikv"), "no scale-in step without PD's answer");
    assertEquals(List.of(), h.pdMutations(TC));
    assertEquals(callsBefore, h.simulator.clientCertificates().size(),
        "no call got through the handshake");

    putSecret(CA.secret(h.namespace, SECRET, client));
    h.await(TC, "3 TiKV stores, Ready, once the right CA is back",
        t -> Fixtures.ready(t) && t.getStatus().getTikv().getStores().size() == 3);
    assertEquals(3, stsReplicas(TC + "-tikv"));
  }

  @Test
  @Order(5)
  void aMissingSecretHoldsTheClusterWithAConditionAndAWarning() throws Exception {
    h.admin.secrets().inNamespace(h.namespace).withName(SECRET).delete();
    h.edit(TC, tc -> {
      tc.getSpec().getTidb().setReplicas(2);
      return tc;
    });
    TidbCluster held = h.await(TC, "Ready=False ClusterTLSUnavailable", t ->
        Fixtures.condition(t, "Ready").map(Condition::getReason)
            .filter("ClusterTLSUnavailable"::equals).isPresent());
    String message = Fixtures.condition(held, "Ready").orElseThrow().getMessage();
    assertTrue(message.contains("Secret " + h.namespace + "/" + SECRET
        + " (ca.crt, tls.crt, tls.key) does not exist"), message);
    assertEquals(held.getMetadata().getGeneration(),
        Fixtures.condition(held, "Ready").orElseThrow().getObservedGeneration());
    Thread.sleep(8_000);
    assertEquals(1, stsReplicas(TC + "-tidb"), "nothing is applied while the Secret is missing");
    assertEquals(1, h.events(TC).stream()
        .filter(e -> "ClusterTLSUnavailable".equals(e.getReason()))
        .filter(e -> "Warning".equals(e.getType()))
        .count(), "one Warning for the one problem");

    putSecret(CA.secret(h.namespace, SECRET, client));
    h.await(TC, "2 TiDB, Ready", t -> Fixtures.ready(t)
        && stsReplicas(TC + "-tidb") == 2);
  }

  @Test
  @Order(6)
  void upgradesOverTls() {
    int from = h.simulator.clientCertificates().size();
    h.edit(TC, tc -> {
      tc.getSpec().setVersion("v8.5.8");
      return tc;
    });
    TidbCluster tc = h.await(TC, "every pod on v8.5.8, Ready", t -> Fixtures.ready(t)
        && "pingcap/pd:v8.5.8".equals(t.getStatus().getPd().getImage())
        && "pingcap/tikv:v8.5.8".equals(t.getStatus().getTikv().getImage())
        && "pingcap/tidb:v8.5.8".equals(t.getStatus().getTidb().getImage()));
    assertEquals(3, tc.getStatus().getTikv().getStores().size());
    List<X509Certificate> during = h.simulator.clientCertificates();
    assertTrue(during.size() > from, "the upgrade asked PD over TLS");
    assertTrue(during.subList(from, during.size()).stream().allMatch(client.certificate()::equals),
        "every call of the upgrade presented the Secret's certificate");
  }
}
