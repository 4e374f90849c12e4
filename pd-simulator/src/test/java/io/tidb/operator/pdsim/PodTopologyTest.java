package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodTopologyTest {

  private static final java.util.function.Predicate<String> UP = node -> false;

  private static Pod pod(String namespace, String name, String component, String instance,
      String phase) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withUid(name + "-uid")
        .withLabels(Map.of(
            "app.kubernetes.io/component", component,
            "app.kubernetes.io/instance", instance,
            "app.kubernetes.io/managed-by", "tidb-operator"))
        .endMetadata()
        .withNewStatus().withPhase(phase).endStatus()
        .build();
  }

  @Test
  void groupsPodsByClusterAndComponent() {
    List<Pod> pods = List.of(
        pod("ns", "basic-pd-1", "pd", "basic", "Running"),
        pod("ns", "basic-pd-0", "pd", "basic", "Pending"),
        pod("ns", "basic-tikv-0", "tikv", "basic", "Running"),
        pod("ns", "basic-tiflash-0", "tiflash", "basic", "Running"),
        pod("ns", "basic-tidb-0", "tidb", "basic", "Running"),
        pod("ns", "basic-discovery-x", "discovery", "basic", "Running"),
        pod("other", "basic-pd-0", "pd", "basic", "Running"));

    ClusterKey key = new ClusterKey("ns", "basic");
    List<Pod> ofBasic = pods.stream()
        .filter(p -> PodTopology.clusterOf(p).orElseThrow().equals(key))
        .toList();
    assertEquals(6, ofBasic.size());
    ClusterPods basic = PodTopology.clusterPods(ofBasic, node -> false);
    assertEquals(List.of(new PodInstance("basic-pd-0", "basic-pd-0-uid", false),
        new PodInstance("basic-pd-1", "basic-pd-1-uid", true)), basic.pd());
    assertEquals(1, basic.tikv().size());
    assertEquals(1, basic.tiflash().size());
    assertEquals(List.of(new PodInstance("basic-tidb-0", "basic-tidb-0-uid", true)),
        basic.tidb());
    assertEquals(new ClusterKey("other", "basic"), PodTopology.clusterOf(pods.get(6)).orElseThrow());
  }

  @Test
  void podsNotManagedByTheOperatorHaveNoCluster() {
    Pod foreign = new PodBuilder().withNewMetadata().withNamespace("ns").withName("x")
        .withLabels(Map.of("app.kubernetes.io/instance", "basic")).endMetadata().build();
    assertTrue(PodTopology.clusterOf(foreign).isEmpty());
    Pod noStatus = new PodBuilder(pod("ns", "basic-pd-0", "pd", "basic", "Running"))
        .withStatus(null).build();
    assertEquals(false, PodTopology.instance(noStatus, UP).running());
  }

  @Test
  void theVersionIsTheTagOfTheComponentsContainer() {
    Pod cdc = new PodBuilder(pod("ns", "basic-ticdc-0", "ticdc", "basic", "Running"))
        .withNewSpec()
        .addNewContainer().withName("sidecar").withImage("busybox:1.36").endContainer()
        .addNewContainer().withName("ticdc").withImage("localhost:5000/pingcap/ticdc:v6.5.0")
        .endContainer()
        .endSpec().build();
    assertEquals("v6.5.0", PodTopology.instance(cdc, UP).version());
    Pod untagged = new PodBuilder(pod("ns", "basic-ticdc-1", "ticdc", "basic", "Running"))
        .withNewSpec().addNewContainer().withName("ticdc").withImage("localhost:5000/pingcap/ticdc")
        .endContainer().endSpec().build();
    assertEquals(null, PodTopology.instance(untagged, UP).version());
  }

  @Test
  void aPodWithADeletionTimestampIsTerminatingAndMayStillRun() {
    Pod deleting = new PodBuilder(pod("ns", "basic-tikv-3", "tikv", "basic", "Running"))
        .editMetadata().withDeletionTimestamp("2025-01-15T08:00:00Z").endMetadata().build();
    assertEquals(new PodInstance("basic-tikv-3", "basic-tikv-3-uid", true, true),
        PodTopology.instance(deleting, UP));
    assertEquals(false,
        PodTopology.instance(pod("ns", "basic-tikv-3", "tikv", "basic", "Running"), UP).terminating());
  }

  @Test
  void aRunningPodMarkedNotReadyDoesNotRun() {
    Pod running = pod("ns", "basic-pd-2", "pd", "basic", "Running");
    Pod notReady = new PodBuilder(running).editStatus()
        .addNewCondition().withType("Ready").withStatus("False").withReason("NodeNotReady")
        .endCondition().endStatus().build();
    Pod ready = new PodBuilder(running).editStatus()
        .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    assertEquals(false, PodTopology.instance(notReady, UP).running());
    assertEquals(true, PodTopology.instance(ready, UP).running());
    assertEquals(true, PodTopology.instance(running, UP).running(), "no conditions yet");
  }

  @Test
  void aPodOnANodeThatIsDownDoesNotRun() {
    Pod onNode = new PodBuilder(pod("ns", "basic-pd-2", "pd", "basic", "Running"))
        .withNewSpec().withNodeName("kwok-node-1").endSpec().build();
    assertEquals(false, PodTopology.instance(onNode, "kwok-node-1"::equals).running());
    assertEquals(true, PodTopology.instance(onNode, "kwok-node-2"::equals).running());
  }
}
