package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TiDB not up yet. First the initializer waits, Pending, with no Job, and no failure: the cluster
 * does not exist, then exists with no healthy TiDB. Then, once TiDB is reported healthy, the Job's
 * process starts while TiDB's port still refuses connections: it keeps retrying and succeeds when
 * the port opens.
 */
@WithKubeApiServer
class InitializerWaitsForTidbIT {

  private static InitializerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws SQLException {
    h = new InitializerHarness(access, "init-waits");
    h.db.resetAsNewTidb(List.of(), List.of("waited"));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void waitsForTheClusterAndForTidbWithoutFailing() throws Exception {
    h.createSecret("late-secret", Map.of("root", "late-root-pw"));
    h.createInitializer("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: late}
        spec:
          image: tnir/mysqlclient
          cluster: {name: late}
          passwordSecret: late-secret
          initSql: create database waited;
        """);
    TidbInitializer noCluster = h.awaitInitializer("late", "Pending: no cluster", ti -> "Pending".equals(ti.getStatus().getPhase()));
    assertEquals("False", InitializerHarness.condition(noCluster, "Valid").orElseThrow().getStatus());
    assertTrue(InitializerHarness.condition(noCluster, "Valid").orElseThrow().getMessage()
        .contains("spec.cluster.name: Invalid value: \"late\": no TidbCluster late in namespace"));

    h.createCluster("late", false);
    TidbInitializer noTidb = h.awaitInitializer("late", "Pending: waiting for TiDB",
        ti -> InitializerHarness.condition(ti, "Initialized").map(c -> "WaitingForTiDB".equals(c.getReason())).orElse(false));
    assertEquals("Pending", noTidb.getStatus().getPhase());
    assertEquals("True", InitializerHarness.condition(noTidb, "Valid").orElseThrow().getStatus());
    Thread.sleep(2000);
    assertNull(h.job("late"), "no Job while TiDB is down");

    h.setTidbHealth("late", true);
    Job job = h.awaitJob("late");

    // TiDB's port refuses connections for a while: the process waits, then gets through.
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = probe.getLocalPort();
      probe.close();
      List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
      int at = args.indexOf("--port");
      args.set(at + 1, Integer.toString(port));
      Process p = h.kubelet.process(job).start();
      p.getOutputStream().close();
      Thread.sleep(4000);
      assertTrue(p.isAlive(), "still waiting for TiDB, not failed");
      try (ServerSocket tidb = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
        Thread forwarder = new Thread(() -> forward(tidb, h.db.port), "fake-tidb-port");
        forwarder.setDaemon(true);
        forwarder.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished once TiDB answered");
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("event=waiting_for_tidb"), out);
      }
    }
    try (Connection root = h.db.as("root", "late-root-pw")) {
      assertTrue(root.isValid(2));
    }
  }

  /** Accepts connections on {@code server} and pipes each to MariaDB's port. */
  private static void forward(ServerSocket server, int target) {
    while (!server.isClosed()) {
      try {
        Socket in = server.accept();
        Socket out = new Socket(InetAddress.getLoopbackAddress(), target);
        pipe(in.getInputStream(), out.getOutputStream());
        pipe(out.getInputStream(), in.getOutputStream());
      } catch (java.io.IOException e) {
        return;
      }
    }
  }

  private static void pipe(InputStream from, OutputStream to) {
    Thread t = new Thread(() -> {
      try (from; to) {
        from.transferTo(to);
      } catch (java.io.IOException ignored) {
        // the other side closed
      }
    });
    t.setDaemon(true);
    t.start();
  }
}
