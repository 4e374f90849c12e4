package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream TidbMonitor manifest reads into TidbMonitor, writes back to the same JSON tree,
 * and passes validation before and after defaulting.
 */
class TidbMonitorCompatTest {

  static List<Example> examples() {
    return CompatExamples.ofKind("compat/tidbmonitor", "TidbMonitor");
  }

  static Stream<Arguments> arguments() {
    return examples().stream().map(Arguments::of);
  }

  @Test
  void allSixteenManifestsArePresent() {
    assertEquals(16, examples().size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arguments")
  void roundTripsWithoutLossOrInvention(Example example) {
    TidbMonitor tm = ApiObjects.fromTree(example.tree(), TidbMonitor.class);
    JsonNode back = ApiObjects.toTree(tm);
    assertEquals(example.tree(), back, () -> JsonDiffs.describe(example.tree(), back));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arguments")
  void passesValidationBeforeAndAfterDefaulting(Example example) {
    TidbMonitor tm = ApiObjects.fromTree(example.tree(), TidbMonitor.class);
    TidbMonitorAdmissionRules rules = new TidbMonitorAdmissionRules();
    assertEquals(List.of(), rules.validateCreate(tm));
    TidbMonitor defaulted = rules.withDefaults(tm);
    assertEquals(List.of(), rules.validateUpdate(defaulted, defaulted));
    assertEquals(List.of(), rules.validateStored(defaulted));
    assertEquals(defaulted, rules.withDefaults(defaulted), "defaulting is idempotent");
  }
}
