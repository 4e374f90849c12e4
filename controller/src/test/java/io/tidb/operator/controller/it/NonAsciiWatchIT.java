package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.controller.KubeClients;
import io.tidb.operator.controller.runtime.AsciiWatchBodies;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Objects whose text goes beyond ASCII (Chinese in a config comment, an emoji in an annotation)
 * reach the operator's informers as written, against a real kube-apiserver: its client watches
 * through streamed HTTP responses, which fabric8 splits into events correctly only as ASCII
 * ({@link AsciiWatchBodies}). Each test makes 20 ConfigMaps of about 20 KB, so events span
 * several HTTP/2 frames and characters are cut between them, then changes each one.
 */
@WithLocalControlPlane
class NonAsciiWatchIT {

  private static final int OBJECTS = 20;
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String TEXT = "# 数据库集群配置 — ümlaut ✓ 😀\n".repeat(600);

  private static KubernetesClient admin;
  private static Path kubeconfig;

  @BeforeAll
  static void connect(ClusterAccess access) throws Exception {
    admin = access.newClient();
    kubeconfig = Files.createTempFile("non-ascii-watch-", ".kubeconfig");
    Files.writeString(kubeconfig, access.kubeConfigYaml());
  }

  @AfterAll
  static void close() throws Exception {
    admin.close();
    Files.deleteIfExists(kubeconfig);
  }

  @Test
  void theOperatorsClientReadsEveryEventAsWritten() throws Exception {
    try (KubernetesClient client = KubeClients.create(Optional.of(kubeconfig), new SimpleMeterRegistry(), 0)) {
      String namespace = TestNamespaces.createUnique(admin, "non-ascii-watch");
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(namespace).inform();
      writeAll(namespace, "first ");
      assertTrue(await(informer, "first "), "the informer's cache after the creates: " + seen(informer));
      writeAll(namespace, "second ");
      assertTrue(await(informer, "second "), "the informer's cache after the updates: " + seen(informer));
      assertTrue(informer.isRunning(), "informer still watching");
      informer.close();
    }
  }

  /**
   * The premise, and a guard for the day fabric8 mends its splitting: the same client without
   * {@link AsciiWatchBodies} stops its informer at the first such event.
   */
  @Test
  void withoutAsciiBodiesFabric8StopsTheInformer(ClusterAccess access) throws Exception {
    Config config = KubeClients.configure(Config.fromKubeconfig(access.kubeConfigYaml()));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      String namespace = TestNamespaces.createUnique(admin, "non-ascii-watch-premise");
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(namespace).inform();
      writeAll(namespace, "first ");
      Throwable stop = informer.stopped().toCompletableFuture()
          .handle((done, error) -> error)
          .get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertInstanceOf(WatcherException.class, stop);
      assertFalse(informer.isRunning());
    }
  }

  private static void writeAll(String namespace, String prefix) {
    for (int i = 0; i < OBJECTS; i++) {
      admin.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
          .withNewMetadata().withName("text-" + i).addToAnnotations("note", "注释 " + prefix + i).endMetadata()
          .addToData("config.toml", prefix + TEXT + i)
          .build()).serverSideApply();
    }
  }

  /** Whether the informer comes to hold every object with {@code prefix}'s text, exactly. */
  private static boolean await(SharedIndexInformer<ConfigMap> informer, String prefix) throws InterruptedException {
    Predicate<ConfigMap> written = cm -> {
      String i = cm.getMetadata().getName().substring("text-".length());
      return (prefix + TEXT + i).equals(cm.getData().get("config.toml"))
          && ("注释 " + prefix + i).equals(cm.getMetadata().getAnnotations().get("note"));
    };
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (informer.getStore().list().stream().filter(written).count() == OBJECTS) {
        return true;
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    return false;
  }

  private static Map<String, String> seen(SharedIndexInformer<ConfigMap> informer) {
    return informer.getStore().list().stream().collect(Collectors.toMap(
        cm -> cm.getMetadata().getName(),
        cm -> String.valueOf(cm.getData().get("config.toml")).lines().findFirst().orElse("")
            + " (running " + informer.isRunning() + ")"));
  }
}
