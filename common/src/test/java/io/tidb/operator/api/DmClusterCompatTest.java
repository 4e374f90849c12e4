package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream DMCluster manifest reads into DmCluster, writes back to the same JSON tree, and
 * passes validation before and after defaulting.
 */
class DmClusterCompatTest {

  static List<Example> examples() {
    return CompatExamples.ofKind("compat/dmcluster", "DMCluster");
  }

  static Stream<Arguments> arguments() {
    return examples().stream().map(Arguments::of);
  }

  @Test
  void theUpstreamManifestIsPresent() {
    assertEquals(1, examples().size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arguments")
  void roundTripsWithoutLossOrInvention(Example example) {
    DmCluster dc = ApiObjects.fromTree(example.tree(), DmCluster.class);
    JsonNode back = ApiObjects.toTree(dc);
    assertEquals(example.tree(), back, () -> JsonDiffs.describe(example.tree(), back));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arguments")
  void passesValidationBeforeAndAfterDefaulting(Example example) {
    DmCluster dc = ApiObjects.fromTree(example.tree(), DmCluster.class);
    DmClusterAdmissionRules rules = new DmClusterAdmissionRules();
    assertEquals(List.of(), rules.validateCreate(dc));
    DmCluster defaulted = rules.withDefaults(dc);
    assertEquals(List.of(), rules.validateUpdate(defaulted, defaulted));
    assertEquals(List.of(), rules.validateStored(defaulted));
    assertEquals(defaulted, rules.withDefaults(defaulted), "defaulting is idempotent");
  }
}
