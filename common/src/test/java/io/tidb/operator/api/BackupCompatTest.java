package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream Backup, Restore and BackupSchedule manifest reads into our model and writes back
 * to exactly what the API server stores under upstream's CRD (three examples carry fields
 * upstream's schema does not have, which both CRDs prune; they are listed here). Every manifest
 * passes validation, except the ones that ask for what this operator refuses at admission —
 * volume-snapshot mode, the Dumpling path, a schedule without a cluster — each with its message.
 */
class BackupCompatTest {

  /** Fields of the examples that upstream's own CRD prunes. */
  static final Map<String, List<String>> PRUNED_BY_UPSTREAM = Map.of(
      "manifests__backup__backup-schedule-gcs-br.yaml#0",
      List.of("spec.backupTemplate.gcs.provider", "spec.backupTemplate.gcs.region"),
      "manifests__backup__backup-schedule-s3.yaml#0", List.of("spec.backupTemplate.storageType"),
      "backup__restore-ebs-minio.yaml#0", List.of("spec.backupMode"));

  /** The examples refused at admission, and the one field each violation names first. */
  static final Map<String, List<String>> REFUSED = Map.of(
      "backup__backup-ebs-local.yaml#0", List.of("spec.backupMode"),
      "backup__backup-ebs-minio.yaml#0", List.of("spec.backupMode"),
      "manifests__backup__backup-gcs.yaml#0", List.of("spec.br"),
      "manifests__backup__backup-s3.yaml#0", List.of("spec.br"),
      "manifests__backup__backup-schedule-s3.yaml#0", List.of("spec.backupTemplate.br"),
      "advanced__backup-schedule.yaml#0", List.of("spec.backupTemplate.br", "spec.backupTemplate.s3"),
      // upstream's CRD requires gcs.projectId, which this example lacks: refused by both CRDs too
      "manifests__backup__backup-schedule-gcs-br.yaml#0", List.of("spec.backupTemplate.gcs.projectId"));

  record Case(String kind, Example example) {
    @Override
    public String toString() {
      return kind + " " + example;
    }
  }

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    CompatExamples.ofKind("compat/backup", "Backup").forEach(e -> out.add(new Case("Backup", e)));
    CompatExamples.ofKind("compat/restore", "Restore").forEach(e -> out.add(new Case("Restore", e)));
    CompatExamples.ofKind("compat/backupschedule", "BackupSchedule").forEach(e -> out.add(new Case("BackupSchedule", e)));
    return out;
  }

  static Stream<Arguments> arguments() {
    return cases().stream().map(Arguments::of);
  }

  @Test
  void allNineteenManifestsArePresent() {
    assertEquals(19, cases().size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arguments")
  void roundTripsToWhatTheApiServerStores(Case c) {
    JsonNode upstreamCrd = CompatExamples.readYaml("compat/crds/pingcap.com_" + plural(c.kind()) + ".yaml");
    assertEquals(PRUNED_BY_UPSTREAM.getOrDefault(c.example().toString(), List.of()),
        UpstreamPruning.prunedPaths(c.example().tree(), upstreamCrd));
    JsonNode stored = UpstreamPruning.pruned(c.example().tree(), upstreamCrd);
    JsonNode back = ApiObjects.toTree(ApiObjects.fromTree(c.example().tree(), type(c.kind())));
    assertEquals(stored, back, () -> JsonDiffs.describe(stored, back));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arguments")
  void validatesOrIsRefusedWithItsReason(Case c) {
    List<Violation> violations = check(c.kind(), c.example().tree());
    List<String> expected = REFUSED.getOrDefault(c.example().toString(), List.of());
    assertEquals(expected, violations.stream().map(Violation::field).toList(), violations::toString);
  }

  @Test
  void refusalsSayWhatIsNotSupported() {
    Example ebs = CompatExamples.ofKind("compat/backup", "Backup").stream()
        .filter(e -> e.file().equals("backup__backup-ebs-minio.yaml")).findFirst().orElseThrow();
    String message = check("Backup", ebs.tree()).get(0).message();
    assertEquals(true, message.contains("volume-snapshot backups (EBS/GCE disk snapshots) are not supported"), message);
    Example dumpling = CompatExamples.ofKind("compat/backup", "Backup").stream()
        .filter(e -> e.file().equals("manifests__backup__backup-s3.yaml")).findFirst().orElseThrow();
    String m2 = check("Backup", dumpling.tree()).get(0).message();
    assertEquals(true, m2.contains("the Dumpling path (spec.from without spec.br) is not supported"), m2);
  }

  /**
   * A schedule with its log-backup companion, as upstream's PITR guide writes one (none of the
   * manifests has one): stored by upstream's CRD as written, read and written back unchanged, and
   * valid; with compaction added it is refused, naming the compaction only.
   */
  @Test
  void aScheduleWithItsLogBackupRoundTripsAndValidates() {
    JsonNode tree = ApiObjects.toTree(ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: BackupSchedule
        metadata: {name: integrated-backup-schedule-s3, namespace: backup-test}
        spec:
          maxReservedTime: "3h"
          schedule: "* */2 * * *"
          backupTemplate:
            backupType: full
            cleanPolicy: Delete
            br: {cluster: demo1, clusterNamespace: test1, sendCredToTikv: true}
            s3: {provider: aws, secretName: s3-secret, region: us-west-1, bucket: my-bucket, prefix: schedule-backup-folder-snapshot}
          logBackupTemplate:
            backupMode: log
            br: {cluster: demo1, clusterNamespace: test1, sendCredToTikv: true}
            s3: {provider: aws, secretName: s3-secret, region: us-west-1, bucket: my-bucket, prefix: schedule-backup-folder-log}
        """, JsonNode.class));
    JsonNode upstreamCrd = CompatExamples.readYaml("compat/crds/pingcap.com_backupschedules.yaml");
    assertEquals(List.of(), UpstreamPruning.prunedPaths(tree, upstreamCrd));
    JsonNode back = ApiObjects.toTree(ApiObjects.fromTree(tree, BackupSchedule.class));
    assertEquals(tree, back, () -> JsonDiffs.describe(tree, back));
    assertEquals(List.of(), check("BackupSchedule", tree));
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("spec")).putObject("compactBackupTemplate")
        .put("concurrency", 4);
    assertEquals(List.of("spec.compactBackupTemplate"), check("BackupSchedule", tree).stream().map(Violation::field).toList());
  }

  private static List<Violation> check(String kind, JsonNode tree) {
    return switch (kind) {
      case "Backup" -> run(new BackupAdmissionRules(), tree);
      case "Restore" -> run(new RestoreAdmissionRules(), tree);
      default -> run(new BackupScheduleAdmissionRules(), tree);
    };
  }

  private static <T extends HasMetadata> List<Violation> run(AdmissionRules<T> rules, JsonNode tree) {
    T obj = ApiObjects.fromTree(tree, rules.resourceType());
    List<Violation> create = rules.validateCreate(obj);
    T defaulted = rules.withDefaults(obj);
    assertEquals(ApiObjects.toTree(defaulted), ApiObjects.toTree(rules.withDefaults(defaulted)), "idempotent");
    assertEquals(create, rules.validateStored(defaulted));
    return create;
  }

  private static Class<? extends HasMetadata> type(String kind) {
    return switch (kind) {
      case "Backup" -> Backup.class;
      case "Restore" -> Restore.class;
      default -> BackupSchedule.class;
    };
  }

  private static String plural(String kind) {
    return kind.toLowerCase() + (kind.endsWith("e") ? "s" : "s");
  }
}
