package io.tidb.operator.controller.initializer.sql;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The initializer mode of the operator image, run by a TidbInitializer's Job as the {@value
 * #MODE} subcommand: logs in to TiDB as root, sets the passwords, runs the init SQL (see {@link
 * SqlInitialization}). Where TiDB is comes from the arguments; everything secret, and the SQL,
 * from the environment the Job sets ({@value #ENV_ROOT_PASSWORD}, {@value #ENV_USERS}, {@value
 * #ENV_USER_PASSWORD_PREFIX}{@code <n>}, {@value #ENV_INIT_SQL}, {@code TZ}), so no password is
 * ever in a process argument.
 *
 * <p>Exit code 0 when the plan was applied, 1 when a step failed (the last line says which and
 * why), 2 for bad arguments.
 */
@Command(
    name = InitializerMain.MODE,
    mixinStandardHelpOptions = true,
    description = "Initialise a TidbCluster's TiDB: root password, users, init SQL (TidbInitializer's Job).")
public final class InitializerMain implements Callable<Integer> {

  /** The subcommand of the operator's entry point that selects this mode. */
  public static final String MODE = "initializer";

  /** Root's new password (from the passwordSecret's key {@code root}). */
  public static final String ENV_ROOT_PASSWORD = "TIDB_ROOT_PASSWORD";

  /** The further users, comma-separated, in the order of their password variables. */
  public static final String ENV_USERS = "TIDB_USERS";

  /** {@code TIDB_USER_PASSWORD_<n>}: the password of the n-th (1-based) user of {@value #ENV_USERS}. */
  public static final String ENV_USER_PASSWORD_PREFIX = "TIDB_USER_PASSWORD_";

  /** The init SQL (from initSqlConfigMap's key {@code init-sql}, or initSql). */
  public static final String ENV_INIT_SQL = "TIDB_INIT_SQL";

  /** The pod's time zone, as upstream sets it. */
  public static final String ENV_TZ = "TZ";

  @Option(names = "--host", required = true, description = "TiDB's MySQL host (the cluster's <tc>-tidb Service).")
  String host;

  @Option(names = "--port", defaultValue = "4000", description = "TiDB's MySQL port (default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--permit-host", defaultValue = InitPlan.ANY_HOST,
      description = "The host root and the users may connect from (default ${DEFAULT-VALUE}).")
  String permitHost;

  @Option(names = "--tls-ca", description = "CA certificate (PEM) to verify TiDB's server certificate with.")
  String tlsCa;

  @Option(names = "--tls-cert", description = "Client certificate (PEM) to present to TiDB (with --tls-key).")
  String tlsCert;

  @Option(names = "--tls-key", description = "Private key (PEM) of --tls-cert.")
  String tlsKey;

  @Option(names = "--wait-seconds", defaultValue = "1800",
      description = "How long TiDB may stay unreachable before the run fails (default ${DEFAULT-VALUE}).")
  long waitSeconds;

  private final Map<String, String> env;

  public InitializerMain() {
    this(System.getenv());
  }

  InitializerMain(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public Integer call() throws Exception {
    InitPlan plan;
    try {
      plan = plan(env, permitHost);
    } catch (IllegalArgumentException e) {
      System.err.println("initializer: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    String target = host + ":" + port;
    Properties props = new Properties();
    props.setProperty("user", "root");
    props.setProperty("connectTimeout", "5000");
    try {
      props.putAll(new TidbClientTls(tlsCa, tlsCert, tlsKey)
          .properties(Path.of(System.getProperty("java.io.tmpdir"))));
    } catch (IllegalArgumentException | IOException e) {
      System.err.println("initializer: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    String url = "jdbc:mariadb://" + target + "/";
    SqlInitialization.Connector connector = password -> connect(url, props, password);
    SqlInitialization.Result result =
        new SqlInitialization(connector, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()), Duration.ofSeconds(1))
            .run(plan, target, Duration.ofSeconds(waitSeconds));
    // The last line is the outcome: the Job's container keeps it as its termination message.
    System.err.println(result.ok() ? result.summary() : "initialization failed: " + result.summary());
    System.err.flush();
    return result.ok() ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
  }

  private static Connection connect(String url, Properties base, String password) throws SQLException {
    Properties props = new Properties();
    props.putAll(base);
    props.setProperty("password", password);
    return DriverManager.getConnection(url, props);
  }

  /** The plan the environment describes; throws naming the variable that is wrong. */
  static InitPlan plan(Map<String, String> env, String permitHost) {
    Optional<String> root = Optional.ofNullable(env.get(ENV_ROOT_PASSWORD));
    List<InitPlan.Account> users = new ArrayList<>();
    String names = env.getOrDefault(ENV_USERS, "");
    if (!names.isBlank()) {
      String[] parts = names.split(",");
      for (int i = 0; i < parts.length; i++) {
        String var = ENV_USER_PASSWORD_PREFIX + (i + 1);
        String password = env.get(var);
        if (password == null) {
          throw new IllegalArgumentException(
              var + " is not set: " + ENV_USERS + " names " + parts.length + " users");
        }
        users.add(new InitPlan.Account(parts[i].trim(), password));
      }
    }
    List<String> statements = SqlStatements.split(env.get(ENV_INIT_SQL));
    String tz = env.get(ENV_TZ);
    Optional<ZoneId> zone = Optional.empty();
    if (tz != null && !tz.isBlank()) {
      try {
        zone = Optional.of(ZoneId.of(tz));
      } catch (java.time.DateTimeException e) {
        throw new IllegalArgumentException(ENV_TZ + "=" + tz + " is not a time zone name");
      }
    }
    return new InitPlan(root, users, statements, permitHost, zone);
  }
}
