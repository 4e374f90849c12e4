package io.tidb.operator.controller.it;

import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The MariaDB server of {@code hack/mariadb.sh} on 127.0.0.1, standing in for TiDB. {@link
 * #shared()} runs {@code hack/mariadb.sh up} (idempotent; {@code hack/test.sh} has usually started
 * it already) and fails with the script's own message when it cannot, e.g. when Debian's
 * mariadb-server is not installed: a test that needs it never skips silently.
 */
final class LoopbackMariaDb {

  static final String HOST = "127.0.0.1";

  private static LoopbackMariaDb shared;

  final int port;
  private final String adminPassword;
  /** Driver options of every connection: empty, or TLS verifying the server against the CA. */
  private final String urlOptions;
  /** The environment the script ran with (to stop a second instance), or null for the shared one. */
  private final Map<String, String> scriptEnv;

  private LoopbackMariaDb(int port, String adminPassword, String urlOptions,
      Map<String, String> scriptEnv) {
    this.port = port;
    this.adminPassword = adminPassword;
    this.urlOptions = urlOptions;
    this.scriptEnv = scriptEnv;
  }

  /**
   * A second instance of {@code hack/mariadb.sh} serving TLS only, with {@code tlsDir}'s ca.crt,
   * tls.crt and tls.key, its state in {@code stateDir}, on {@code port}; {@link #stop()} it.
   * The test's own connections verify the server against ca.crt.
   */
  static LoopbackMariaDb startTls(Path stateDir, int port, Path tlsDir) {
    Map<String, String> env = Map.of(
        "TIDB_OPERATOR_MARIADB_DIR", stateDir.toString(),
        "TIDB_OPERATOR_MARIADB_PORT", Integer.toString(port),
        "TIDB_OPERATOR_MARIADB_TLS_DIR", tlsDir.toString());
    return start(env, "?sslMode=verify-ca&serverSslCert=" + tlsDir.resolve("ca.crt"));
  }

  /** Stops a second instance and deletes its data (the shared one is left running). */
  void stop() {
    if (scriptEnv != null) {
      runScript("down", scriptEnv);
    }
  }

  static synchronized LoopbackMariaDb shared() {
    if (shared == null) {
      shared = start();
    }
    return shared;
  }

  private static LoopbackMariaDb start() {
    return start(Map.of(), "");
  }

  private static LoopbackMariaDb start(Map<String, String> env, String urlOptions) {
    String out = runScript("up", env);
    String[] lines = out.split("\n");
    int port = Integer.parseInt(lines[lines.length - 1].strip());
    String state = env.getOrDefault("TIDB_OPERATOR_MARIADB_DIR",
        System.getenv().getOrDefault("TIDB_OPERATOR_MARIADB_DIR",
            System.getProperty("user.home") + "/.local/share/tidb-operator-java/mariadb"));
    try {
      String password = Files.readString(Path.of(state, "admin-password")).strip();
      return new LoopbackMariaDb(port, password, urlOptions, env.isEmpty() ? null : env);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the MariaDB admin password in " + state, e);
    }
  }

  private static String runScript(String command, Map<String, String> env) {
    Path script = ProjectDirectory.root().resolve("hack/mariadb.sh");
    try {
      ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), command).redirectErrorStream(true);
      pb.environment().putAll(env);
      Process p = pb.start();
      p.getOutputStream().close();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(script + " " + command + " did not finish in 120s");
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "the loopback MariaDB the TidbInitializer tests need is not available (" + script
                + " " + command + " exited " + p.exitValue() + "):\n" + out);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  String url() {
    return "jdbc:mariadb://" + HOST + ":" + port + "/" + urlOptions;
  }

  Connection admin() throws SQLException {
    return DriverManager.getConnection(url(), "tidb_operator_admin", adminPassword);
  }

  Connection as(String user, String password) throws SQLException {
    return DriverManager.getConnection(url(), user, password);
  }

  /**
   * root@% with no password and every privilege, as a new TiDB has it; the given users and
   * databases dropped, so each scenario starts from a fresh "TiDB".
   */
  void resetAsNewTidb(List<String> users, List<String> databases) throws SQLException {
    try (Connection c = admin(); Statement st = c.createStatement()) {
      st.execute("DROP USER IF EXISTS 'root'@'%'");
      st.execute("DROP USER IF EXISTS 'root'@'127.0.0.1'");
      for (String u : users) {
        st.execute("DROP USER IF EXISTS '" + u + "'@'%'");
      }
      for (String d : databases) {
        st.execute("DROP DATABASE IF EXISTS `" + d + "`");
      }
      st.execute("CREATE USER 'root'@'%'");
      st.execute("GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION");
      st.execute("FLUSH PRIVILEGES");
    }
  }
}
