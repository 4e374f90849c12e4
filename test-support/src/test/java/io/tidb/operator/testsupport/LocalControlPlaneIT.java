package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What hack/control-plane.sh promises: five components listening on loopback only, untainted Ready kwok
 * nodes, and Service ClusterIPs from a loopback range.
 */
@WithLocalControlPlane
class LocalControlPlaneIT {

  @Test
  void allFiveComponentsRunAndListenOnLoopbackOnly() {
    Map<String, Long> pids = LocalControlPlane.processIds();
    assertEquals(Set.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"), pids.keySet());

    Map<String, List<InetSocketAddress>> listeners = new TreeMap<>();
    pids.forEach((name, pid) -> listeners.put(name, ListeningSockets.of(pid)));

    assertTrue(listeners.get("kube-apiserver").size() >= 1, listeners.toString());
    assertTrue(listeners.get("etcd").size() >= 2, listeners.toString());
    assertTrue(listeners.values().stream().flatMap(List::stream)
        .allMatch(address -> address.getAddress().isLoopbackAddress()), listeners.toString());
  }

  /**
   * The script passes kube-controller-manager's client limit (its StatefulSet controller's pace,
   * the benchmark's floor): the configured one when this JVM has it (a control plane started
   * earlier by hand may have had another; then only its presence is checked).
   */
  @Test
  void controllerManagerRunsWithAClientLimitFromTheScript() {
    Map<String, String> flags = LocalControlPlane.commandLineFlags("kube-controller-manager");

    for (String[] flagAndEnv : new String[][] {
        {"--kube-api-qps", "TIDB_OPERATOR_KCM_API_QPS"}, {"--kube-api-burst", "TIDB_OPERATOR_KCM_API_BURST"}}) {
      String value = flags.get(flagAndEnv[0]);
      assertTrue(value != null && Double.parseDouble(value) > 0, flagAndEnv[0] + " in " + flags);
      String configured = System.getenv(flagAndEnv[1]);
      if (configured != null && !configured.isBlank()) {
        assertEquals(configured, value, flagAndEnv[0]);
      }
    }
  }

  @Test
  void kwokNodesAreReadyAndAcceptOrdinaryPods(KubernetesClient client) {
    List<Node> nodes = client.nodes().withLabel("type", "kwok").list().getItems();

    assertTrue(nodes.size() >= 1, "no kwok nodes");
    for (Node node : nodes) {
      String name = node.getMetadata().getName();
      assertTrue(node.getStatus().getConditions().stream()
          .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())), name + " not Ready");
      assertTrue(node.getSpec().getTaints() == null || node.getSpec().getTaints().isEmpty(),
          name + " has taints " + node.getSpec().getTaints());
    }
  }

  @Test
  void serviceClusterIpsAreLoopbackAddresses(KubernetesClient client) throws Exception {
    String namespace = TestNamespaces.createUnique(client, "cluster-ip");
    Service service = client.resource(new ServiceBuilder()
        .withNewMetadata().withNamespace(namespace).withName("web").endMetadata()
        .withNewSpec().addToSelector("app", "web").addNewPort().withPort(80).endPort().endSpec()
        .build()).create();

    assertTrue(InetAddress.getByName(service.getSpec().getClusterIP()).isLoopbackAddress(),
        service.getSpec().getClusterIP());
    client.namespaces().withName(namespace).delete();
  }

  @Test
  void serverIsThePinnedVersion(KubernetesClient client) {
    assertEquals("v" + KubernetesBinaries.fromEnvironment().version(), client.getKubernetesVersion().getGitVersion());
  }
}
