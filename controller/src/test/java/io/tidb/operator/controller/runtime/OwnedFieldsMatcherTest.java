package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OwnedFieldsMatcherTest {

  private static final String MANAGER = "tidb-operator";

  private static ConfigMap configMap(Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("basic-pd")
        .withNamespace("ns")
        .withLabels(Map.of("app.kubernetes.io/component", "pd"))
        .endMetadata()
        .withData(data)
        .build();
  }

  private static ConfigMap stored(ConfigMap cm, Map<String, Object> ownedFields) {
    ConfigMap copy = new ConfigMapBuilder(cm).build();
    copy.getMetadata().setResourceVersion("42");
    copy.getMetadata().setUid("uid-1");
    copy.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
    FieldsV1 fields = new FieldsV1();
    ownedFields.forEach(fields::setAdditionalProperty);
    copy.getMetadata()
        .setManagedFields(
            List.of(
                new ManagedFieldsEntryBuilder()
                    .withManager(MANAGER)
                    .withOperation("Apply")
                    .withApiVersion("v1")
                    .withFieldsType("FieldsV1")
                    .withFieldsV1(fields)
                    .build()));
    return copy;
  }

  @Test
  void onlySpecAndTheComparedMetadataAreCompared() {
    StatefulSet sts = new StatefulSetBuilder()
        .withNewMetadata()
        .withName("basic-pd")
        .withNamespace("ns")
        .withLabels(Map.of("app.kubernetes.io/component", "pd"))
        .withAnnotations(Map.of("a", "b"))
        .withResourceVersion("42")
        .withUid("uid-1")
        .withGeneration(3L)
        .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kube-controller-manager").build())
        .addNewOwnerReference().withName("basic").withKind("TidbCluster").endOwnerReference()
        .endMetadata()
        .withNewSpec().withReplicas(3).endSpec()
        .withNewStatus().withReplicas(2).withReadyReplicas(1).endStatus()
        .build();
    sts.getMetadata().setAdditionalProperty("extra", "x");
    Map<String, Object> map = OwnedFieldsMatcher.comparable(sts);
    assertEquals(java.util.Set.of("apiVersion", "kind", "metadata", "spec"), map.keySet());
    assertEquals(java.util.Set.of("name", "namespace", "labels", "annotations", "ownerReferences"),
        ((Map<?, ?>) map.get("metadata")).keySet());
    assertEquals(Map.of("replicas", 3), map.get("spec"));
    assertEquals(3, sts.getSpec().getReplicas(), "the object itself is not touched");
    assertEquals(2, sts.getStatus().getReplicas());
    assertEquals("42", sts.getMetadata().getResourceVersion());
  }

  @Test
  void aMemoSkipsOnlyTheComparisonsItFoundMatching() {
    MatchMemo memo = new MatchMemo(10);
    ConfigMap desired = configMap(Map.of("pd.toml", "a"));
    ConfigMap actual = stored(desired, Map.of("f:data", Map.of("f:pd.toml", Map.of())));
    assertEquals(List.of(), OwnedFieldsMatcher.differences(desired, Optional.of(actual), MANAGER, memo));
    assertEquals(1, memo.size(), "the match is remembered");
    ConfigMap changed = configMap(Map.of("pd.toml", "b"));
    assertEquals(List.of(".data.pd.toml"), OwnedFieldsMatcher.differences(changed, Optional.of(actual), MANAGER, memo),
        "another desired object is compared");
    assertEquals(List.of(), OwnedFieldsMatcher.differences(desired, Optional.of(actual), MANAGER, memo));
    ConfigMap template = configMap(Map.of("pd.toml", "a"));
    assertEquals(List.of(".data.pd.toml"),
        OwnedFieldsMatcher.differences(changed, Optional.of(template), MANAGER, memo),
        "an object never stored (no uid) is always compared");
    assertEquals(List.of("<missing>"), OwnedFieldsMatcher.differences(desired, Optional.empty(), MANAGER, memo));
  }

  @Test
  void missingActualIsADifference() {
    assertEquals(
        List.of("<missing>"),
        OwnedFieldsMatcher.differences(configMap(Map.of("a", "1")), Optional.empty(), MANAGER));
  }

  @Test
  void identicalObjectWithServerFieldsMatches() {
    ConfigMap desired = configMap(Map.of("config-file", "x = 1"));
    ConfigMap actual =
        stored(
            desired,
            Map.of(
                "f:data", Map.of(".", Map.of(), "f:config-file", Map.of()),
                "f:metadata",
                    Map.of("f:labels", Map.of("f:app.kubernetes.io/component", Map.of()))));
    assertTrue(OwnedFieldsMatcher.matches(desired, Optional.of(actual), MANAGER));
  }

  @Test
  void changedValueIsReportedWithItsPath() {
    ConfigMap actual = stored(configMap(Map.of("config-file", "x = 1")), Map.of());
    List<String> diffs =
        OwnedFieldsMatcher.differences(
            configMap(Map.of("config-file", "x = 2")), Optional.of(actual), MANAGER);
    assertEquals(List.of(".data.config-file"), diffs);
  }

  @Test
  void fieldOwnedButNoLongerDesiredNeedsAnApply() {
    ConfigMap actual =
        stored(
            configMap(Map.of("config-file", "x = 1", "old-key", "y")),
            Map.of("f:data", Map.of("f:config-file", Map.of(), "f:old-key", Map.of())));
    List<String> diffs =
        OwnedFieldsMatcher.differences(
            configMap(Map.of("config-file", "x = 1")), Optional.of(actual), MANAGER);
    assertEquals(List.of(".data.old-key (owned, no longer desired)"), diffs);
  }

  @Test
  void fieldsOfOtherManagersAreIgnored() {
    ConfigMap desired = configMap(Map.of("config-file", "x = 1"));
    ConfigMap actual = stored(configMap(Map.of("config-file", "x = 1", "extra", "z")), Map.of());
    assertTrue(OwnedFieldsMatcher.matches(desired, Optional.of(actual), MANAGER));
  }

  private static StatefulSet statefulSet(String cpu, String storage, long grace) {
    return new StatefulSetBuilder()
        .withNewMetadata()
        .withName("basic-pd")
        .withNamespace("ns")
        .endMetadata()
        .withNewSpec()
        .withReplicas(3)
        .withNewTemplate()
        .withNewSpec()
        .withTerminationGracePeriodSeconds(grace)
        .addNewContainer()
        .withName("pd")
        .withImage("pingcap/pd:v8.5.0")
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu)))
        .endResources()
        .addNewPort()
        .withName("client")
        .withContainerPort(2379)
        .endPort()
        .endContainer()
        .endSpec()
        .endTemplate()
        .addNewVolumeClaimTemplate()
        .withNewMetadata()
        .withName("pd")
        .endMetadata()
        .withNewSpec()
        .withNewResources()
        .withRequests(Map.of("storage", new Quantity(storage)))
        .endResources()
        .endSpec()
        .endVolumeClaimTemplate()
        .endSpec()
        .build();
  }

  @Test
  void quantitiesCompareByValue() {
    StatefulSet desired = statefulSet("1000m", "1024Mi", 30);
    StatefulSet actual = statefulSet("1", "1Gi", 30);
    assertTrue(OwnedFieldsMatcher.matches(desired, Optional.of(actual), MANAGER));
    StatefulSet bigger = statefulSet("2", "1Gi", 30);
    assertEquals(
        List.of(".spec.template.spec.containers[name=pd].resources.requests.cpu"),
        OwnedFieldsMatcher.differences(desired, Optional.of(bigger), MANAGER));
  }

  @Test
  void serverDefaultsOnNamedListElementsDoNotMatter() {
    StatefulSet desired = statefulSet("1", "1Gi", 30);
    StatefulSet actual = statefulSet("1", "1Gi", 30);
    var container = actual.getSpec().getTemplate().getSpec().getContainers().get(0);
    container.setImagePullPolicy("IfNotPresent");
    container.setTerminationMessagePath("/dev/termination-log");
    container.getPorts().get(0).setProtocol("TCP");
    actual.getSpec().setPodManagementPolicy("OrderedReady");
    actual.getSpec().setRevisionHistoryLimit(10);
    assertTrue(OwnedFieldsMatcher.matches(desired, Optional.of(actual), MANAGER));
  }

  @Test
  void scaledReplicasAreADifference() {
    StatefulSet desired = statefulSet("1", "1Gi", 30);
    StatefulSet actual = statefulSet("1", "1Gi", 30);
    actual.getSpec().setReplicas(2);
    assertEquals(
        List.of(".spec.replicas"),
        OwnedFieldsMatcher.differences(desired, Optional.of(actual), MANAGER));
  }

  @Test
  void keyedListElementsMatchDefaultedKeys() {
    Service desired =
        new ServiceBuilder()
            .withNewMetadata()
            .withName("basic-pd")
            .withNamespace("ns")
            .endMetadata()
            .withNewSpec()
            .addNewPort()
            .withName("client")
            .withPort(2379)
            .withTargetPort(new IntOrString(2379))
            .endPort()
            .endSpec()
            .build();
    Service actual = new ServiceBuilder(desired).build();
    actual.getSpec().getPorts().get(0).setProtocol("TCP");
    actual.getSpec().setClusterIP("10.0.0.12");
    FieldsV1 fields = new FieldsV1();
    fields.setAdditionalProperty(
        "f:spec",
        Map.of(
            "f:ports",
            Map.of(
                "k:{\"port\":2379,\"protocol\":\"TCP\"}",
                Map.of(".", Map.of(), "f:name", Map.of(), "f:port", Map.of()))));
    actual
        .getMetadata()
        .setManagedFields(
            List.of(
                new ManagedFieldsEntryBuilder()
                    .withManager(MANAGER)
                    .withOperation("Apply")
                    .withFieldsV1(fields)
                    .build()));
    assertTrue(OwnedFieldsMatcher.matches(desired, Optional.of(actual), MANAGER));

    Service withoutPort = new ServiceBuilder(desired).build();
    withoutPort.getSpec().setPorts(List.of());
    assertFalse(OwnedFieldsMatcher.matches(withoutPort, Optional.of(actual), MANAGER));
  }

  @Test
  void statusSubresourceManagedFieldsAreIgnored() {
    ConfigMap desired = configMap(Map.of("config-file", "x = 1"));
    ConfigMap actual = stored(desired, Map.of());
    FieldsV1 statusFields = new FieldsV1();
    statusFields.setAdditionalProperty("f:status", Map.of("f:phase", Map.of()));
    actual
        .getMetadata()
        .setManagedFields(
            List.of(
                new ManagedFieldsEntryBuilder()
                    .withManager(MANAGER)
                    .withOperation("Apply")
                    .withSubresource("status")
                    .withFieldsV1(statusFields)
                    .build()));
    assertTrue(OwnedFieldsMatcher.matches(desired, Optional.of(actual), MANAGER));
  }
}
