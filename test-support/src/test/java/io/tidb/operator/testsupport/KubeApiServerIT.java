package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@WithKubeApiServer
class KubeApiServerIT {

  @Test
  void servesThePinnedVersionBuiltWithVersionLdflags(KubernetesClient client) {
    assertEquals("v" + KubernetesBinaries.fromEnvironment().version(), client.getKubernetesVersion().getGitVersion());
  }

  @Test
  void everyClientGetsItsOwnFreshInstance(KubernetesClient first, KubernetesClient second) {
    assertFalse(first == second);
    assertNotNull(first.namespaces().withName("default").get());
  }

  @Test
  void etcdAndApiServerListenOnLoopbackOnly() {
    Map<Long, List<InetSocketAddress>> listeners = ProcessHandle.current().descendants()
        .collect(Collectors.toMap(ProcessHandle::pid, p -> ListeningSockets.of(p.pid())));

    List<InetSocketAddress> all = listeners.values().stream().flatMap(List::stream).toList();
    // etcd: client + peer port; kube-apiserver: secure port.
    assertTrue(all.size() >= 3, "expected etcd and kube-apiserver listeners, found " + listeners);
    assertTrue(all.stream().allMatch(address -> address.getAddress().isLoopbackAddress()),
        "non-loopback listener among " + listeners);
  }
}
