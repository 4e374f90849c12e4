package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An operator that watches two namespaces by name starts while objects already exist in both: each
 * namespace's objects must be in its caches. JOSDK starts one informer per namespace for each
 * kind, and they once shared one store, which fabric8's informer treats as its own: the second
 * namespace's first list removed the first namespace's objects (a TidbMonitor and the TidbClusters
 * it monitors were then not found). The TidbMonitor controller is the one run here; every
 * controller's informers are built the same way ({@code PrunedItemStore#forNamespaces}).
 */
@WithLocalControlPlane
class WatchedNamespacesIT {

  private static MonitorHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = MonitorHarness.unstarted(access, "watched-ns");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void objectsInBothNamespacesBeforeTheStartAreFoundAfterIt() {
    h.cluster(h.ns, "near", false);
    h.cluster(h.other, "far", false);
    String bothClusters = "clusterScoped: true\nclusters: [{name: near}, {name: far, namespace: "
        + h.other + "}]\n";
    h.monitorIn(h.ns, "here", bothClusters);
    h.monitorIn(h.other, "there", "clusters: [{name: far}]\n");

    h.startOperator();

    TidbMonitor here = h.await(h.ns, "here", "ClustersFound=True",
        m -> MonitorHarness.is(m, "ClustersFound", "True"));
    assertEquals(List.of(h.ns + "/near", h.other + "/far"), here.getStatus().getClusters());
    TidbMonitor there = h.await(h.other, "there", "ClustersFound=True",
        m -> MonitorHarness.is(m, "ClustersFound", "True"));
    assertEquals(List.of(h.other + "/far"), there.getStatus().getClusters());
  }
}
