package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.micrometer.core.instrument.Counter;
import io.tidb.operator.controller.runtime.KubeApiRequestMetrics;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Controllers other than the TidbCluster one start their owned objects' informers on their first
 * resource ({@code ReconcileWork.ownedInformersOnFirstResource}): with every controller running
 * and no TidbMonitor, TidbInitializer, Backup or Restore in the namespace, nothing watches
 * Ingresses (owned by TidbMonitors alone) or Jobs; the first TidbMonitor starts the TidbMonitor
 * controller's, its objects are made, and a deleted one is made again (its informer's events
 * reach the monitor).
 */
@WithLocalControlPlane
class OwnedInformersOnDemandIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "owned-on-demand", Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static double watches(String resource) {
    return h.operator().registry().find(KubeApiRequestMetrics.METER)
        .tags("verb", "watch", "resource", resource).counters().stream()
        .mapToDouble(Counter::count).sum();
  }

  @Test
  void aMonitorsInformersStartWithTheFirstMonitor() {
    // the TidbCluster controller's informers started with it
    Await.until("the TidbCluster controller's StatefulSet watch", Duration.ofSeconds(30),
        () -> watches("statefulsets"), n -> n >= 1);
    assertEquals(0, watches("ingresses"), "Ingresses watched before any TidbMonitor");
    assertEquals(0, watches("jobs"), "Jobs watched before any TidbInitializer, Backup or Restore");

    h.create(Fixtures.small("mon", null));
    h.admin.resource(Fixtures.monitor(h.namespace, "mon", "clusters: [{name: mon}]\n")).create();

    StatefulSet made = Await.until("the monitor's StatefulSet", ControllerHarness.CONVERGE,
        () -> h.admin.apps().statefulSets().inNamespace(h.namespace).withName("mon-monitor").get(),
        s -> s != null);
    assertNotNull(made);
    assertTrue(watches("ingresses") >= 1, "the first TidbMonitor started its informers");
    assertEquals(0, watches("jobs"), "no TidbInitializer, Backup or Restore: Jobs still unwatched");

    h.admin.apps().statefulSets().inNamespace(h.namespace).withName("mon-monitor").delete();
    Await.until("the monitor's StatefulSet made again", ControllerHarness.CONVERGE,
        () -> h.admin.apps().statefulSets().inNamespace(h.namespace).withName("mon-monitor").get(),
        s -> s != null && !s.getMetadata().getUid().equals(made.getMetadata().getUid()));
  }
}
