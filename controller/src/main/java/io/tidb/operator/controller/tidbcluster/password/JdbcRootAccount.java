package io.tidb.operator.controller.tidbcluster.password;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RootAccount} over MariaDB Connector/J, with upstream's statements ({@code 'root'@'%'},
 * then {@code FLUSH PRIVILEGES}). The password travels only as a bound parameter; logs carry only
 * the server's error code and SQL state, never a message that could quote a statement.
 */
public final class JdbcRootAccount implements RootAccount {

  private static final Logger LOG = LoggerFactory.getLogger(JdbcRootAccount.class);

  /** MySQL's ER_ACCESS_DENIED_ERROR. */
  static final int ACCESS_DENIED = 1045;

  private final Duration timeout;

  /** @param timeout connect and statement timeout (upstream: 5 s) */
  public JdbcRootAccount(Duration timeout) {
    this.timeout = timeout;
  }

  @Override
  public RootPasswordPlan.Login setPassword(InetSocketAddress tidb, String password) {
    String target = tidb.getHostString() + ":" + tidb.getPort();
    String url = "jdbc:mariadb://" + target + "/";
    try (Connection conn = connect(url, "")) {
      try (PreparedStatement st = conn.prepareStatement("ALTER USER 'root'@'%' IDENTIFIED BY ?")) {
        st.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
        st.setString(1, password);
        st.execute();
      }
      try (Statement st = conn.createStatement()) {
        st.execute("FLUSH PRIVILEGES");
      }
      return RootPasswordPlan.Login.SET;
    } catch (SQLException e) {
      if (e.getErrorCode() != ACCESS_DENIED) {
        LOG.warn("event=root_password_not_set target={} error=\"{}\"", target, code(e));
        return RootPasswordPlan.Login.RETRY;
      }
    }
    try (Connection conn = connect(url, password)) {
      return RootPasswordPlan.Login.ALREADY_SET;
    } catch (SQLException e) {
      if (e.getErrorCode() == ACCESS_DENIED) {
        return RootPasswordPlan.Login.DENIED;
      }
      LOG.warn("event=root_login_failed target={} error=\"{}\"", target, code(e));
      return RootPasswordPlan.Login.RETRY;
    }
  }

  private Connection connect(String url, String password) throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", "root");
    props.setProperty("password", password);
    props.setProperty("connectTimeout", Long.toString(timeout.toMillis()));
    props.setProperty("socketTimeout", Long.toString(timeout.toMillis()));
    return DriverManager.getConnection(url, props);
  }

  private static String code(SQLException e) {
    return "server error " + e.getErrorCode() + " (SQL state " + e.getSQLState() + ")";
  }
}
