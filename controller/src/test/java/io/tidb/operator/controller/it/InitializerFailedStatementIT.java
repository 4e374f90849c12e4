package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The second of three init SQL statements fails: the initializer is Failed, its condition names
 * the statement's index, what was applied before it and the server's error; the statement after it
 * never ran; no Event or status carries the password.
 */
@WithKubeApiServer
class InitializerFailedStatementIT {

  private static final String ROOT_PASSWORD = "fail-case-root-pw";
  private static InitializerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws SQLException {
    h = new InitializerHarness(access, "init-failed-sql");
    h.db.resetAsNewTidb(List.of(), List.of("first", "third"));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void aFailingStatementMarksFailedWithItsIndexAndTheServersError() throws Exception {
    h.createCluster("broken", true);
    h.createSecret("broken-secret", Map.of("root", ROOT_PASSWORD));
    h.createInitializer("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: broken}
        spec:
          image: tnir/mysqlclient
          cluster: {name: broken}
          passwordSecret: broken-secret
          initSql: |
            create database first;
            create table nowhere.t (id int);
            create database third;
        """);
    Job job = h.awaitJob("broken");
    JobAsKubelet.Run run = h.kubelet.runAndReport(job);
    assertEquals(1, run.exitCode(), run.output());

    TidbInitializer failed = h.awaitInitializer("broken", "phase Failed", ti -> "Failed".equals(ti.getStatus().getPhase()));
    String message = InitializerHarness.condition(failed, "Initialized").orElseThrow().getMessage();
    assertTrue(message.startsWith("initialization failed: init SQL statement 2 of 3 failed (statements 1-1 applied): [1049/42000]"), message);
    assertTrue(message.contains("nowhere"), "the server's error: " + message);
    assertEquals("InitializationFailed", InitializerHarness.condition(failed, "Initialized").orElseThrow().getReason());
    assertFalse(failed.toString().contains(ROOT_PASSWORD), "no password in the status");

    List<Event> events = h.admin.v1().events().inNamespace(h.namespace).list().getItems();
    assertTrue(events.stream().anyMatch(e -> "InitializationFailed".equals(e.getReason())
        && e.getMessage().contains("statement 2 of 3")), events.toString());
    assertFalse(events.stream().anyMatch(e -> e.getMessage().contains(ROOT_PASSWORD)), "no password in Events");

    try (Connection admin = h.db.admin(); Statement st = admin.createStatement()) {
      try (ResultSet rs = st.executeQuery("show databases like 'first'")) {
        assertTrue(rs.next(), "statement 1 was applied, as the message says");
      }
      try (ResultSet rs = st.executeQuery("show databases like 'third'")) {
        assertFalse(rs.next(), "statement 3 never ran");
      }
    }
    Thread.sleep(2000);
    assertEquals("Failed", h.initializer("broken").getStatus().getPhase(), "a failed initializer stays Failed");
  }
}
