package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ControllerMainTest {

  private static ControllerSettings parse(String... args) {
    ControllerMain main = new ControllerMain();
    new CommandLine(main).parseArgs(args);
    return main.settings();
  }

  @Test
  void defaultsFollowUpstream() {
    ControllerSettings s = parse();
    assertTrue(s.watchAllNamespaces());
    assertEquals(5, s.workers());
    assertEquals(Duration.ofSeconds(30), s.resync());
    assertEquals(Duration.ofSeconds(1), s.reconcileSpacing());
    assertTrue(s.leaderElection().isEmpty());
    assertEquals(8080, s.httpAddress().getPort());
    assertEquals(URI.create("http://basic-pd.db:2379"), s.endpoints().pdUrl("db", "basic", null));
    assertFalse(s.identity().isBlank());
  }

  @Test
  void chartFlags() {
    ControllerSettings s =
        parse(
            "--watch-namespaces=a,b,",
            "--workers=3",
            "--resync-seconds=10",
            "--reconcile-spacing-millis=250",
            "--port=9090",
            "--discovery-image=reg/op:1",
            "--leader-election",
            "--leader-election-namespace=ops",
            "--leader-election-lease=my-lease",
            "--identity=op-0");
    assertEquals(Set.of("a", "b"), s.namespaces());
    assertEquals(3, s.workers());
    assertEquals(Duration.ofSeconds(10), s.resync());
    assertEquals(Duration.ofMillis(250), s.reconcileSpacing());
    assertEquals(9090, s.httpAddress().getPort());
    assertEquals("reg/op:1", s.discoveryImage());
    assertEquals(new ControllerSettings.LeaderElection("my-lease", "ops"), s.leaderElection().get());
    assertEquals("op-0", s.identity());
  }

  @Test
  void simulatorTemplates() {
    ControllerSettings s =
        parse(
            "--pd-url-template=http://127.0.0.1:12379/clusters/{namespace}/{name}",
            "--tidb-status-url-template=http://127.0.0.1:12379/clusters/{namespace}/{name}/tidb/{pod}");
    assertEquals(
        URI.create("http://127.0.0.1:12379/clusters/db/basic/tidb/basic-tidb-0"),
        s.endpoints().tidbStatusUrl("db", "basic", null, "basic-tidb-0"));
  }

  @Test
  void failoverIsOnWithFiveMinutePeriodsAsUpstream() {
    assertEquals(
        new FailoverSettings(
            true, Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(5)),
        parse().failover());
  }

  @Test
  void failoverFlags() {
    FailoverSettings f =
        parse(
                "--auto-failover=false",
                "--pd-failover-period=10m",
                "--tikv-failover-period=1h30m",
                "--tidb-failover-period=90s",
                "--tiflash-failover-period=7m")
            .failover();
    assertEquals(
        new FailoverSettings(
            false, Duration.ofMinutes(10), Duration.ofMinutes(90), Duration.ofSeconds(90),
            Duration.ofMinutes(7)),
        f);
    var e =
        assertThrows(IllegalArgumentException.class, () -> parse("--tikv-failover-period=soon"));
    assertEquals(
        "--tikv-failover-period: Invalid value: \"soon\": must be a duration such as 5m or 90s",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> parse("--pd-failover-period=0s"));
    assertEquals(
        "--pd-failover-period: Invalid value: \"0s\": must be greater than 0", e.getMessage());
  }

  @Test
  void leaderElectionNeedsANamespace() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse("--leader-election", "--leader-election-namespace="));
    assertTrue(e.getMessage().startsWith("--leader-election-namespace: Required value"), e.getMessage());
  }

  @Test
  void badValuesNameTheFlag() {
    var e = assertThrows(IllegalArgumentException.class, () -> parse("--workers=0"));
    assertEquals("--workers: Invalid value: 0: must be greater than 0", e.getMessage());
    var q = assertThrows(IllegalArgumentException.class, () -> parse("--kube-api-qps=-1"));
    assertEquals(
        "--kube-api-qps: Invalid value: -1.0: must be 0 (no limit) or a positive number", q.getMessage());
    assertThrows(IllegalArgumentException.class, () -> parse("--kube-api-qps=NaN"));
    var s = assertThrows(IllegalArgumentException.class, () -> parse("--reconcile-spacing-millis=-5"));
    assertEquals(
        "--reconcile-spacing-millis: Invalid value: -5: must be 0 (no spacing) or a positive number"
            + " of milliseconds", s.getMessage());
    parse("--reconcile-spacing-millis=0");
    parse("--kube-api-qps=0");
    var t = assertThrows(IllegalArgumentException.class, () -> parse("--pd-url-template=http://{x}"));
    assertTrue(t.getMessage().startsWith("--pd-url-template: Unsupported value"), t.getMessage());
  }

  @Test
  void discoveryIsASubcommand() {
    CommandLine cli = ControllerMain.commandLine("discovery", "--tc-name=basic");
    assertTrue(cli.getSubcommands().containsKey("discovery"));
    assertEquals("discovery", cli.parseArgs("discovery").subcommand().commandSpec().name());
  }

  @Test
  void theOperatorsStartAddsNoModeAndHelpListsThemAll() {
    assertEquals(List.of(), ControllerMain.modesFor("--workers=5", "--log-level=info"));
    assertTrue(ControllerMain.commandLine("--workers=5").getSubcommands().isEmpty());
    assertEquals(List.of("backup-manager"), ControllerMain.modesFor("backup-manager", "backup", "--namespace=x"));
    assertEquals(List.copyOf(ControllerMain.MODES.keySet()), ControllerMain.modesFor("--help"));
    assertEquals(ControllerMain.MODES.keySet(), ControllerMain.commandLine("-h").getSubcommands().keySet());
  }

  @Test
  void anUnknownLogLevelIsRefusedNamingTheSupportedOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> parse("--log-level=verbose"));
    assertEquals("--log-level: Unsupported value: \"verbose\": supported values: \"error\", \"warn\","
        + " \"info\", \"debug\", \"trace\"", e.getMessage());
    parse("--log-level=WARN"); // any case, as before
  }

  /**
   * JOSDK hands a controller its cached primary, uncopied, only when it changes nothing on it
   * (PrimaryCloner): the two with a clean-up get a copy, since JOSDK adds and removes their
   * finalizers on the object it hands them.
   */
  @Test
  void onlyControllersWithoutAFinalizerReadTheCachedPrimaryItself() {
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build()) {
      Map<String, Boolean> readOnly = new TreeMap<>();
      for (ValidatingReconciler<?, ?> c : ControllerMain.controllers(parse(), client, new SimpleMeterRegistry())) {
        readOnly.put(c.resourceType().getSimpleName(), c.readsPrimaryOnly());
      }
      assertEquals(Map.of("TidbCluster", true, "TidbInitializer", true, "DmCluster", true,
          "Restore", true, "BackupSchedule", true, "TidbMonitor", false, "Backup", false), readOnly);
    }
  }
}
