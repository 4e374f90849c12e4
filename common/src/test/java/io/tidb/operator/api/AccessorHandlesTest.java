package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.bench.WatchEventDecodeBenchmark;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SetterHandles} and {@link GetterHandles}: the model's accessors called through handles. */
class AccessorHandlesTest {

  /** fabric8's own mapping, which calls every accessor through {@code Method.invoke}. */
  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

  @Test
  void settersAreNotCalledThroughReflection() {
    Recorded bean = ApiObjects.parse("{\"name\":\"pd\",\"replicas\":3}", Recorded.class);
    assertEquals("pd", bean.name);
    assertFalse(bean.setterCaller.startsWith("jdk.internal.reflect."), bean.setterCaller);
  }

  @Test
  void gettersAreNotCalledThroughReflection() {
    Recorded bean = new Recorded();
    bean.name = "pd";
    bean.replicas = 3;
    assertEquals("{\"name\":\"pd\",\"replicas\":3}", ApiObjects.toJson(bean));
    assertFalse(bean.getterCaller.startsWith("jdk.internal.reflect."), bean.getterCaller);
  }

  @Test
  void fabric8sOwnMappingStillReflects() {
    Recorded bean = FABRIC8.unmarshal("{\"name\":\"pd\"}", Recorded.class);
    assertTrue(bean.setterCaller.startsWith("jdk.internal.reflect."), "the check above can fail: " + bean.setterCaller);
  }

  @Test
  void aSetterThatDoesMoreThanAssignStillDoesIt() {
    Recorded bean = ApiObjects.parse("{\"name\":\"  PD \",\"replicas\":3}", Recorded.class);
    assertEquals("pd", bean.name);
    assertEquals(3, bean.replicas);
  }

  @Test
  void nullsAreHandledAsJacksonHandlesThem() {
    Recorded bean = ApiObjects.parse("{\"name\":null,\"replicas\":null,\"kept\":null}", Recorded.class);
    assertNull(bean.name, "a null is set");
    assertEquals(0, bean.replicas, "a primitive gets its default");
    assertEquals("initial", bean.kept, "Nulls.SKIP skips the setter");
  }

  @Test
  void whatASetterThrowsIsReportedWithTheProperty() {
    String messages = messages(assertThrows(KubernetesClientException.class,
        () -> ApiObjects.parse("{\"replicas\":-1}", Recorded.class)));
    assertTrue(messages.contains("replicas must not be negative"), messages);
    assertTrue(messages.contains("[\"replicas\"]"), messages);
  }

  @Test
  void whatAGetterThrowsIsReportedWithTheProperty() {
    Failing bean = new Failing();
    String messages = messages(assertThrows(KubernetesClientException.class, () -> ApiObjects.toJson(bean)));
    assertTrue(messages.contains("no value yet"), messages);
    assertTrue(messages.contains("[\"value\"]"), messages);
  }

  @Test
  void aValueInAdditionalPropertiesStillShadowsTheFieldOfItsName() {
    ObjectMeta meta = new ObjectMeta();
    meta.setName("from-the-field");
    meta.setNamespace("ns");
    meta.setAdditionalProperty("name", "from-additional-properties");

    String json = ApiObjects.toJson(meta);
    assertEquals(FABRIC8.asJson(meta), json);
    assertEquals(1, json.split("\"name\"", -1).length - 1, json);
    assertTrue(json.contains("from-additional-properties"), json);
  }

  @Test
  void objectsFromTheApiServerReadAndWriteAsFabric8sMappingDoes() throws IOException {
    List<HasMetadata> objects = new ArrayList<>();
    for (String line : WatchEventDecodeBenchmark.events()) {
      HasMetadata ours = (HasMetadata) ApiObjects.parse(line, WatchEvent.class).getObject();
      HasMetadata theirs = (HasMetadata) FABRIC8.unmarshal(line, WatchEvent.class).getObject();
      assertEquals(theirs, ours);
      objects.add(ours);
    }
    for (CompatExamples.Example example : CompatExamples.all()) {
      TidbCluster ours = ApiObjects.fromTree(example.tree(), TidbCluster.class);
      assertEquals(FABRIC8.convertValue(example.tree(), TidbCluster.class), ours, example.toString());
      objects.add(ours);
    }
    assertTrue(objects.size() > 20, "the compat manifests were read");
    for (HasMetadata object : objects) {
      assertEquals(FABRIC8.asJson(object), ApiObjects.toJson(object));
      assertEquals(object, ApiObjects.deepCopy(object));
    }
  }

  /** The messages of {@code e} and its causes. */
  private static String messages(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }

  /** A bean whose accessors record how they were called. */
  public static class Recorded {
    String name;
    int replicas;
    String kept = "initial";
    /** The class that called the accessor. */
    String setterCaller = "";
    String getterCaller = "";

    @JsonProperty("name")
    public String getName() {
      getterCaller = caller();
      return name;
    }

    @JsonProperty("name")
    public void setName(String name) {
      setterCaller = caller();
      this.name = name == null ? null : name.trim().toLowerCase(java.util.Locale.ROOT);
    }

    @JsonProperty("replicas")
    public int getReplicas() {
      return replicas;
    }

    @JsonProperty("replicas")
    public void setReplicas(int replicas) {
      if (replicas < 0) {
        throw new IllegalStateException("replicas must not be negative");
      }
      this.replicas = replicas;
    }

    @JsonProperty("kept")
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public String getKept() {
      return "initial".equals(kept) ? null : kept;
    }

    @JsonSetter(value = "kept", nulls = Nulls.SKIP)
    public void setKept(String kept) {
      this.kept = kept;
    }

    /** The class of the frame that called the accessor calling this. */
    private static String caller() {
      return new Throwable().getStackTrace()[2].getClassName();
    }
  }

  /** A bean whose getter throws. */
  public static class Failing {
    @JsonProperty("value")
    public Map<String, String> getValue() {
      throw new IllegalStateException("no value yet");
    }
  }
}
