package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * First run: the upstream example's initializer (passwordSecret with root and a further user,
 * init SQL from a ConfigMap, timezone) against a fresh "TiDB". The Job is read back from the API
 * server and its container run as a process; then root logs in with the new password, the SQL has
 * taken effect, and the initializer is Completed. A completed initializer is then left alone: a
 * reconcile writes nothing, and neither deleting its Job nor restarting the operator runs it again.
 */
@WithKubeApiServer
class InitializerFirstRunIT {

  private static final String ROOT_PASSWORD = "n3w-r00t'pass\"word";
  private static final String APP_PASSWORD = "app-secret-1";
  private static InitializerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws SQLException {
    h = new InitializerHarness(access, "init-first-run");
    h.db.resetAsNewTidb(List.of("app"), List.of("hello", "inventory"));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void setsThePasswordRunsTheSqlAndNeverRunsAgain() throws Exception {
    h.createCluster("initialize-demo", true);
    h.createSecret("tidb-secret", Map.of("root", ROOT_PASSWORD, "app", APP_PASSWORD));
    h.admin.configMaps().inNamespace(h.namespace).resource(new ConfigMapBuilder()
        .withNewMetadata().withName("init-sql").withNamespace(h.namespace).endMetadata()
        .addToData("init-sql", """
            create database hello;
            -- a comment; with a semicolon
            create table hello.greeting (
              id int primary key,
              text varchar(64) default 'hi; there'
            );
            insert into hello.greeting (id) values (1);
            create database inventory;
            grant select on hello.* to 'app'@'%'
            """).build()).create();
    h.createInitializer("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: initialize-demo}
        spec:
          image: tnir/mysqlclient
          imagePullPolicy: IfNotPresent
          cluster: {name: initialize-demo}
          initSql: "create database ignored_because_configmap_wins;"
          initSqlConfigMap: init-sql
          passwordSecret: tidb-secret
          timezone: Asia/Shanghai
        """);

    Job job = h.awaitJob("initialize-demo");
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    String spec = job.getSpec().toString();
    assertFalse(spec.contains(ROOT_PASSWORD) || spec.contains(APP_PASSWORD), "no password in the Job");
    assertFalse(String.join(" ", c.getArgs()).contains(ROOT_PASSWORD), "no password in the arguments");
    assertEquals(List.of("initializer", "--host", "127.0.0.1", "--port", Integer.toString(h.db.port)), c.getArgs());
    assertEquals(Boolean.FALSE, job.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken());
    assertEquals(0, job.getSpec().getBackoffLimit());
    List<String> envNames = c.getEnv().stream().map(EnvVar::getName).toList();
    assertEquals(List.of("TZ", "TIDB_ROOT_PASSWORD", "TIDB_USERS", "TIDB_USER_PASSWORD_1", "TIDB_INIT_SQL"), envNames);
    // The status is patched right after the Job is created: wait for it rather than read once.
    h.awaitInitializer("initialize-demo", "phase Running", ti -> "Running".equals(ti.getStatus().getPhase()));

    JobAsKubelet.Run run = h.kubelet.runAndReport(job);
    assertEquals(0, run.exitCode(), run.output());
    assertFalse(run.output().contains(ROOT_PASSWORD) || run.output().contains(APP_PASSWORD), "no password in the output");
    assertTrue(run.output().strip().endsWith("initialized: root password set, 1 users created, 5 init SQL statements applied"),
        run.output());

    TidbInitializer done = h.awaitInitializer("initialize-demo", "phase Completed", ti -> "Completed".equals(ti.getStatus().getPhase()));
    assertEquals("True", InitializerHarness.condition(done, "Initialized").orElseThrow().getStatus());
    assertEquals("True", InitializerHarness.condition(done, "Complete").orElseThrow().getStatus());
    assertEquals(1, done.getStatus().getSucceeded());

    try (Connection root = h.db.as("root", ROOT_PASSWORD); Statement st = root.createStatement()) {
      try (ResultSet rs = st.executeQuery("select id, text from hello.greeting")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
        assertEquals("hi; there", rs.getString(2));
      }
      try (ResultSet rs = st.executeQuery("show databases like 'inventory'")) {
        assertTrue(rs.next(), "inventory created");
      }
      try (ResultSet rs = st.executeQuery("show databases like 'ignored_because_configmap_wins'")) {
        assertFalse(rs.next(), "initSqlConfigMap takes precedence over initSql");
      }
    }
    try (Connection app = h.db.as("app", APP_PASSWORD); Statement st = app.createStatement();
        ResultSet rs = st.executeQuery("show grants")) {
      List<String> grants = new ArrayList<>();
      while (rs.next()) {
        grants.add(rs.getString(1));
      }
      assertTrue(grants.stream().anyMatch(g -> g.contains("GRANT SELECT ON `hello`.* TO `app`@`%`")), grants.toString());
    }
    SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> h.db.as("root", "").close());
    assertEquals(1045, refused.getErrorCode(), "root's empty password no longer works");

    // Completed: a reconcile (the operator restarted, then the Job deleted) writes nothing.
    h.stopOperator();
    h.startOperator();
    Await.until("the restarted operator's first reconcile", InitializerHarness.TIMEOUT, h::reconciles, n -> n >= 1);
    double afterRestart = h.reconciles();
    h.admin.batch().v1().jobs().inNamespace(h.namespace).withName(job.getMetadata().getName()).delete();
    Await.until("the reconcile of the Job's deletion", InitializerHarness.TIMEOUT, h::reconciles, n -> n > afterRestart);
    assertEquals(List.of(), h.writes.all(), "a completed initializer gets no write");
    assertNull(h.job("initialize-demo"), "the Job is not recreated");
    assertEquals("Completed", h.initializer("initialize-demo").getStatus().getPhase());
  }
}
