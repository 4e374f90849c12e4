package io.tidb.operator.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The longest name each kind takes on create, found by trying one character more: the objects the
 * operator names after it must be able to exist (a StatefulSet's pods carry its name and a hash of
 * up to 10 characters in a label of at most 63; a Job's pods its name).
 */
class DerivedNameLengthsTest {

  private static String name(int length) {
    return "n".repeat(length);
  }

  /** The violations of {@code field} when {@code make} builds an object named with {@code length} characters. */
  private static <T extends HasMetadata> List<String> nameViolations(
      Function<Integer, T> make, AdmissionRules<T> rules, int length, String field) {
    return rules.validateCreate(make.apply(length)).stream()
        .filter(v -> v.field().equals(field))
        .map(Violation::message)
        .toList();
  }

  private static <T extends HasMetadata> void longestIs(
      int longest, Function<Integer, T> make, AdmissionRules<T> rules, String field) {
    assertEquals(List.of(), nameViolations(make, rules, longest, field), "a name of " + longest);
    assertEquals(1, nameViolations(make, rules, longest + 1, field).size(), "a name of " + (longest + 1));
  }

  private static TidbCluster cluster(int length, String extraComponent) {
    TidbCluster tc = TestClusters.basic();
    tc.getMetadata().setName(name(length));
    if (extraComponent != null) {
      String yaml = ApiObjects.toJson(tc).replace("\"tidb\":{", "\"" + extraComponent + "\":{\"baseImage\":\"pingcap/"
          + extraComponent + "\",\"replicas\":1},\"tidb\":{");
      tc = ApiObjects.parse(yaml, TidbCluster.class);
    }
    return tc;
  }

  @Test
  void aClusterNameLeavesRoomForItsLongestStatefulSetName() {
    TidbClusterAdmissionRules rules = new TidbClusterAdmissionRules();
    longestIs(47, n -> cluster(n, null), rules, "metadata.name"); // <name>-tikv, <name>-tidb: 52
    longestIs(44, n -> cluster(n, "tiflash"), rules, "metadata.name");
    longestIs(46, n -> cluster(n, "ticdc"), rules, "metadata.name");
  }

  @Test
  void theMessageNamesTheObjectAndTheLimit() {
    assertEquals(List.of("metadata.name: Invalid value: \"" + name(48) + "\": must be no more than 47 characters: "
            + "the StatefulSet " + name(48) + "-tikv would have 53 characters, and its pods' "
            + "controller-revision-hash label holds its name and a hash of up to 10 characters, at most 63 in all"),
        nameViolations(n -> cluster(n, null), new TidbClusterAdmissionRules(), 48, "metadata.name"));
  }

  @Test
  void aGeneratedNameCountsItsFiveRandomCharacters() {
    Function<Integer, TidbCluster> generated = n -> {
      TidbCluster tc = cluster(10, null);
      tc.getMetadata().setName(null);
      tc.getMetadata().setGenerateName(name(n));
      return tc;
    };
    longestIs(42, generated, new TidbClusterAdmissionRules(), "metadata.generateName");
  }

  @Test
  void otherKindsLeaveRoomForTheirStatefulSetsAndJobs() {
    longestIs(42, n -> parse(DmCluster.class, """
        apiVersion: pingcap.com/v1alpha1
        kind: DMCluster
        metadata: {name: %s}
        spec:
          version: v8.5.2
          master: {baseImage: pingcap/dm, replicas: 1, storageSize: 1Gi}
          worker: {baseImage: pingcap/dm, replicas: 1}
        """, n), new DmClusterAdmissionRules(), "metadata.name");
    longestIs(44, n -> parse(TidbMonitor.class, """
        apiVersion: pingcap.com/v1alpha1
        kind: TidbMonitor
        metadata: {name: %s}
        spec:
          clusters: [{name: basic}]
          prometheus: {baseImage: prom/prometheus, version: v2.27.1}
          grafana: {baseImage: grafana/grafana, version: 7.5.11}
          initializer: {baseImage: pingcap/tidb-monitor-initializer, version: v8.5.2}
          reloader: {baseImage: pingcap/tidb-monitor-reloader, version: v1.0.1}
        """, n), new TidbMonitorAdmissionRules(), "metadata.name");
    longestIs(46, n -> parse(TidbInitializer.class, """
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: init}
        spec:
          image: tnir/mysqlclient
          cluster: {name: %s}
          initSql: "select 1;"
        """, n), new TidbInitializerAdmissionRules(), "spec.cluster.name");
    longestIs(56, n -> parse(Backup.class, brJob("Backup", ""), n), new BackupAdmissionRules(), "metadata.name");
    longestIs(43, n -> parse(Backup.class, brJob("Backup", "backupMode: log"), n), new BackupAdmissionRules(),
        "metadata.name");
    longestIs(55, n -> parse(Restore.class, brJob("Restore", ""), n), new RestoreAdmissionRules(), "metadata.name");
    longestIs(36, n -> parse(BackupSchedule.class, """
        apiVersion: pingcap.com/v1alpha1
        kind: BackupSchedule
        metadata: {name: %s}
        spec:
          schedule: "0 0 * * *"
          backupTemplate:
            br: {cluster: basic}
            s3: {provider: aws, region: us-west-1, bucket: b, prefix: p}
        """, n), new BackupScheduleAdmissionRules(), "metadata.name");
  }

  /** A Backup or Restore of cluster {@code basic} to S3, named by the test, with {@code extra} in its spec. */
  private static String brJob(String kind, String extra) {
    return """
        apiVersion: pingcap.com/v1alpha1
        kind: %s
        metadata: {name: %%s}
        spec:
          %s
          br: {cluster: basic}
          s3: {provider: aws, region: us-west-1, bucket: b, prefix: p}
        """.formatted(kind, extra);
  }

  private static <T> T parse(Class<T> type, String yaml, int length) {
    return ApiObjects.parse(yaml.formatted(name(length)), type);
  }
}
