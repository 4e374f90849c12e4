package io.tidb.operator.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.CompatExamples;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every kind but TidbCluster (its own tests cover it), on the upstream examples: what the
 * webhook calls on the object it owns (defaulted in place, then the *Defaulted rules) gives the
 * object and the violations that the copying calls give.
 */
class InPlaceDefaultingTest {

  static Stream<Arguments> examples() {
    return Stream.of(
            Arguments.of("compat/dmcluster", "DMCluster", new DmClusterAdmissionRules()),
            Arguments.of("compat/tidbmonitor", "TidbMonitor", new TidbMonitorAdmissionRules()),
            Arguments.of("compat/backup", "Backup", new BackupAdmissionRules()),
            Arguments.of("compat/restore", "Restore", new RestoreAdmissionRules()),
            Arguments.of("compat/backupschedule", "BackupSchedule", new BackupScheduleAdmissionRules()),
            Arguments.of("compat/tidbinitializer", "TidbInitializer", new TidbInitializerAdmissionRules()));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("examples")
  <T extends HasMetadata> void inPlaceGivesWhatTheCopyGives(String dir, String kind, AdmissionRules<T> rules) {
    List<CompatExamples.Example> examples = CompatExamples.ofKind(dir, kind);
    assertFalse(examples.isEmpty(), "no " + kind + " example in " + dir);
    for (CompatExamples.Example example : examples) {
      T original = ApiObjects.fromTree(example.tree(), rules.resourceType());
      T copied = rules.withDefaults(original);
      T inPlace = rules.defaultInPlace(ApiObjects.fromTree(example.tree(), rules.resourceType()));
      JsonNode expected = ApiObjects.toTree(copied);
      assertEquals(expected, ApiObjects.toTree(inPlace), example.toString());
      assertEquals(rules.validateCreate(original), rules.validateCreateDefaulted(inPlace), example.toString());
      assertEquals(rules.validateUpdate(original, original),
          rules.validateUpdateDefaulted(rules.defaultInPlace(ApiObjects.deepCopy(original)), inPlace),
          example.toString());
    }
  }
}
