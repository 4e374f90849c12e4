package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stand-in API server as fabric8 sees it: lists, informers, reads and writes over HTTPS. */
class TrainingApiServerTest {

  @Test
  void aClientListsTheSampleSyncsInformersAndHasItsWritesEchoed(@TempDir Path dir) throws Exception {
    try (TrainingApiServer api = TrainingApiServer.start(ControllerClassDataTraining.answers(), dir);
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
            .withMasterUrl("https://127.0.0.1:" + api.port())
            .withCaCertFile(api.certificate().toString())
            .withOauthToken(TrainingApiServer.TOKEN)
            .build()).build()) {
      TidbCluster listed = client.resources(TidbCluster.class).inAnyNamespace().list().getItems().get(0);
      assertEquals("basic", listed.getMetadata().getName());
      assertEquals(3, listed.getSpec().getPd().getReplicas());
      assertTrue(client.configMaps().inNamespace("training").list().getItems().isEmpty());
      assertEquals(null, client.secrets().inNamespace("training").withName("absent").get());

      try (SharedIndexInformer<TidbCluster> informer =
          client.resources(TidbCluster.class).inAnyNamespace().inform()) {
        informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(1, informer.getStore().list().size());
      }

      ConfigMap applied = client.resource(new ConfigMapBuilder()
              .withNewMetadata().withName("basic-pd").withNamespace("training").endMetadata()
              .addToData("config-file", "x").build())
          .fieldManager("test").forceConflicts().serverSideApply();
      assertEquals("x", applied.getData().get("config-file"));
      assertNotNull(applied.getMetadata().getUid());
      assertFalse(api.awaitStatusWrite(Duration.ZERO));

      listed.setStatus(new io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus());
      listed.getStatus().setObservedGeneration(1L);
      TidbCluster patched = client.resource(listed).updateStatus();
      assertEquals(3, patched.getSpec().getPd().getReplicas(), "a status write returns the whole cluster");
      assertEquals(1L, patched.getStatus().getObservedGeneration());
      assertTrue(api.awaitStatusWrite(Duration.ZERO));
      assertEquals(2, api.writes());
    }
  }
}
