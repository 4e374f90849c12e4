package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.controller.monitor.TidbMonitorWork;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A monitor of a TLS cluster on the full local control plane, with the PD simulator serving HTTPS
 * only: the TiDB Dashboard keys reach the cluster's PD over mutual TLS with the cluster's client
 * certificate (a plaintext or unauthenticated call would be refused).
 */
@WithLocalControlPlane
class MonitorDashboardTlsIT {

  private static final String TC = "basic-tls";
  private static final TestCertificates CA = TestCertificates.newCa("monitor-tls-it-ca");

  private static ControllerHarness h;
  private static ServingCertificate client;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.startTls(access, "monitor-tls", CA, List.of(TC + "/pd", TC + "/tidb"));
    client = CA.peer(List.of("TiDB"));
    Secret secret = CA.secret(h.namespace, TC + "-cluster-client-secret", client);
    h.admin.secrets().inNamespace(h.namespace).resource(secret).forceConflicts().serverSideApply();
    h.create(Fixtures.compat("basic-tls__tidb-cluster.yaml"));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void theDashboardKeysAreWrittenOverMutualTls() {
    h.awaitReady(TC);
    h.admin.resource(ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbMonitor
        metadata: {name: secure, namespace: %s}
        spec:
          clusters: [{name: %s}]
          prometheus: {baseImage: prom/prometheus, version: v2.27.1}
          initializer: {baseImage: pingcap/tidb-monitor-initializer, version: v8.5.7}
          reloader: {baseImage: pingcap/tidb-monitor-reloader, version: v1.0.1}
        """.formatted(h.namespace, TC), TidbMonitor.class)).create();

    Await.until("DashboardLinked=True", Duration.ofSeconds(120),
        () -> h.admin.resources(TidbMonitor.class).inNamespace(h.namespace).withName("secure").get(),
        tm -> MonitorHarness.condition(tm, TidbMonitorWork.DASHBOARD_LINKED)
            .map(c -> "True".equals(c.getStatus())).orElse(false));
    List<RecordedCall> puts = h.simulator.calls().stream()
        .filter(c -> c.path().equals("/v3/kv/put")).toList();
    assertEquals(1, puts.size(), "only /topology/prometheus (no Grafana): " + puts);
    assertEquals(200, puts.get(0).status());
    assertTrue(puts.get(0).body().contains("\"lease\""), puts.get(0).body());
    List<X509Certificate> used = h.simulator.clientCertificates();
    assertTrue(used.stream().allMatch(client.certificate()::equals),
        "every call, the monitor's included, presented the cluster's client certificate");
  }
}
