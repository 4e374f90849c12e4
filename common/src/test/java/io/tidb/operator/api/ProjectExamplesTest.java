package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The project's own examples ({@code examples/*.yaml}, applied by {@code hack/local-up.sh} and
 * the end-to-end test) round-trip and pass validation, except the one written to be refused.
 */
class ProjectExamplesTest {

  static Stream<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(ProjectDirectory.root().resolve("examples"))) {
      List<Path> yaml = files.filter(p -> p.toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().startsWith("invalid-")).sorted().toList();
      assertTrue(yaml.size() >= 2, "examples/ has the basic and basic-tls clusters");
      return yaml.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void roundTripsAndPassesValidation(Path file) throws IOException {
    String text = Files.readString(file);
    TidbCluster tc = ApiObjects.parse(text, TidbCluster.class);
    JsonNode tree = ApiObjects.toTree(tc);
    assertEquals(tree, ApiObjects.toTree(ApiObjects.fromTree(tree, TidbCluster.class)));
    TidbClusterAdmissionRules rules = new TidbClusterAdmissionRules();
    assertEquals(List.of(), rules.validateCreate(tc));
    TidbCluster defaulted = rules.withDefaults(tc);
    assertEquals(List.of(), rules.validateStored(defaulted));
  }
}
