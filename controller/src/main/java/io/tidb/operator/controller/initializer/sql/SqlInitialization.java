package io.tidb.operator.controller.initializer.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link InitPlan} against TiDB over the MySQL protocol. Waits until TiDB accepts a
 * login, then applies the plan step by step; the first failing step ends the run and the result
 * says which step, which statement (by its 1-based index) and what the server answered. Passwords
 * never reach a log line or a result: a failed password step reports only the server's error code
 * and SQL state, never its message (which may quote the statement).
 */
public final class SqlInitialization {

  private static final Logger LOG = LoggerFactory.getLogger(SqlInitialization.class);

  /** MySQL's ER_ACCESS_DENIED_ERROR. */
  static final int ACCESS_DENIED = 1045;

  /** Opens a connection as root with the given password (empty string: no password). */
  @FunctionalInterface
  public interface Connector {
    Connection connect(String password) throws SQLException;
  }

  /** Waits between connection attempts; tests pass one that does not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  /** How a run ended: {@code ok} and a one-line summary, which is the container's last line. */
  public record Result(boolean ok, String summary) {}

  private final Connector connector;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Duration retryEvery;

  public SqlInitialization(Connector connector, Clock clock, Sleeper sleeper, Duration retryEvery) {
    this.connector = connector;
    this.clock = clock;
    this.sleeper = sleeper;
    this.retryEvery = retryEvery;
  }

  /**
   * @param target {@code host:port}, for messages
   * @param wait how long TiDB may stay unreachable before the run fails
   */
  public Result run(InitPlan plan, String target, Duration wait) throws InterruptedException {
    Connection conn;
    try {
      Optional<Connection> opened = awaitLogin(plan, target, wait);
      if (opened.isEmpty()) {
        return new Result(
            false, "TiDB at " + target + " did not accept a connection within " + wait.toSeconds() + "s");
      }
      conn = opened.get();
    } catch (SQLException e) {
      Optional<String> tls = tlsFailure(e);
      if (tls.isPresent()) {
        return new Result(false, "TLS with TiDB at " + target + " failed: " + tls.get());
      }
      return new Result(false, "cannot log in to TiDB at " + target + " as root: " + errorCode(e));
    }
    try (conn) {
      return apply(conn, plan);
    } catch (SQLException e) {
      return new Result(false, "closing the connection failed: " + describe(e));
    }
  }

  private Result apply(Connection conn, InitPlan plan) {
    if (plan.timezone().isPresent()) {
      ZoneOffset offset = plan.timezone().get().getRules().getOffset(clock.instant());
      String zone = offset.getId().equals("Z") ? "+00:00" : offset.getId();
      try (PreparedStatement st = conn.prepareStatement("SET time_zone = ?")) {
        st.setString(1, zone);
        st.execute();
      } catch (SQLException e) {
        return new Result(false, "setting the session time zone " + zone + " failed: " + describe(e));
      }
    }
    if (plan.rootPassword().isPresent()) {
      try (PreparedStatement st = conn.prepareStatement("ALTER USER 'root'@'%' IDENTIFIED BY ?")) {
        st.setString(1, plan.rootPassword().get());
        st.execute();
      } catch (SQLException e) {
        return new Result(false, "setting the root password failed: " + errorCode(e));
      }
      LOG.info("event=root_password_set");
    }
    for (InitPlan.Account account : plan.users()) {
      try (PreparedStatement st =
          conn.prepareStatement("CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?")) {
        st.setString(1, account.user());
        st.setString(2, plan.permitHost());
        st.setString(3, account.password());
        st.execute();
      } catch (SQLException e) {
        return new Result(false, "creating user " + account.user() + " failed: " + errorCode(e));
      }
      LOG.info("event=user_created user={} host={}", account.user(), plan.permitHost());
    }
    int total = plan.statements().size();
    for (int i = 0; i < total; i++) {
      try (Statement st = conn.createStatement()) {
        st.execute(plan.statements().get(i));
      } catch (SQLException e) {
        return new Result(
            false,
            "init SQL statement " + (i + 1) + " of " + total + " failed ("
                + (i == 0 ? "none" : "statements 1-" + i) + " applied): " + describe(e));
      }
      LOG.info("event=statement_applied index={} of={}", i + 1, total);
    }
    if (!InitPlan.ANY_HOST.equals(plan.permitHost())) {
      try (PreparedStatement st = conn.prepareStatement("RENAME USER 'root'@'%' TO 'root'@?")) {
        st.setString(1, plan.permitHost());
        st.execute();
      } catch (SQLException e) {
        return new Result(
            false, "restricting root to host " + plan.permitHost() + " failed: " + describe(e));
      }
    }
    try (Statement st = conn.createStatement()) {
      st.execute("FLUSH PRIVILEGES");
    } catch (SQLException e) {
      return new Result(false, "FLUSH PRIVILEGES failed: " + describe(e));
    }
    return new Result(
        true,
        "initialized: "
            + (plan.rootPassword().isPresent() ? "root password set, " : "")
            + plan.users().size() + " users created, "
            + total + " init SQL statements applied");
  }

  /**
   * Logs in as root with no password, as a new TiDB has it; when that is refused and the plan
   * sets a password, with that password (an earlier, interrupted run may have set it). Connection
   * failures are retried until {@code wait} has passed.
   */
  private Optional<Connection> awaitLogin(InitPlan plan, String target, Duration wait)
      throws SQLException, InterruptedException {
    Instant deadline = clock.instant().plus(wait);
    int attempt = 0;
    while (true) {
      attempt++;
      try {
        return Optional.of(connector.connect(""));
      } catch (SQLException e) {
        if (e.getErrorCode() == ACCESS_DENIED) {
          if (plan.rootPassword().isEmpty()) {
            throw e;
          }
          Connection conn = connector.connect(plan.rootPassword().get());
          LOG.info("event=root_password_already_set detail=\"root accepts the password of the"
              + " Secret; an earlier run set it\"");
          return Optional.of(conn);
        }
        if (tlsFailure(e).isPresent()) {
          // A certificate TiDB's CA does not verify (or a refused client certificate) does not
          // get better by waiting: the run fails at once and says why.
          throw e;
        }
        if (!clock.instant().isBefore(deadline)) {
          LOG.warn("event=tidb_unreachable target={} attempts={} error=\"{}\"", target, attempt, describe(e));
          return Optional.empty();
        }
        if (attempt == 1 || attempt % 10 == 0) {
          LOG.info("event=waiting_for_tidb target={} attempt={} error=\"{}\"", target, attempt, describe(e));
        }
      }
      sleeper.sleep(retryEvery);
    }
  }

  /** The TLS handshake's own failure in {@code e}'s causes, if the connection failed there. */
  static Optional<String> tlsFailure(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof javax.net.ssl.SSLException) {
        Throwable root = t;
        while (root.getCause() != null) {
          root = root.getCause();
        }
        return Optional.of(String.valueOf(root.getMessage()));
      }
    }
    return Optional.empty();
  }

  /** The server's answer: error code, SQL state and message. */
  static String describe(SQLException e) {
    String message = e.getMessage() == null ? "" : e.getMessage().replace('\n', ' ');
    return "[" + e.getErrorCode() + "/" + e.getSQLState() + "] " + message;
  }

  /** Only the error code and SQL state: for statements that carry a password. */
  static String errorCode(SQLException e) {
    return "server error " + e.getErrorCode() + " (SQL state " + e.getSQLState() + ")";
  }
}
