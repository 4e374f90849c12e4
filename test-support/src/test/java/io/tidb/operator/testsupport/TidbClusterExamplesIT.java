package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream TidbCluster example (copied from the upstream repository into
 * {@code src/test/resources/compat/tidbcluster/}) passes the real API server's validation of the
 * project's CRD, with strict field validation, and comes back with every field it was sent.
 */
@WithKubeApiServer
class TidbClusterExamplesIT {

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String EXAMPLES = "compat/tidbcluster";

  @BeforeAll
  static void applyCrds(KubernetesClient client) {
    ProjectCrds.apply(client);
  }

  static Stream<Path> examples() throws IOException, URISyntaxException {
    URL dir = TidbClusterExamplesIT.class.getClassLoader().getResource(EXAMPLES);
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      return files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @Test
  void allThirtyUpstreamExamplesAreHere() throws Exception {
    assertEquals(30, examples().count());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void exampleIsAcceptedAndKeepsEveryField(Path example, KubernetesClient client) throws IOException {
    String namespace = TestNamespaces.createUnique(client, "example-" + example.getFileName().toString()
        .replace(".yaml", ""));
    List<JsonNode> documents = documents(example);
    assertFalse(documents.isEmpty(), example + " has no documents");

    for (JsonNode document : documents) {
      ((ObjectNode) document.get("metadata")).put("namespace", namespace);
      GenericKubernetesResource stored = client.resource(YAML.convertValue(document, GenericKubernetesResource.class))
          .inNamespace(namespace)
          .fieldValidation(Validation.STRICT)
          .create();

      List<String> lost = JsonSubset.differences(document, YAML.valueToTree(stored));
      assertEquals(List.of(), lost, example + ": " + document.get("kind").asText() + " fields not kept");
    }
  }

  @Test
  void aWronglyTypedFieldIsRejectedWithItsPath(KubernetesClient client) throws IOException {
    JsonNode cluster = tidbCluster("basic__tidb-cluster.yaml");
    ((ObjectNode) cluster.get("spec").get("pd")).put("replicas", "three");

    KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> create(client, cluster));

    assertEquals(422, e.getCode());
    assertTrue(e.getMessage().contains("spec.pd.replicas"), e.getMessage());
  }

  @Test
  void anUnknownFieldIsRejectedUnderStrictValidation(KubernetesClient client) throws IOException {
    JsonNode cluster = tidbCluster("basic__tidb-cluster.yaml");
    ((ObjectNode) cluster.get("spec").get("pd")).put("replicaz", 3);

    KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> create(client, cluster));

    assertTrue(e.getMessage().contains("unknown field \"spec.pd.replicaz\""), e.getMessage());
  }

  private static GenericKubernetesResource create(KubernetesClient client, JsonNode cluster) {
    String namespace = TestNamespaces.createUnique(client, "example-invalid");
    return client.resource(YAML.convertValue(cluster, GenericKubernetesResource.class))
        .inNamespace(namespace)
        .fieldValidation(Validation.STRICT)
        .create();
  }

  private static JsonNode tidbCluster(String file) throws IOException {
    Path path;
    try {
      path = Path.of(TidbClusterExamplesIT.class.getClassLoader().getResource(EXAMPLES + "/" + file).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return documents(path).stream().filter(d -> "TidbCluster".equals(d.get("kind").asText())).findFirst()
        .orElseThrow();
  }

  private static List<JsonNode> documents(Path file) throws IOException {
    try (var parser = YAML.createParser(file.toFile())) {
      return YAML.readValues(parser, JsonNode.class).readAll().stream()
          .filter(node -> node != null && !node.isNull() && !node.isEmpty())
          .toList();
    }
  }
}
