package io.tidb.operator.controller.initializer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.InitializePhase;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InitializerProgressTest {

  private static Job job(String status) {
    return ApiObjects.parse("--- {metadata: {name: demo-tidb-initializer}, status: " + status + "}", Job.class);
  }

  @Test
  void theJobsConditionsGiveThePhase() {
    assertEquals(InitializePhase.RUNNING, InitializerProgress.ofJob(job("{active: 1}"), Optional.empty()).phase());
    assertEquals(InitializePhase.COMPLETED, InitializerProgress.ofJob(
        job("{conditions: [{type: SuccessCriteriaMet, status: 'True'}, {type: Complete, status: 'True'}]}"), Optional.empty()).phase());
    InitializerProgress.Verdict failed = InitializerProgress.ofJob(
        job("{conditions: [{type: Failed, status: 'True', reason: BackoffLimitExceeded, message: limit}]}"), Optional.empty());
    assertEquals(InitializePhase.FAILED, failed.phase());
    assertEquals("Job demo-tidb-initializer failed: BackoffLimitExceeded (limit); fix the cause, then delete Job"
        + " demo-tidb-initializer to run again", failed.message());
    assertEquals(InitializePhase.RUNNING, InitializerProgress.ofJob(
        job("{conditions: [{type: Failed, status: 'False'}]}"), Optional.empty()).phase());
  }

  @Test
  void theContainersLastLineExplainsAFailure() {
    InitializerProgress.Verdict failed = InitializerProgress.ofJob(
        job("{conditions: [{type: Failed, status: 'True'}]}"),
        InitializerProgress.lastLine("log line\ninitialization failed: statement 2 of 3 failed\n\n"));
    assertEquals("initialization failed: statement 2 of 3 failed; fix the cause, then delete Job demo-tidb-initializer"
        + " to run again", failed.message());
    assertEquals(Optional.empty(), InitializerProgress.lastLine(" \n "));
  }

  @Test
  void tidbIsUpWithOneHealthyMember() {
    TidbCluster tc = ApiObjects.parse("--- {metadata: {name: demo}, status: {tidb: {members: {a: {health: false}, b: {health: true}}}}}",
        TidbCluster.class);
    assertEquals(Optional.empty(), InitializerProgress.tidbNotUp(tc));
    TidbCluster down = ApiObjects.parse("--- {metadata: {name: demo}, status: {tidb: {members: {a: {health: false}}}}}", TidbCluster.class);
    assertEquals(Optional.of("waiting for TiDB of TidbCluster demo: 1 members, none healthy yet"), InitializerProgress.tidbNotUp(down));
    assertEquals(Optional.of("waiting for TiDB of TidbCluster demo: 0 members, none healthy yet"),
        InitializerProgress.tidbNotUp(ApiObjects.parse("--- {metadata: {name: demo}}", TidbCluster.class)));
  }
}
