package io.tidb.operator.controller.initializer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerStatus;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.EventRecorder.EventType;
import io.tidb.operator.controller.runtime.OwnedObjects;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One TidbInitializer reconciled again and again, as the runtime does, with the status of each
 * reconcile stored before the next: Pending while what it names is missing or TiDB is down, one
 * Job, Completed, and from then on nothing at all; a failed run stays failed until its Job goes.
 */
class TidbInitializerWorkTest {

  private static final String JOB = "demo-tidb-initializer";

  /** The named objects, and every read of them. */
  static final class FakeLookups implements InitializerLookups {
    final Map<String, TidbCluster> clusters = new HashMap<>();
    final Map<String, Secret> secrets = new HashMap<>();
    final Map<String, ConfigMap> configMaps = new HashMap<>();
    String failureMessage;
    final List<String> reads = new ArrayList<>();

    @Override
    public Optional<TidbCluster> cluster(String namespace, String name) {
      reads.add("TidbCluster " + namespace + "/" + name);
      return Optional.ofNullable(clusters.get(namespace + "/" + name));
    }

    @Override
    public Optional<Secret> secret(String namespace, String name) {
      reads.add("Secret " + namespace + "/" + name);
      return Optional.ofNullable(secrets.get(namespace + "/" + name));
    }

    @Override
    public Optional<ConfigMap> configMap(String namespace, String name) {
      reads.add("ConfigMap " + namespace + "/" + name);
      return Optional.ofNullable(configMaps.get(namespace + "/" + name));
    }

    @Override
    public Optional<String> failureMessage(String namespace, String jobName) {
      reads.add("pods of Job " + namespace + "/" + jobName);
      return Optional.ofNullable(failureMessage);
    }
  }

  /** Owned objects that must not be looked at: any read fails the test. */
  static final class UntouchableOwned implements OwnedObjects {
    @Override
    public <R extends HasMetadata> Optional<R> get(Class<R> kind, String name) {
      throw new AssertionError("read " + kind.getSimpleName() + " " + name);
    }

    @Override
    public <R extends HasMetadata> List<R> list(Class<R> kind, java.util.Map<String, String> labels) {
      throw new AssertionError("list " + kind.getSimpleName() + " " + labels);
    }

    @Override
    public List<Pod> podsOf(String statefulSetName) {
      throw new AssertionError("read pods of " + statefulSetName);
    }

    @Override
    public <R extends HasMetadata> RecentOperationCacheFiller<R> cacheOf(Class<R> kind) {
      throw new AssertionError("cache of " + kind.getSimpleName());
    }
  }

  final FakeLookups lookups = new FakeLookups();
  final FakeOwnedObjects owned = new FakeOwnedObjects();
  final FakeApplier applier = new FakeApplier();
  final RecordingEventRecorder events = new RecordingEventRecorder();
  final TidbInitializerWork work = new TidbInitializerWork(
      new InitializerSettings("registry/controller:v1", InitializerSettings.DEFAULT_TIDB_ADDRESS_TEMPLATE), lookups);
  final TidbInitializer ti = ApiObjects.parse("""
      apiVersion: pingcap.com/v1alpha1
      kind: TidbInitializer
      metadata: {name: init, namespace: ns, uid: u-1, generation: 1}
      spec:
        image: tnir/mysqlclient
        cluster: {name: demo}
        passwordSecret: tidb-secret
        initSqlConfigMap: init-sql
      """, TidbInitializer.class);

  /** One reconcile from the stored status; the status it builds is stored for the next. */
  private WorkOutcome reconcile(OwnedObjects objects) {
    TidbInitializerStatus start =
        ti.getStatus() == null ? new TidbInitializerStatus() : ApiObjects.deepCopy(ti.getStatus());
    WorkOutcome outcome = work.work(new ResourceContext<>(
        ApiObjects.deepCopy(ti), ApiObjects.deepCopy(ti), start, objects, applier, events,
        Instant.parse("2026-01-01T00:00:00Z")));
    ti.setStatus(start);
    return outcome;
  }

  private WorkOutcome reconcile() {
    return reconcile(owned);
  }

  private String condition(String type, String field) {
    return Conditions.find(ti.getStatus().getConditions(), type)
        .map(c -> "status".equals(field) ? c.getStatus() : "reason".equals(field) ? c.getReason() : c.getMessage())
        .orElse(null);
  }

  private void namedObjectsExist(boolean tidbHealthy) {
    lookups.clusters.put("ns/demo", ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: demo, namespace: ns}
        spec:
          tidb: {replicas: 1}
        status:
          tidb:
            members:
              demo-tidb-0: {name: demo-tidb-0, health: %s}
        """.formatted(tidbHealthy), TidbCluster.class));
    lookups.secrets.put("ns/tidb-secret", new SecretBuilder().withNewMetadata().withName("tidb-secret").endMetadata()
        .withData(Map.of("root", "c2VjcmV0")).build());
    lookups.configMaps.put("ns/init-sql", new ConfigMapBuilder().withNewMetadata().withName("init-sql").endMetadata()
        .withData(Map.of("init-sql", "create database app;")).build());
  }

  private Job ownedJob(String conditionType) {
    Job job = owned.get(Job.class, JOB).orElseThrow();
    job.setStatus(conditionType == null ? new JobStatusBuilder().withActive(1).build()
        : new JobStatusBuilder().withSucceeded("Complete".equals(conditionType) ? 1 : null)
            .withFailed("Failed".equals(conditionType) ? 1 : null)
            .withConditions(new JobConditionBuilder().withType(conditionType).withStatus("True").build())
            .build());
    return job;
  }

  @Test
  void pendingUntilTheNamedObjectsAndTidbAreThereThenOneJobThenCompletedAndNothingMore() {
    assertTrue(reconcile().converging());
    assertEquals("Pending", ti.getStatus().getPhase());
    assertEquals("WaitingForReferences", condition("Initialized", "reason"));
    String invalid = condition("Valid", "message");
    assertTrue(invalid.contains("spec.cluster.name") && invalid.contains("spec.passwordSecret")
        && invalid.contains("spec.initSqlConfigMap"), "every missing object at once: " + invalid);
    reconcile();
    assertEquals(List.of(EventType.WARNING), events.events.stream().map(e -> e.type()).toList(),
        "one Warning for the same violations, however often they are found");

    namedObjectsExist(false);
    assertTrue(reconcile().converging());
    assertEquals("Pending", ti.getStatus().getPhase());
    assertEquals("WaitingForTiDB", condition("Initialized", "reason"));
    assertEquals(List.of(), applier.writes, "no Job before TiDB is up");

    namedObjectsExist(true);
    assertTrue(reconcile().converging());
    assertEquals("Running", ti.getStatus().getPhase());
    assertEquals(List.of("Job " + JOB), applier.writes);
    ownedJob(null);
    assertTrue(reconcile().converging());
    assertEquals("Running", ti.getStatus().getPhase());
    assertEquals(List.of("Job " + JOB), applier.writes, "a running Job is followed, not written again");

    ownedJob("Complete");
    assertFalse(reconcile().converging());
    assertEquals("Completed", ti.getStatus().getPhase());
    assertEquals("True", condition("Initialized", "status"));
    assertEquals("True", condition("Complete", "status"));
    assertEquals(1, ti.getStatus().getSucceeded());
    assertEquals("Initialized", events.events.get(events.events.size() - 1).reason());

    // Completed: a second reconcile, with the Job there or deleted, reads and writes nothing.
    TidbInitializerStatus completed = ApiObjects.deepCopy(ti.getStatus());
    int eventsBefore = events.events.size();
    lookups.reads.clear();
    assertFalse(reconcile(new UntouchableOwned()).converging());
    assertFalse(reconcile(new UntouchableOwned()).converging());
    assertEquals(completed, ti.getStatus(), "the status is not changed");
    assertEquals(List.of(), lookups.reads, "no named object is read");
    assertEquals(List.of("Job " + JOB), applier.writes, "no Job is written");
    assertEquals(eventsBefore, events.events.size(), "no Event");
  }

  @Test
  void aFailedRunStaysFailedWithItsReasonUntilItsJobIsDeleted() {
    namedObjectsExist(true);
    reconcile();
    ownedJob("Failed");
    lookups.failureMessage = "initialization failed: init SQL statement 1 of 1 failed (statements 1-0 applied): "
        + "[1007/HY000] Can't create database 'app'; database exists";
    assertFalse(reconcile().converging());
    assertEquals("Failed", ti.getStatus().getPhase());
    assertEquals("InitializationFailed", condition("Initialized", "reason"));
    assertTrue(condition("Initialized", "message").startsWith(lookups.failureMessage), condition("Initialized", "message"));
    reconcile();
    assertEquals(1, events.events.stream().filter(e -> e.type() == EventType.WARNING).count(),
        "one Warning for the failure");
    assertEquals(List.of("Job " + JOB), applier.writes, "a failed Job is not replaced while it exists");

    FakeOwnedObjects jobDeleted = new FakeOwnedObjects();
    assertTrue(reconcile(jobDeleted).converging());
    assertEquals("Running", ti.getStatus().getPhase());
    assertEquals(List.of("Job " + JOB, "Job " + JOB), applier.writes, "deleting the failed Job runs it again");
  }
}
