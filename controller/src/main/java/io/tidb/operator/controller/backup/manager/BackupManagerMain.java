package io.tidb.operator.controller.backup.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.backup.RestoreStatus;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The backup-manager mode of the operator image, run by a Backup's or Restore's Job as the
 * {@value #MODE} subcommand: runs the BR command line it is given (after {@code --}), passing BR's
 * output through, reads BR's success summary and writes its own status fields of its one Backup
 * or Restore ({@link ManagerStatusWriter}). The Job's ServiceAccount may do exactly that. A
 * Backup's manager first sets upstream's {@code Prepare} ({@link PrepareStatus}); a Restore's goes
 * straight to running BR, as upstream's.
 *
 * <p>Exit code 0 when BR succeeded and reported a summary; 1 when it failed (the last line says
 * why, and becomes the pod's termination message); 2 for bad arguments.
 */
@Command(
    name = BackupManagerMain.MODE,
    mixinStandardHelpOptions = true,
    description = "Run BR for one Backup or Restore and report its result (a Backup's or Restore's Job).",
    subcommands = {CleanCommand.class})
public final class BackupManagerMain {

  /** The subcommand of the operator's entry point that selects this mode. */
  public static final String MODE = "backup-manager";

  /** Upstream's flag: the cluster has TLS, BR gets the client certificate mounted at {@link #CLUSTER_CLIENT_DIR}. */
  public static final String CLUSTER_TLS_FLAG = "--cluster-tls";

  /** Where the Job mounts {@code <cluster>-cluster-client-secret}, as upstream. */
  public static final String CLUSTER_CLIENT_DIR = "/var/lib/cluster-client-tls";

  private final Clock clock;
  private final PrintStream out;

  public BackupManagerMain() {
    this(Clock.systemUTC(), System.out);
  }

  BackupManagerMain(Clock clock, PrintStream out) {
    this.clock = clock;
    this.out = out;
  }

  @Command(name = "backup", description = "Run `br backup ...` for one Backup.")
  int backup(
      @Option(names = "--namespace", required = true) String namespace,
      @Option(names = "--name", required = true) String name,
      @Option(names = CLUSTER_TLS_FLAG, description = "The cluster has TLS: give BR its client certificate.")
      boolean clusterTls,
      @Parameters(arity = "1..*", paramLabel = "BR_COMMAND", description = "br and its arguments, after --") List<String> brCommand)
      throws Exception {
    List<String> br = clusterTls ? withClusterTls(brCommand) : brCommand;
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      if (br.size() > 2 && "log".equals(br.get(1))) {
        return logCommand(client, namespace, name, br);
      }
      ManagerStatusWriter.prepare(client, namespace, name, null, clock);
      Instant started = now();
      BackupStatus running = new BackupStatus();
      running.setTimeStarted(ts(started));
      ManagerStatusWriter.apply(client, Backup::new, namespace, name, running);
      BrRun run;
      try {
        run = runBr(br);
      } catch (BrFailed e) {
        return fail("backup failed: " + e.getMessage());
      }
      Instant completed = now();
      BackupStatus done = new BackupStatus();
      done.setTimeStarted(ts(started));
      done.setTimeCompleted(ts(completed));
      done.setTimeTaken(HumanUnits.goDuration(Duration.between(started, completed)));
      done.setCommitTs(run.commitTs());
      run.summary().size().ifPresent(size -> {
        done.setBackupSize(size);
        done.setBackupSizeReadable(HumanUnits.bytes(size));
      });
      ManagerStatusWriter.apply(client, Backup::new, namespace, name, done);
      out.println("backup-manager: backup " + namespace + "/" + name + " complete"
          + (done.getCommitTs() == null ? "" : ", commitTs " + done.getCommitTs())
          + (done.getBackupSizeReadable() == null ? "" : ", size " + done.getBackupSizeReadable()));
      return 0;
    }
  }

  @Command(name = "restore", description = "Run `br restore ...` for one Restore.")
  int restore(
      @Option(names = "--namespace", required = true) String namespace,
      @Option(names = "--name", required = true) String name,
      @Option(names = CLUSTER_TLS_FLAG, description = "The cluster has TLS: give BR its client certificate.")
      boolean clusterTls,
      @Parameters(arity = "1..*", paramLabel = "BR_COMMAND", description = "br and its arguments, after --") List<String> brCommand)
      throws Exception {
    List<String> br = clusterTls ? withClusterTls(brCommand) : brCommand;
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      Instant started = now();
      RestoreStatus running = new RestoreStatus();
      running.setTimeStarted(ts(started));
      ManagerStatusWriter.apply(client, Restore::new, namespace, name, running);
      BrRun run;
      try {
        run = runBr(br);
      } catch (BrFailed e) {
        return fail("restore failed: " + e.getMessage());
      }
      Instant completed = now();
      RestoreStatus done = new RestoreStatus();
      done.setTimeStarted(ts(started));
      done.setTimeCompleted(ts(completed));
      done.setTimeTaken(HumanUnits.goDuration(Duration.between(started, completed)));
      // A point-in-time restore's commitTs is the point it restored to, not the full backup's.
      boolean point = br.size() > 2 && "restore".equals(br.get(1)) && "point".equals(br.get(2));
      String commitTs = point ? BrSummary.lastField(run.lines(), "restored-ts").or(() -> argument(br, "--restored-ts"))
          .orElse(run.commitTs()) : run.commitTs();
      done.setCommitTs(commitTs);
      ManagerStatusWriter.apply(client, Restore::new, namespace, name, done);
      out.println("backup-manager: restore " + namespace + "/" + name + " complete, commitTs " + commitTs);
      return 0;
    }
  }

  /**
   * One command of a log backup ({@code br log start|stop|pause|resume|truncate}): BR must exit 0;
   * the start's commitTs is the {@code start-ts} BR's task line reports (else the {@code
   * --start-ts} it was given), a truncation's logSuccessTruncateUntil is its {@code --until}. Each
   * apply carries what this writer wrote before (commitTs, logSuccessTruncateUntil), which
   * server-side apply would otherwise remove.
   */
  private int logCommand(KubernetesClient client, String namespace, String name, List<String> br) throws Exception {
    String sub = br.get(2);
    ManagerStatusWriter.prepare(client, namespace, name, "log-" + sub, clock);
    Backup current = client.resources(Backup.class).inNamespace(namespace).withName(name).get();
    BackupStatus before = current == null || current.getStatus() == null ? new BackupStatus() : current.getStatus();
    Instant started = now();
    BackupStatus running = new BackupStatus();
    running.setCommitTs(before.getCommitTs());
    running.setLogSuccessTruncateUntil(before.getLogSuccessTruncateUntil());
    running.setTimeStarted(ts(started));
    ManagerStatusWriter.apply(client, Backup::new, namespace, name, running);
    out.println("backup-manager: running " + String.join(" ", redacted(br)));
    BrProcess.Result result = BrProcess.run(br, out);
    if (result.exitCode() != 0) {
      return fail("log " + sub + " failed: br exited with code " + result.exitCode() + ": "
          + BrSummary.error(result.lastLines()).orElse("no output"));
    }
    BackupStatus done = new BackupStatus();
    done.setCommitTs(before.getCommitTs());
    done.setLogSuccessTruncateUntil(before.getLogSuccessTruncateUntil());
    if ("start".equals(sub)) {
      Optional<String> startTs = BrSummary.lastField(result.lastLines(), "start-ts").or(() -> argument(br, "--start-ts"));
      if (startTs.isEmpty()) {
        return fail("log start failed: br exited 0 but reported no start-ts");
      }
      done.setCommitTs(startTs.get());
    } else if ("truncate".equals(sub)) {
      done.setLogSuccessTruncateUntil(argument(br, "--until").orElse(null));
    }
    Instant completed = now();
    done.setTimeStarted(ts(started));
    done.setTimeCompleted(ts(completed));
    done.setTimeTaken(HumanUnits.goDuration(Duration.between(started, completed)));
    ManagerStatusWriter.apply(client, Backup::new, namespace, name, done);
    out.println("backup-manager: log " + sub + " of " + namespace + "/" + name + " complete"
        + ("start".equals(sub) ? ", commitTs " + done.getCommitTs() : "")
        + ("truncate".equals(sub) ? ", truncated until " + done.getLogSuccessTruncateUntil() : ""));
    return 0;
  }

  /**
   * BR's command line with the cluster's client certificate, as upstream's backup-manager adds it:
   * {@code --ca}, {@code --cert} and {@code --key} (the Secret's {@code ca.crt}, {@code tls.crt},
   * {@code tls.key} at {@link #CLUSTER_CLIENT_DIR}) right after {@code --pd}, so the user's
   * options still come last. Pure.
   */
  static List<String> withClusterTls(List<String> br) {
    List<String> tls = List.of("--ca=" + CLUSTER_CLIENT_DIR + "/ca.crt", "--cert=" + CLUSTER_CLIENT_DIR + "/tls.crt",
        "--key=" + CLUSTER_CLIENT_DIR + "/tls.key");
    List<String> out = new java.util.ArrayList<>(br.size() + tls.size());
    boolean added = false;
    for (String a : br) {
      out.add(a);
      if (!added && a.startsWith("--pd=")) {
        out.addAll(tls);
        added = true;
      }
    }
    if (!added) {
      out.addAll(tls);
    }
    return out;
  }

  /** The value of BR's {@code --flag=value} argument. */
  static Optional<String> argument(List<String> br, String flag) {
    return br.stream().filter(a -> a.startsWith(flag + "=")).map(a -> a.substring(flag.length() + 1)).reduce((a, b) -> b);
  }

  /** A BR run that succeeded: its summary and the BackupTS it reported. */
  private record BrRun(BrSummary.Summary summary, String commitTs, List<String> lines) {}

  /** Why a BR run did not succeed, in the words the Job's last line gives. */
  private static final class BrFailed extends Exception {
    BrFailed(String message) {
      super(message);
    }
  }

  /**
   * Runs BR with its output passed through, and requires what both a backup and a restore need
   * of it: exit code 0, a success summary, and a BackupTS in it.
   */
  private BrRun runBr(List<String> br) throws Exception {
    out.println("backup-manager: running " + String.join(" ", redacted(br)));
    BrProcess.Result result = BrProcess.run(br, out);
    if (result.exitCode() != 0) {
      throw new BrFailed("br exited with code " + result.exitCode() + ": "
          + BrSummary.error(result.lastLines()).orElse("no output"));
    }
    Optional<BrSummary.Summary> summary = BrSummary.find(result.lastLines());
    if (summary.isEmpty()) {
      throw new BrFailed("br exited 0 but printed no success summary");
    }
    Optional<String> commitTs = summary.get().backupTs();
    if (commitTs.isEmpty()) {
      throw new BrFailed("br's summary has no BackupTS: " + summary.get().fields());
    }
    return new BrRun(summary.get(), commitTs.get(), result.lastLines());
  }

  private int fail(String why) {
    out.println(why);
    out.flush();
    return 1;
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.SECONDS);
  }

  static String ts(Instant i) {
    return DateTimeFormatter.ISO_INSTANT.format(i);
  }

  /** The command line as logged: BR takes no secret as an argument, but a user's option might. */
  static List<String> redacted(List<String> br) {
    return br.stream().map(a -> a.matches("(?i)--[a-z0-9.-]*(key|secret|password|token)[a-z0-9.-]*=.*")
        ? a.substring(0, a.indexOf('=') + 1) + "<redacted>" : a).toList();
  }
}
