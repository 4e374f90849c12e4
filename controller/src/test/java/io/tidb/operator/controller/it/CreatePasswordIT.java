package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbPasswordInitializer;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.tidb.initializer.createPassword} on the local control plane, the PD simulator in
 * PD's place and the loopback MariaDB as TiDB's MySQL port. The operator first runs while TiDB's
 * MySQL port refuses connections: it creates the Secret {@code <cluster>-init} but cannot set the
 * password. Restarted with MariaDB reachable, it sets root's password to that same Secret's;
 * restarted again, it leaves everything alone. The password works against MariaDB and appears in
 * no log line, Event or status.
 */
@WithLocalControlPlane
class CreatePasswordIT {

  private static final String NAME = "basic";

  @Test
  void secretIsCreatedOnceKeptAcrossRestartsAndSetsRootsPassword(ClusterAccess access) throws Exception {
    LoopbackMariaDb db = LoopbackMariaDb.shared();
    db.resetAsNewTidb(List.of(), List.of());
    ByteArrayOutputStream logs = new ByteArrayOutputStream();
    PrintStream originalErr = System.err;
    System.setErr(new PrintStream(new Tee(originalErr, logs), true, StandardCharsets.UTF_8));
    try (ControllerHarness h = ControllerHarness.start(access, "create-password-it", Duration.ofSeconds(4))) {
      h.stopOperator();
      h.tidbSqlAt(LoopbackMariaDb.HOST + ":" + closedPort());
      h.startOperator();

      TidbCluster tc = Fixtures.small(NAME, "RollingUpdate");
      TidbPasswordInitializer init = new TidbPasswordInitializer();
      init.setCreatePassword(true);
      tc.getSpec().getTidb().setInitializer(init);
      h.create(tc);

      Secret first = Await.until("Secret basic-init", ControllerHarness.CONVERGE,
          () -> secret(h), s -> s != null);
      String password = new String(Base64.getDecoder().decode(first.getData().get("root")), StandardCharsets.UTF_8);
      assertEquals(13, password.length());
      assertEquals("TidbCluster", first.getMetadata().getOwnerReferences().get(0).getKind());
      double before = h.operator().reconciles();
      Await.until("a few reconciles against the closed port", Duration.ofSeconds(60),
          () -> h.operator().reconciles(), n -> n >= before + 3);
      assertNull(h.get(NAME).getStatus().getTidb().getPasswordInitialized(),
          "TiDB's MySQL port refused: not initialized");
      assertThrows(SQLException.class, () -> db.as("root", password).close(), "root is untouched so far");

      // Restart with TiDB's MySQL port reachable: the existing Secret's password is set.
      h.stopOperator();
      h.tidbSqlAt(LoopbackMariaDb.HOST + ":" + db.port);
      h.startOperator();
      h.await(NAME, "status.tidb.passwordInitialized", c -> c.getStatus() != null && c.getStatus().getTidb() != null
          && Boolean.TRUE.equals(c.getStatus().getTidb().getPasswordInitialized()));
      Secret afterSet = secret(h);
      assertEquals(first.getMetadata().getUid(), afterSet.getMetadata().getUid(), "the same Secret");
      assertEquals(first.getMetadata().getResourceVersion(), afterSet.getMetadata().getResourceVersion(),
          "the Secret was never written again");
      try (Connection c = db.as("root", password)) {
        assertTrue(c.isValid(2), "root logs in with the Secret's password");
      }
      SQLException denied = assertThrows(SQLException.class, () -> db.as("root", "").close());
      assertEquals(1045, denied.getErrorCode(), "root no longer logs in without a password");

      // Restart once more: nothing is regenerated or set again.
      h.stopOperator();
      h.startOperator();
      double settled = h.operator().reconciles();
      Await.until("a few reconciles after the restart", Duration.ofSeconds(60),
          () -> h.operator().reconciles(), n -> n >= settled + 3);
      Secret afterRestart = secret(h);
      assertEquals(first.getMetadata().getResourceVersion(), afterRestart.getMetadata().getResourceVersion());
      assertEquals(first.getData(), afterRestart.getData());
      try (Connection c = db.as("root", password)) {
        assertTrue(c.isValid(2));
      }

      List<Event> events = h.events(NAME);
      assertEquals(1, events.stream().filter(e -> "PasswordSecretCreated".equals(e.getReason())).count(),
          "one Secret, created once: " + events);
      assertEquals(1, events.stream().filter(e -> "RootPasswordSet".equals(e.getReason())).count(),
          "root's password set once: " + events);
      String allEvents = ApiObjects.toJson(h.admin.v1().events().inNamespace(h.namespace).list());
      assertFalse(allEvents.contains(password), "no password in any Event");
      TidbCluster stored = h.get(NAME);
      assertFalse(ApiObjects.toJson(stored).contains(password), "no password in the TidbCluster");
      System.err.flush();
      String logText = logs.toString(StandardCharsets.UTF_8);
      assertTrue(logText.contains("event=root_password_initialized"), "the operator's log is captured");
      assertFalse(logText.contains(password), "no password in the operator's log");
    } finally {
      System.setErr(originalErr);
      db.resetAsNewTidb(List.of(), List.of());
    }
  }

  private static Secret secret(ControllerHarness h) {
    return h.admin.secrets().inNamespace(h.namespace).withName(NAME + "-init").get();
  }

  /** A loopback port nothing listens on (bound, then released). */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Writes to both streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      synchronized (b) {
        b.write(c);
      }
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      synchronized (b) {
        b.write(buf, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      a.flush();
    }
  }
}
