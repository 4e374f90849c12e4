package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.TicdcCapture;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.api.v1alpha1.cluster.TlsCluster;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimulatedPumpServers;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TiCDC, TiProxy and Pump in a TLS cluster on the full local control plane: the simulator serves
 * their APIs over HTTPS only, with a certificate naming {@code <tc>-ticdc-peer}, {@code
 * <tc>-tiproxy-peer} and, as upstream's guide issues a pump's, only {@code *.<tc>-pump}, and
 * refuses any client without a certificate of the test's CA. The captures, proxies and pumps come
 * up Ready; a TiCDC scale-in resigns and drains the owner and a Pump scale-in takes the pump
 * offline, every call presenting the cluster client certificate.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComponentApisTlsIT {

  private static final String TC = "cdc-tls";
  private static final TestCertificates CA = TestCertificates.newCa("ticdc-tls-it-ca");

  private static ControllerHarness h;
  private static ServingCertificate client;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.startTls(access, "component-apis-tls-it", CA,
        List.of(TC + "/pd", TC + "/tidb", TC + "/ticdc", TC + "/tiproxy", TC + "/pump"));
    client = CA.peer(List.of("TiDB"));
    Secret secret = CA.secret(h.namespace, TC + "-cluster-client-secret", client);
    h.admin.secrets().inNamespace(h.namespace).resource(secret).forceConflicts().serverSideApply();
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static List<RecordedCall> ticdcCalls() {
    return calls("ticdc");
  }

  private static List<RecordedCall> calls(String component) {
    List<RecordedCall> out = new ArrayList<>();
    for (RecordedCall c : h.simulator.recorder().calls(new ClusterKey(h.namespace, TC))) {
      if (component.equals(c.component())) {
        out.add(c);
      }
    }
    return out;
  }

  @Test
  @Order(1)
  void capturesProxiesAndPumpsComeUpReadyOverMutualTls() {
    TidbCluster tc = Fixtures.small(TC, "RollingUpdate");
    TlsCluster tls = new TlsCluster();
    tls.setEnabled(true);
    tc.getSpec().setTlsCluster(tls);
    tc.getSpec().setTicdc(ApiObjects.parse("""
        baseImage: pingcap/ticdc
        replicas: 2
        gracefulShutdownTimeout: 5m
        """, TicdcSpec.class));
    tc.getSpec().setTiproxy(ApiObjects.parse("""
        baseImage: pingcap/tiproxy
        version: v1.3.0
        replicas: 1
        """, TiproxySpec.class));
    tc.getSpec().setPump(ApiObjects.parse("""
        baseImage: pingcap/tidb-binlog
        replicas: 2
        requests: {storage: 1Gi}
        """, PumpSpec.class));
    h.create(tc);
    TidbCluster ready = h.awaitReady(TC);
    Map<String, TicdcCapture> captures = ready.getStatus().getTicdc().getCaptures();
    assertEquals(List.of("cdc-tls-ticdc-0", "cdc-tls-ticdc-1"), List.copyOf(captures.keySet()));
    assertTrue(captures.values().stream().allMatch(c -> Boolean.TRUE.equals(c.getReady())));
    assertTrue(ready.getStatus().getTiproxy().getMembers().get("cdc-tls-tiproxy-0").getHealth(),
        "TiProxy's health answered over TLS");
    assertEquals(2, ready.getStatus().getPump().getMembers().size());
    assertFalse(ticdcCalls().isEmpty(), "TiCDC's API was asked");
    assertFalse(calls("tiproxy").isEmpty(), "TiProxy's API was asked");
    assertTrue(h.simulator.clientCertificates().stream().allMatch(client.certificate()::equals),
        "every call, TiCDC's and TiProxy's included, presented the Secret's certificate");
  }

  @Test
  @Order(2)
  void aScaleInResignsAndDrainsTheOwnerOverTls() {
    h.simulator.clusters().ticdc(new ClusterKey(h.namespace, TC)).setOwner("cdc-tls-ticdc-1");
    h.simulator.recorder().clear();
    int from = h.simulator.clientCertificates().size();
    h.edit(TC, tc -> {
      tc.getSpec().getTicdc().setReplicas(1);
      return tc;
    });
    h.await(TC, "1 capture, Ready",
        t -> Fixtures.ready(t) && t.getStatus().getTicdc().getCaptures().size() == 1);
    List<String> mutations = new ArrayList<>();
    for (RecordedCall c : ticdcCalls()) {
      String line = c.request() + " via " + c.instance();
      if (!"GET".equals(c.method())
          && (mutations.isEmpty() || !mutations.get(mutations.size() - 1).equals(line))) {
        mutations.add(line);
      }
    }
    assertEquals(List.of(
        "POST /api/v1/owner/resign via cdc-tls-ticdc-1",
        "PUT /api/v1/captures/drain via cdc-tls-ticdc-1"), mutations);
    List<java.security.cert.X509Certificate> used = h.simulator.clientCertificates();
    assertTrue(used.subList(from, used.size()).stream().allMatch(client.certificate()::equals),
        "the resign and drain presented the Secret's certificate");
  }

  @Test
  @Order(3)
  void aPumpScaleInTakesThePumpOfflineOverTls() {
    h.simulator.recorder().clear();
    int from = h.simulator.clientCertificates().size();
    h.edit(TC, tc -> {
      tc.getSpec().getPump().setReplicas(1);
      return tc;
    });
    TidbCluster tc = h.await(TC, "the pump StatefulSet at 1, Ready", t -> Fixtures.ready(t)
        && h.admin.apps().statefulSets().inNamespace(h.namespace).withName(TC + "-pump").get()
            .getSpec().getReplicas() == 1);
    List<String> closes = new ArrayList<>();
    for (RecordedCall c : calls("pump")) {
      closes.add(c.request() + " via " + c.instance());
    }
    assertEquals(List.of("PUT /state/" + SimulatedPumpServers.nodeId("cdc-tls-pump-1")
        + "/close via cdc-tls-pump-1"), closes);
    assertEquals(List.of("online", "offline"),
        tc.getStatus().getPump().getMembers().stream().map(m -> m.getState()).toList(),
        "the registry keeps the offline pump, as upstream lists it");
    List<java.security.cert.X509Certificate> used = h.simulator.clientCertificates();
    assertTrue(used.subList(from, used.size()).stream().allMatch(client.certificate()::equals),
        "the close call presented the Secret's certificate");
  }
}
