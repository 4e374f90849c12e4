package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream example reads into TidbCluster, writes back to the same JSON tree, and passes
 * validation after defaulting, except that each component this operator does not manage is
 * refused with exactly one {@code Forbidden} violation on its field.
 */
class CompatRoundTripTest {

  @Test
  void examplesArePresent() {
    assertTrue(CompatExamples.all().size() >= 30, "expected the 30 upstream examples");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tidb.operator.api.CompatExamples#arguments")
  void roundTripsWithoutLossOrInvention(Example example) {
    TidbCluster tc = ApiObjects.fromTree(example.tree(), TidbCluster.class);
    JsonNode back = ApiObjects.toTree(tc);
    assertEquals(example.tree(), back, () -> JsonDiffs.describe(example.tree(), back));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tidb.operator.api.CompatExamples#arguments")
  void passesCreateValidationAfterDefaulting(Example example) {
    TidbCluster tc = ApiObjects.fromTree(example.tree(), TidbCluster.class);
    TidbClusterAdmissionRules rules = new TidbClusterAdmissionRules();
    List<String> refused = unmanagedFieldsIn(example.tree());
    assertEquals(refused, forbiddenFields(rules.validateCreate(tc)));
    TidbCluster defaulted = rules.withDefaults(tc);
    assertEquals(refused, forbiddenFields(rules.validateUpdate(defaulted, defaulted)));
    assertEquals(List.of(), rules.validateStored(defaulted));
  }

  /** The spec keys of components not managed yet, in the order the refusals list them. */
  private static final List<String> UNMANAGED = List.of("pdms", "tici");

  private static List<String> unmanagedFieldsIn(JsonNode tree) {
    JsonNode spec = tree.path("spec");
    return UNMANAGED.stream().filter(spec::has).map(k -> "spec." + k).toList();
  }

  /** The fields of the violations, each of which must be a refusal (nothing else may fail). */
  private static List<String> forbiddenFields(List<Violation> violations) {
    for (Violation v : violations) {
      assertEquals(Violation.Type.FORBIDDEN, v.type(), v::message);
    }
    return violations.stream().map(Violation::field).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tidb.operator.api.CompatExamples#arguments")
  void deepCopyIsEqualAndIndependent(Example example) {
    TidbCluster tc = ApiObjects.fromTree(example.tree(), TidbCluster.class);
    TidbCluster copy = ApiObjects.deepCopy(tc);
    assertEquals(ApiObjects.toTree(tc), ApiObjects.toTree(copy));
    copy.getSpec().setVersion("changed");
    assertTrue(!"changed".equals(tc.getSpec().getVersion()), "copy shares state with original");
  }
}
