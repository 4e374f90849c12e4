package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A TidbCluster the model cannot read (a string where the CRD keeps an affinity without schema,
 * stored with no webhook to refuse it) no longer stops the operator: it is left alone, its status
 * as it was, with a Warning Event naming the field; every other cluster is reconciled, also after
 * a restart that lists it; corrected, it is reconciled like any other. Before, the informer that
 * read it stopped and JOSDK ended the process ("Fatal error in informer").
 */
@WithLocalControlPlane
class UnreadableClusterIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "unreadable-cluster", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> clusters() {
    return h.admin.genericKubernetesResources("pingcap.com/v1alpha1", "TidbCluster").inNamespace(h.namespace);
  }

  private static List<Event> unreadableEvents(String name) {
    return h.events(name).stream()
        .filter(e -> ValidatingReconciler.REASON_UNREADABLE.equals(e.getReason()))
        .toList();
  }

  @Test
  void anUnreadableClusterIsLeftAloneAndTheOthersAreReconciled() {
    // stored as JSON, as kubectl would with the webhook switched off; a status the operator must keep
    String json = ApiObjects.toJson(Fixtures.small("broken", "InPlace"))
        .replace("\"pd\":{", "\"pd\":{\"affinity\":\"nonsense\",");
    GenericKubernetesResource broken = ApiObjects.serialization().unmarshal(json, GenericKubernetesResource.class);
    broken.getMetadata().setNamespace(h.namespace);
    clusters().resource(broken).create();
    clusters().withName("broken").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"status\":{\"clusterID\":\"kept-as-it-was\"}}");

    h.create(Fixtures.small("good", "InPlace"));
    h.awaitReady("good");
    Event event = Await.until("the Unreadable Event of broken", ControllerHarness.CONVERGE,
        () -> unreadableEvents("broken"), events -> !events.isEmpty()).get(0);
    assertEquals("Warning", event.getType());
    assertTrue(event.getMessage().contains("spec.pd.affinity: Invalid value: \"nonsense\": must be of type object"),
        event.getMessage());
    assertEquals(Map.of("clusterID", "kept-as-it-was"), clusters().withName("broken").get().get("status"));
    assertTrue(h.admin.apps().statefulSets().inNamespace(h.namespace).withName("broken-pd").get() == null,
        "nothing made for the unreadable cluster");

    // a restart lists it: the operator starts and takes a new cluster
    h.stopOperator();
    h.startOperator();
    h.create(Fixtures.small("after-restart", "InPlace"));
    h.awaitReady("after-restart");
    // one Event per version and process, not one per reconcile: a resync (10 s here) adds none
    int reported = Await.until("the restarted operator's Unreadable Event", ControllerHarness.CONVERGE,
        () -> unreadableEvents("broken").size(), n -> n >= 2);
    sleep(Duration.ofSeconds(12));
    assertEquals(reported, unreadableEvents("broken").size(), "Unreadable Events after a resync");

    // corrected, it is reconciled like any other
    clusters().withName("broken").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"pd\":{\"affinity\":null}}}");
    h.awaitReady("broken");
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
