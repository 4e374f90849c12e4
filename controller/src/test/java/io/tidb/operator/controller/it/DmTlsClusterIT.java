package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A DMCluster with {@code tlsCluster.enabled}: the DM simulator serves HTTPS only with a
 * certificate naming the dm-master Services and refuses client certificates not from the test's
 * CA. The operator reaches Ready presenting {@code <dc>-dm-client-secret} on every call, mounts the
 * cluster certificates and {@code tlsClientSecretNames} into the pods, scales dm-master in over
 * TLS, and while the Secret is missing holds the cluster ({@code ClusterTLSUnavailable}) without a
 * DM API call.
 */
@WithLocalControlPlane
class DmTlsClusterIT {

  private static final String SECRET = "basic-dm-client-secret";
  private static final TestCertificates CA = TestCertificates.newCa("dm-tls-it-ca");

  private static DmHarness h;
  private static ServingCertificate client;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-tls-it", Duration.ofMinutes(5),
        namespace -> CA.server(CA.peer(TestCertificates.componentNames("basic", namespace, "dm-master"))));
    client = CA.peer(List.of("dm-client"));
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

  @Test
  void runsOverMutualTlsAndHoldsWithoutItsClientSecret() {
    h.create("basic", """
        version: v8.5.7
        tlsCluster: {enabled: true}
        tlsClientSecretNames: [mysql-source-tls]
        master: {replicas: 3, storageSize: 1Gi}
        worker: {replicas: 1, storageSize: 1Gi}
        """);
    DmCluster held = h.await("basic", "held: no client Secret", dc -> DmHarness.condition(dc, "Ready")
        .filter(c -> "ClusterTLSUnavailable".equals(c.getReason())).isPresent());
    assertTrue(DmHarness.condition(held, "Ready").orElseThrow().getMessage().contains(SECRET));
    assertTrue(h.hasEvent("basic", "ClusterTLSUnavailable"));
    assertEquals(null, h.statefulSet("basic-dm-master"), "nothing is applied while held");
    assertEquals(List.of(), h.simulator.calls());

    putSecret(CA.secret(h.namespace, SECRET, client));
    h.awaitReady("basic");
    List<X509Certificate> used = h.simulator.clientCertificates();
    assertFalse(used.isEmpty());
    assertTrue(used.stream().allMatch(client.certificate()::equals), "every call presented the Secret's certificate");

    StatefulSet master = h.statefulSet("basic-dm-master");
    var volumes = master.getSpec().getTemplate().getSpec().getVolumes();
    assertTrue(volumes.stream().anyMatch(v -> v.getSecret() != null
        && "basic-dm-master-cluster-secret".equals(v.getSecret().getSecretName())));
    assertTrue(volumes.stream().anyMatch(v -> v.getSecret() != null
        && "mysql-source-tls".equals(v.getSecret().getSecretName())));
    assertTrue(h.statefulSet("basic-dm-worker").getSpec().getTemplate().getSpec().getVolumes().stream()
        .anyMatch(v -> v.getSecret() != null && "basic-dm-worker-cluster-secret".equals(v.getSecret().getSecretName())));

    h.edit("basic", dc -> {
      dc.getSpec().getMaster().setReplicas(2);
      return dc;
    });
    h.await("basic", "two members over TLS", d -> DmHarness.ready(d) && d.getStatus().getMaster().getMembers().size() == 2);
    assertEquals(List.of("DELETE /apis/v1alpha1/members/master/basic-dm-master-2"), h.dmMutations("basic"));

    h.admin.secrets().inNamespace(h.namespace).withName(SECRET).delete();
    DmCluster again = h.await("basic", "held again", dc -> DmHarness.condition(dc, "Ready")
        .map(Condition::getReason).filter("ClusterTLSUnavailable"::equals).isPresent());
    assertEquals(2, h.statefulSet("basic-dm-master").getSpec().getReplicas());
    assertEquals(again.getMetadata().getGeneration(), DmHarness.condition(again, "Ready").orElseThrow().getObservedGeneration());
  }
}
