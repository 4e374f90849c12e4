package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.TrainingApiAnswers.Answer;
import io.tidb.operator.controller.TrainingApiAnswers.Target;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TrainingApiAnswersTest {

  private static final byte[] NONE = new byte[0];

  private final TrainingApiAnswers answers = answers();

  private static TrainingApiAnswers answers() {
    try {
      return ControllerClassDataTraining.answers();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void pathsNameResourceObjectAndSubresource() {
    assertEquals(new Target("pods", null, null), TrainingApiAnswers.target("/api/v1/pods"));
    assertEquals(new Target("configmaps", null, null),
        TrainingApiAnswers.target("/api/v1/namespaces/training/configmaps"));
    assertEquals(new Target("namespaces", "training", null), TrainingApiAnswers.target("/api/v1/namespaces/training"));
    assertEquals(new Target("tidbclusters", "basic", "status"),
        TrainingApiAnswers.target("/apis/pingcap.com/v1alpha1/namespaces/training/tidbclusters/basic/status"));
    assertEquals(new Target("persistentvolumes", "pv-1", null),
        TrainingApiAnswers.target("/api/v1/persistentvolumes/pv-1"));
    assertNull(TrainingApiAnswers.target("/version"));
    assertNull(TrainingApiAnswers.target("/apis/apps/v1"));
  }

  @Test
  void listsHoldTheSampleAndTheObjectsGivenForTheirResource() {
    Answer clusters = answers.answer("GET", "/apis/pingcap.com/v1alpha1/tidbclusters", "resourceVersion=0", NONE);
    assertEquals(200, clusters.status());
    assertTrue(clusters.body().contains("\"name\":\"basic\""), clusters.body());
    Answer pods = answers.answer("GET", "/api/v1/namespaces/training/pods", "labelSelector=x", NONE);
    assertTrue(pods.body().contains("\"name\":\"basic-pd-0\""), pods.body());
    assertFalse(pods.body().contains("\"name\":\"basic\""), pods.body());
    assertFalse(pods.watch());
    Answer volumes = answers.answer("GET", "/api/v1/persistentvolumes", null, NONE);
    assertTrue(volumes.body().contains("\"kind\":\"PersistentVolume\""), volumes.body());
    Answer configMaps = answers.answer("GET", "/api/v1/namespaces/training/configmaps", null, NONE);
    assertTrue(configMaps.body().contains("\"items\":[]"), configMaps.body());
  }

  @Test
  void aWatchStaysOpenAndAnythingElseReadIsNotFound() {
    assertTrue(answers.answer("GET", "/api/v1/pods", "allowWatchBookmarks=true&resourceVersion=1&watch=true", NONE).watch());
    assertEquals(404, answers.answer("GET", "/api/v1/namespaces/training/secrets/basic-tls", null, NONE).status());
    assertEquals(200, answers.answer("GET", "/apis/pingcap.com/v1alpha1/namespaces/training/tidbclusters/basic", null, NONE).status());
    assertEquals(404, answers.answer("GET", "/version", null, NONE).status());
  }

  @Test
  void aWriteIsEchoedAsStoredAndAStatusWriteReturnsTheWholeSample() {
    Answer applied = answers.answer("PATCH", "/api/v1/namespaces/training/services/basic-pd", "fieldManager=x",
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"basic-pd\"},\"spec\":{\"clusterIP\":\"None\"}}"
            .getBytes(StandardCharsets.UTF_8));
    assertEquals(200, applied.status());
    assertTrue(applied.body().contains("\"clusterIP\":\"None\""), applied.body());
    assertTrue(applied.body().contains("\"uid\":"), applied.body());
    assertTrue(applied.body().contains("\"resourceVersion\":\"2\""), applied.body());

    Answer status = answers.answer("PATCH", "/apis/pingcap.com/v1alpha1/namespaces/training/tidbclusters/basic/status",
        null, "{\"status\":{\"observedGeneration\":1}}".getBytes(StandardCharsets.UTF_8));
    assertTrue(status.body().contains("\"observedGeneration\":1"), status.body());
    assertTrue(status.body().contains("\"baseImage\":\"pingcap/pd\""), status.body());

    Answer review = answers.answer("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", null,
        "{\"kind\":\"SelfSubjectAccessReview\",\"spec\":{}}".getBytes(StandardCharsets.UTF_8));
    assertTrue(review.body().contains("\"allowed\":true"), review.body());

    assertEquals(201, answers.answer("POST", "/api/v1/namespaces/training/events", null,
        "{\"metadata\":{\"name\":\"e\"}}".getBytes(StandardCharsets.UTF_8)).status());
    assertEquals(400, answers.answer("PUT", "/api/v1/namespaces/training/events/e", null, NONE).status());
  }
}
