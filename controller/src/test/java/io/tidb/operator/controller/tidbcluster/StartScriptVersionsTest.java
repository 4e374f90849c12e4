package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.api.v1alpha1.cluster.TlsCluster;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.ScriptRunner;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pd.PdObjects;
import io.tidb.operator.controller.tidbcluster.pump.PumpObjects;
import io.tidb.operator.controller.tidbcluster.ticdc.TicdcObjects;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tiflash.TiflashObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import io.tidb.operator.controller.tidbcluster.tiproxy.TiproxyObjects;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec.startScriptVersion} v1 and v2 and the v2 feature flags, checked three ways: the
 * rendered scripts against reviewed snapshots; every variant through {@code sh -n} (and {@code
 * bash -n} with {@code BashShebang}); and the scripts run under /bin/sh in a scratch directory with
 * stand-ins for the server binaries (which print their arguments) and for {@code nslookup}, {@code
 * dig}, {@code getent}, {@code hostname}, {@code wget} and {@code sleep}. The expected command
 * lines, waits and start modes are those of upstream's v1 and v2 scripts (v1.6.6).
 */
class StartScriptVersionsTest {
  @TempDir Path tmp;

  private static final List<String> COMPONENTS =
      List.of("pd", "tikv", "tidb", "ticdc", "pump", "tiproxy", "tiflash", "tiflash-init");

  /** basic with TiCDC, Pump and TiProxy; TiFlash scripts come from the tiflash fixture. */
  private static TidbCluster in(String fixture, String version, String... flags) {
    TidbCluster tc = TestClusters.load(fixture);
    tc.getSpec().setPump(ApiObjects.parse(
        "baseImage: pingcap/tidb-binlog\nreplicas: 2\nrequests: {storage: 1Gi}\n", PumpSpec.class));
    tc.getSpec().setTicdc(ApiObjects.parse("baseImage: pingcap/ticdc\nreplicas: 3\n", TicdcSpec.class));
    tc.getSpec().setTiproxy(ApiObjects.parse(
        "baseImage: pingcap/tiproxy\nversion: v1.3.0\nreplicas: 2\n", TiproxySpec.class));
    tc.getSpec().setStartScriptVersion(version);
    tc.getSpec().setStartScriptV2FeatureFlags(flags.length == 0 ? null : List.of(flags));
    return tc;
  }

  private static TidbCluster cluster(String version, String... flags) {
    return in("basic", version, flags);
  }

  /** The script a component's pods run, read from the objects the operator writes. */
  private static String script(String component, TidbCluster tc) {
    Optional<String> none = Optional.empty();
    return switch (component) {
      case "pd" -> PdObjects.configMap(tc, none).getData().get("startup-script");
      case "tikv" -> TikvObjects.configMap(tc, none).getData().get("startup-script");
      case "tidb" -> TidbObjects.configMap(tc, none).getData().get("startup-script");
      case "ticdc" -> TicdcObjects.configMap(tc, none).getData().get("startup-script");
      case "pump" -> PumpObjects.configMap(tc, none).getData().get("startup-script");
      case "tiproxy" -> TiproxyObjects.configMap(tc, none).getData().get("startup-script");
      case "tiflash" -> TiflashObjects.configMap(tc, none).getData().get("startup-script");
      case "tiflash-init" -> TiflashObjects.statefulSet(tc, TiflashObjects.configMap(tc, none),
          StatefulSetPlan.holding(1)).getSpec().getTemplate().getSpec().getInitContainers().get(0)
          .getCommand().get(2);
      default -> throw new IllegalArgumentException(component);
    };
  }

  private static String fixtureOf(String component) {
    return component.startsWith("tiflash") ? "tiflash" : "basic";
  }

  // ---- snapshots and syntax ----

  @Test
  void scriptsMatchTheirSnapshots() {
    for (String component : COMPONENTS) {
      String fixture = fixtureOf(component);
      Golden.assertText("startscript/v1/" + component + ".sh", script(component, in(fixture, "v1")));
      Golden.assertText("startscript/v2/" + component + ".sh", script(component, in(fixture, "v2")));
      TidbCluster flagged = in(fixture, "v2", "WaitForDnsNameIpMatch", "PreferPDAddressesOverDiscovery",
          "BashShebang");
      flagged.getSpec().setPdAddresses(List.of("http://pd-a.example:2379", "https://pd-b.example:2379"));
      Golden.assertText("startscript/v2-flags/" + component + ".sh", script(component, flagged));
    }
  }

  @Test
  void everyVariantParses() throws Exception {
    List<Consumer<TidbCluster>> variants = List.of(
        tc -> { },
        tc -> tls(tc, false),
        tc -> { tls(tc, true); tc.getSpec().setAcrossK8s(true); },
        tc -> tc.getSpec().setAcrossK8s(true),
        tc -> { tc.getSpec().setClusterDomain("cluster.local"); tc.getSpec().setPreferIPv6(true); },
        tc -> tc.getSpec().getPd().setStartUpScriptVersion("v1"),
        tc -> tc.getSpec().setPdAddresses(List.of("http://pd-a.example:2379")));
    List<String[]> choices = List.of(new String[] {""}, new String[] {"v1"}, new String[] {"v2"},
        new String[] {"v2", "WaitForDnsNameIpMatch"}, new String[] {"v2", "NoWaitDNS"},
        new String[] {"v2", "PreferPDAddressesOverDiscovery", "BashShebang"},
        new String[] {"v2", "WaitForDnsNameIpMatch", "NoWaitDNS", "PreferPDAddressesOverDiscovery", "BashShebang"});
    int checked = 0;
    for (String component : COMPONENTS) {
      for (String[] choice : choices) {
        for (Consumer<TidbCluster> variant : variants) {
          String[] flags = java.util.Arrays.copyOfRange(choice, 1, choice.length);
          TidbCluster tc = in(fixtureOf(component), choice[0], flags);
          variant.accept(tc);
          String s = script(component, tc);
          String shell = s.startsWith("#!/bin/bash") ? "bash" : "/bin/sh";
          Path file = tmp.resolve("check.sh");
          Files.writeString(file, s);
          Process p = new ProcessBuilder(shell, "-n", file.toString()).redirectErrorStream(true).start();
          String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          assertTrue(p.waitFor(20, TimeUnit.SECONDS));
          assertEquals(0, p.exitValue(), component + " " + String.join(",", choice) + ": " + out + "\n" + s);
          checked++;
        }
      }
    }
    assertEquals(COMPONENTS.size() * 7 * 7, checked);
  }

  private static void tls(TidbCluster tc, boolean discoveryMtls) {
    tc.getSpec().setTlsCluster(new TlsCluster());
    tc.getSpec().getTlsCluster().setEnabled(true);
    tc.getSpec().getTlsCluster().setEnableDiscoveryMTLS(discoveryMtls);
  }

  @Test
  void versionsThatEqualTheUnsetScriptRenderTheSameText() {
    // Upstream's v2 TiDB and TiCDC scripts and v2 TiFlash start script are what the unset version
    // renders; TiProxy has one script for every version.
    for (String component : List.of("tidb", "ticdc", "tiflash", "tiproxy")) {
      assertEquals(script(component, in(fixtureOf(component), "")),
          script(component, in(fixtureOf(component), "v2")), component);
    }
    assertEquals(script("tiproxy", cluster("")), script("tiproxy", cluster("v1")));
    assertEquals(script("tiproxy", cluster("")), script("tiproxy", cluster("v2", "BashShebang")));
    assertTrue(script("pd", cluster("v2", "BashShebang")).startsWith("#!/bin/bash\n"));
    // Only PD reads BashShebang, as upstream's.
    for (String component : List.of("tidb", "ticdc")) {
      assertEquals(script(component, cluster("")), script(component, cluster("v2", "BashShebang")), component);
    }
    for (String component : List.of("tikv", "pump")) {
      assertEquals(script(component, cluster("v2")), script(component, cluster("v2", "BashShebang")), component);
    }
    assertTrue(script("pd", cluster("v1", "BashShebang")).startsWith("#!/bin/sh\n"),
        "v1 reads no feature flag");
    assertEquals(script("pd", cluster("v1")), script("pd", cluster("v1", "NoWaitDNS", "BashShebang")));
  }

  // ---- PD ----

  private ScriptRunner pd(String dir) throws IOException {
    Path d = tmp.resolve(dir);
    ScriptRunner r = new ScriptRunner(d, Map.of(
        "/var/lib/pd", d.resolve("data").toString(),
        "exec /pd-server", "exec " + d.resolve("pd-server")));
    r.server("/pd-server");
    r.stub("sleep", "echo \"$@\" >> " + d.resolve("sleep.log"));
    r.stub("wget", "echo \"$@\" >> " + d.resolve("wget.log")
        + "; echo '--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380'");
    return r;
  }

  /** A stub whose n-th call runs {@code bodies[n-1]} (the last one from then on), logging its arguments. */
  private static void sequence(ScriptRunner r, String name, String... bodies) throws IOException {
    Path count = r.dir.resolve(name + ".count");
    StringBuilder b = new StringBuilder("echo \"$@\" >> " + r.dir.resolve(name + ".log") + "\n"
        + "n=$(cat " + count + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + count + "\ncase $n in\n");
    for (int i = 0; i < bodies.length - 1; i++) {
      b.append(i + 1).append(") ").append(bodies[i]).append(" ;;\n");
    }
    b.append("*) ").append(bodies[bodies.length - 1]).append(" ;;\nesac");
    r.stub(name, b.toString());
  }

  private static List<String> lines(ScriptRunner r, String log) throws IOException {
    Path p = r.dir.resolve(log);
    return Files.exists(p) ? Files.readAllLines(p) : List.of();
  }

  private static List<String> pdArgs(ScriptRunner r, ScriptRunner.Result res) {
    return res.args().stream().map(a -> a.replace(r.dir.resolve("data").toString(), "/var/lib/pd")).toList();
  }

  private static final List<String> PD_FLAGS = List.of("--data-dir=/var/lib/pd", "--name=basic-pd-0",
      "--peer-urls=http://0.0.0.0:2380", "--advertise-peer-urls=http://basic-pd-0.basic-pd-peer.default.svc:2380",
      "--client-urls=http://0.0.0.0:2379", "--advertise-client-urls=http://basic-pd-0.basic-pd-peer.default.svc:2379",
      "--config=/etc/pd/pd.toml");

  private static List<String> plus(List<String> a, String... more) {
    List<String> all = new ArrayList<>(a);
    all.addAll(List.of(more));
    return all;
  }

  @Test
  void pdV1WaitsForNslookupThenAsksDiscoveryUnderSvc() throws Exception {
    ScriptRunner r = pd("a");
    sequence(r, "nslookup", "exit 1", "exit 1", "exit 0");
    ScriptRunner.Result res = r.run(script("pd", cluster("v1")), Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(plus(PD_FLAGS, "--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380"),
        pdArgs(r, res));
    assertEquals(List.of("basic-pd-0.basic-pd-peer.default.svc", "basic-pd-0.basic-pd-peer.default.svc",
        "basic-pd-0.basic-pd-peer.default.svc"), lines(r, "nslookup.log"));
    String url = lines(r, "wget.log").get(0).split(" ")[3];
    String prefix = "http://basic-discovery.default.svc:10261/new/";
    assertTrue(url.startsWith(prefix), url);
    assertEquals("basic-pd-0.basic-pd-peer.default.svc:2380",
        new String(Base64.getDecoder().decode(url.substring(prefix.length())), StandardCharsets.UTF_8));
    List<String> sleeps = lines(r, "sleep.log");
    assertEquals(List.of("1", "1", "1"), sleeps.subList(0, 3), "a second before each lookup");
    int jitter = Integer.parseInt(sleeps.get(sleeps.size() - 1));
    assertTrue(jitter >= 0 && jitter < 10, "jitter " + jitter);
  }

  @Test
  void pdV1GivesUpAfterStartTimeout() throws Exception {
    ScriptRunner r = pd("a");
    r.stub("nslookup", "echo x >> " + r.dir.resolve("nslookup.log") + "; exit 1");
    TidbCluster tc = cluster("v1");
    tc.getSpec().getPd().setStartTimeout(3);
    ScriptRunner.Result res = r.run(script("pd", tc), Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(1, res.exit(), res.output());
    assertTrue(res.output().contains("waiting for pd cluster ready timeout"), res.output());
    assertEquals(2, lines(r, "nslookup.log").size(), "looked up after 1 s and 2 s, gave up at 3 s");
    assertTrue(res.args().isEmpty());
  }

  @Test
  void pdV1WithStartUpScriptVersionV1AsksDigAndNeedsAnAnswer() throws Exception {
    for (String version : List.of("v1", "")) {
      ScriptRunner r = pd("d" + version);
      r.stub("nslookup", "echo called >> " + r.dir.resolve("nslookup.log") + "; exit 0");
      // dig: fails, then answers nothing, then an address.
      sequence(r, "dig", "echo ';; connection timed out'; exit 9", "exit 0", "echo 10.0.0.5");
      TidbCluster tc = cluster(version);
      tc.getSpec().getPd().setStartUpScriptVersion("v1");
      ScriptRunner.Result res = r.run(script("pd", tc), Map.of("POD_NAME", "basic-pd-0"));
      assertEquals(0, res.exit(), res.output());
      assertEquals(3, lines(r, "dig.log").size(), version);
      assertEquals("basic-pd-0.basic-pd-peer.default.svc A basic-pd-0.basic-pd-peer.default.svc AAAA +search +short",
          lines(r, "dig.log").get(0));
      assertTrue(lines(r, "nslookup.log").isEmpty(), version);
    }
  }

  @Test
  void pdV1AndV2HonourAJoinFileAndExistingData() throws Exception {
    for (String version : List.of("v1", "v2")) {
      ScriptRunner r = pd("j" + version);
      r.stub("dig", "echo 10.0.0.5");
      Files.createDirectories(r.dir.resolve("data"));
      Files.writeString(r.dir.resolve("data/join"), "basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380,"
          + "basic-pd-1=http://basic-pd-1.basic-pd-peer.default.svc:2380");
      ScriptRunner.Result res = r.run(script("pd", cluster(version)), Map.of("POD_NAME", "basic-pd-0"));
      assertEquals(0, res.exit(), res.output());
      assertEquals(plus(PD_FLAGS, "--join=http://basic-pd-0.basic-pd-peer.default.svc:2380,"
          + "http://basic-pd-1.basic-pd-peer.default.svc:2380"), pdArgs(r, res), version);
      assertTrue(lines(r, "wget.log").isEmpty(), version + ": no discovery call");

      ScriptRunner restart = pd("w" + version);
      restart.stub("dig", "echo 10.0.0.5");
      Files.createDirectories(restart.dir.resolve("data/member/wal"));
      res = restart.run(script("pd", cluster(version)), Map.of("POD_NAME", "basic-pd-0"));
      assertEquals(PD_FLAGS, pdArgs(restart, res), version + ": a restart needs no flag");
      assertTrue(lines(restart, "wget.log").isEmpty());
    }
  }

  @Test
  void pdV2WaitsForDigThenAsksDiscovery() throws Exception {
    ScriptRunner r = pd("a");
    r.stub("nslookup", "exit 1");
    sequence(r, "dig", "exit 0", "echo 10.0.0.5");
    ScriptRunner.Result res = r.run(script("pd", cluster("v2")), Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(2, lines(r, "dig.log").size());
    assertEquals(plus(PD_FLAGS, "--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380"),
        pdArgs(r, res));
    assertTrue(lines(r, "wget.log").get(0).contains("http://basic-discovery.default:10261/new/"),
        "v2 asks discovery without .svc");
  }

  @Test
  void pdV2WithDnsIpMatchSleepsInitWaitTimeThenWaitsForItsOwnAddress() throws Exception {
    ScriptRunner r = pd("a");
    sequence(r, "dig", "echo 10.0.0.9", "printf '10.0.0.9\\nfd00::5\\n'");
    r.stub("hostname", "[ \"$1\" = -I ] && echo '10.0.0.5 fd00::5 '");
    TidbCluster tc = cluster("v2", "WaitForDnsNameIpMatch");
    tc.getSpec().getPd().setInitWaitTime(7);
    ScriptRunner.Result res = r.run(script("pd", tc), Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(2, lines(r, "dig.log").size(), "the first answer is not the pod's address");
    assertEquals("7", lines(r, "sleep.log").get(0), "spec.pd.initWaitTime first");
    assertTrue(res.output().contains("resolves to one of the pod's addresses"), res.output());
  }

  @Test
  void pdV2WithDnsIpMatchGivesUpWhenTheAddressNeverMatches() throws Exception {
    ScriptRunner r = pd("a");
    r.stub("dig", "echo 10.0.0.9");
    r.stub("hostname", "echo 10.0.0.5");
    TidbCluster tc = cluster("v2", "WaitForDnsNameIpMatch");
    tc.getSpec().getPd().setStartTimeout(4);
    ScriptRunner.Result res = r.run(script("pd", tc), Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(1, res.exit(), res.output());
    assertTrue(res.output().contains("waiting for cluster ready timeout"), res.output());
  }

  @Test
  void pdV2WithNoWaitDnsStartsWithoutLookingUpEvenWithDnsIpMatch() throws Exception {
    ScriptRunner r = pd("a");
    r.stub("dig", "echo called >> " + r.dir.resolve("dig.log") + "; exit 9");
    r.stub("nslookup", "echo called >> " + r.dir.resolve("dig.log") + "; exit 1");
    ScriptRunner.Result res = r.run(script("pd", cluster("v2", "NoWaitDNS", "WaitForDnsNameIpMatch")),
        Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertTrue(lines(r, "dig.log").isEmpty());
    assertEquals(8, res.args().size());
  }

  @Test
  void pdV2PreferringPdAddressesJoinsTheirPeerUrlsInsteadOfTheJoinFileOrDiscovery() throws Exception {
    ScriptRunner r = pd("a");
    r.stub("dig", "echo 10.0.0.5");
    Files.createDirectories(r.dir.resolve("data"));
    Files.writeString(r.dir.resolve("data/join"), "basic-pd-1=http://basic-pd-1.basic-pd-peer.default.svc:2380");
    TidbCluster tc = cluster("v2", "PreferPDAddressesOverDiscovery");
    tc.getSpec().setPdAddresses(List.of("http://pd-a.example:2379", "https://pd-b.example"));
    ScriptRunner.Result res = r.run(script("pd", tc), Map.of("POD_NAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(plus(PD_FLAGS, "--join=http://pd-a.example:2380,http://pd-b.example:2380"), pdArgs(r, res),
        "the cluster's scheme and PD's peer port, as upstream's");
    assertTrue(lines(r, "wget.log").isEmpty());

    // Without spec.pdAddresses the flag changes nothing.
    ScriptRunner plain = pd("b");
    plain.stub("dig", "echo 10.0.0.5");
    assertEquals(script("pd", cluster("v2")), script("pd", cluster("v2", "PreferPDAddressesOverDiscovery")));
  }

  // ---- TiKV ----

  private ScriptRunner server(String dir, String binary) throws IOException {
    Path d = tmp.resolve(dir);
    ScriptRunner r = new ScriptRunner(d, Map.of("exec " + binary, "exec " + d.resolve(binary.substring(1))));
    r.server(binary);
    r.stub("sleep", "echo \"$@\" >> " + d.resolve("sleep.log"));
    return r;
  }

  private static final Map<String, String> TIKV_ENV =
      Map.of("POD_NAME", "basic-tikv-0", "CAPACITY", "10GB", "STORE_LABELS", "zone=a");

  @Test
  void tikvV1PassesPdWithItsScheme() throws Exception {
    ScriptRunner r = server("a", "/tikv-server");
    ScriptRunner.Result res = r.run(script("tikv", cluster("v1")), TIKV_ENV);
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("--pd=http://basic-pd:2379", "--advertise-addr=basic-tikv-0.basic-tikv-peer.default.svc:20160",
        "--addr=0.0.0.0:20160", "--status-addr=0.0.0.0:20180",
        "--advertise-status-addr=basic-tikv-0.basic-tikv-peer.default.svc:20180", "--data-dir=/var/lib/tikv",
        "--capacity=10GB", "--config=/etc/tikv/tikv.toml", "--labels", "zone=a"), res.args());
  }

  @Test
  void tikvV1AcrossKubernetesAsksDiscoveryWithTheSchemeAndKeepsTheAnswer() throws Exception {
    ScriptRunner r = server("a", "/tikv-server");
    r.stub("wget", "echo \"$@\" >> " + r.dir.resolve("wget.log")
        + "; echo 'http://basic-pd:2379,http://basic-pd-0.basic-pd-peer.other.svc:2379'");
    TidbCluster tc = cluster("v1");
    tc.getSpec().setAcrossK8s(true);
    ScriptRunner.Result res = r.run(script("tikv", tc), TIKV_ENV);
    assertEquals(0, res.exit(), res.output());
    assertEquals("--pd=http://basic-pd:2379,http://basic-pd-0.basic-pd-peer.other.svc:2379", res.args().get(0));
    String url = lines(r, "wget.log").get(0).split(" ")[3];
    assertEquals("http://basic-pd:2379", new String(Base64.getDecoder().decode(
        url.substring("http://basic-discovery.default:10261/verify/".length())), StandardCharsets.UTF_8));
  }

  @Test
  void tikvV2PassesPdWithoutSchemeAndTheStatusAddressLast() throws Exception {
    ScriptRunner r = server("a", "/tikv-server");
    TidbCluster tc = cluster("v2");
    tls(tc, false);
    ScriptRunner.Result res = r.run(script("tikv", tc), TIKV_ENV);
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("--pd=basic-pd:2379", "--advertise-addr=basic-tikv-0.basic-tikv-peer.default.svc:20160",
        "--addr=0.0.0.0:20160", "--status-addr=0.0.0.0:20180", "--data-dir=/var/lib/tikv", "--capacity=10GB",
        "--config=/etc/tikv/tikv.toml", "--advertise-status-addr=basic-tikv-0.basic-tikv-peer.default.svc:20180",
        "--labels", "zone=a"), res.args(), "no scheme even with cluster TLS");
    assertFalse(Files.exists(r.dir.resolve("sleep.log")), "no DNS wait without WaitForDnsNameIpMatch");
  }

  @Test
  void tikvV2WithDnsIpMatchWaitsUntilGetentFindsThePodAddress() throws Exception {
    for (String[] flags : List.of(new String[] {"WaitForDnsNameIpMatch"},
        new String[] {"WaitForDnsNameIpMatch", "NoWaitDNS"})) {
      ScriptRunner r = server("m" + flags.length, "/tikv-server");
      sequence(r, "getent", "exit 2", "echo '10.0.0.9      STREAM basic-tikv-0.basic-tikv-peer.default.svc'",
          "printf '10.0.0.5      STREAM basic-tikv-0.basic-tikv-peer.default.svc\\n10.0.0.5      DGRAM\\n'");
      r.stub("hostname", "[ \"$1\" = -I ] && echo '10.0.0.5'");
      ScriptRunner.Result res = r.run(script("tikv", cluster("v2", flags)), TIKV_ENV);
      assertEquals(0, res.exit(), res.output());
      assertEquals(3, lines(r, "getent.log").size(), "NoWaitDNS does not stop TiKV's wait, as upstream's");
      assertEquals("ahosts basic-tikv-0.basic-tikv-peer.default.svc", lines(r, "getent.log").get(0));
      assertEquals("--pd=basic-pd:2379", res.args().get(0));
    }
    ScriptRunner r = server("t", "/tikv-server");
    r.stub("getent", "exit 2");
    TidbCluster tc = cluster("v2", "WaitForDnsNameIpMatch");
    tc.getSpec().getPd().setStartTimeout(3);
    ScriptRunner.Result res = r.run(script("tikv", tc), TIKV_ENV);
    assertEquals(1, res.exit(), res.output());
    assertTrue(res.output().contains("waiting for cluster ready timeout"), res.output());
    assertEquals(List.of("1", "1", "1"), lines(r, "sleep.log"), "spec.pd.startTimeout bounds TiKV's wait");
  }

  @Test
  void tikvAndTidbV2PreferringPdAddressesUseTheirHostsAndSkipDiscovery() throws Exception {
    TidbCluster tc = cluster("v2", "PreferPDAddressesOverDiscovery");
    tc.getSpec().setAcrossK8s(true);
    tc.getSpec().setPdAddresses(List.of("http://pd-a.example:2379", "https://pd-b.example:3379"));
    ScriptRunner r = server("a", "/tikv-server");
    r.stub("wget", "echo called >> " + r.dir.resolve("wget.log") + "; exit 1");
    ScriptRunner.Result res = r.run(script("tikv", tc), TIKV_ENV);
    assertEquals(0, res.exit(), res.output());
    assertEquals("--pd=pd-a.example:2379,pd-b.example:2379", res.args().get(0));
    assertTrue(lines(r, "wget.log").isEmpty());

    ScriptRunner t = server("b", "/tidb-server");
    res = t.run(script("tidb", tc), Map.of("POD_NAME", "basic-tidb-0"));
    assertEquals(0, res.exit(), res.output());
    assertTrue(res.args().contains("--path=pd-a.example:2379,pd-b.example:2379"), String.valueOf(res.args()));
  }

  // ---- TiDB ----

  @Test
  void tidbV1ReadsBinlogFromTheEnvAndPassesPluginsAsSeparateWords() throws Exception {
    TidbCluster tc = in("full", "v1");
    for (String binlog : List.of("true", "false")) {
      ScriptRunner r = server("b" + binlog, "/tidb-server");
      ScriptRunner.Result res = r.run(script("tidb", tc), Map.of("POD_NAME", "full-tidb-0",
          "BINLOG_ENABLED", binlog, "SLOW_LOG_FILE", "/var/log/tidb/slowlog"));
      assertEquals(0, res.exit(), res.output());
      List<String> expected = new ArrayList<>(List.of("--store=tikv",
          "--advertise-address=full-tidb-0.full-tidb-peer.prod.svc.cluster.local", "--host=0.0.0.0",
          "--path=full-pd:2379", "--config=/etc/tidb/tidb.toml"));
      if (binlog.equals("true")) {
        expected.add("--enable-binlog=true");
      }
      expected.addAll(List.of("--log-slow-query=/var/log/tidb/slowlog", "--plugin-dir", "/plugins",
          "--plugin-load", "audit,whitelist", "--log-level=warn"));
      assertEquals(expected, res.args(), "BINLOG_ENABLED=" + binlog);
    }
  }

  // ---- TiCDC ----

  @Test
  void ticdcV1HasNoDebugModeAndPutsTlsFlagsBeforePd() throws Exception {
    TidbCluster tc = cluster("v1");
    tls(tc, false);
    ScriptRunner r = server("a", "/cdc");
    Files.writeString(r.dir.resolve("etc/podinfo/annotations"), "runmode=\"debug\"\n");
    ScriptRunner.Result res = r.run(script("ticdc", tc), Map.of("POD_NAME", "basic-ticdc-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("server", "--addr=0.0.0.0:8301",
        "--advertise-addr=basic-ticdc-0.basic-ticdc-peer.default.svc:8301", "--gc-ttl=86400",
        "--log-file=/dev/stderr", "--log-level=info", "--ca=/var/lib/ticdc-tls/ca.crt",
        "--cert=/var/lib/ticdc-tls/tls.crt", "--key=/var/lib/ticdc-tls/tls.key", "--pd=https://basic-pd:2379"),
        res.args(), "started although runmode=debug");
  }

  @Test
  void ticdcV2PreferringPdAddressesPassesThemAsWritten() throws Exception {
    TidbCluster tc = cluster("v2", "PreferPDAddressesOverDiscovery");
    tc.getSpec().setPdAddresses(List.of("http://pd-a.example:2379", "https://pd-b.example:3379"));
    ScriptRunner r = server("a", "/cdc");
    ScriptRunner.Result res = r.run(script("ticdc", tc), Map.of("POD_NAME", "basic-ticdc-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals("--pd=http://pd-a.example:2379,https://pd-b.example:3379", res.args().get(res.args().size() - 1));
  }

  // ---- Pump ----

  private ScriptRunner pump(String dir, String body) throws IOException {
    Path d = tmp.resolve(dir);
    Path bin = d.resolve("pump");
    ScriptRunner r = new ScriptRunner(d, Map.of("\n/pump ${ARGS}", "\n" + bin + " ${ARGS}",
        "exec /pump", "exec " + bin));
    Files.writeString(bin, "#!/bin/sh\nfor a in \"$@\"; do echo \"ARG $a\"; done\n" + body + "\n");
    bin.toFile().setExecutable(true);
    r.stub("tail", "echo IDLE >> " + d.resolve("tail.log"));
    return r;
  }

  @Test
  void pumpV1IdlesAfterGoingOfflineAndExitsWithPumpsCode() throws Exception {
    TidbCluster tc = cluster("v1");
    tc.getSpec().setAcrossK8s(true);
    tc.getSpec().setClusterDomain("");
    ScriptRunner r = pump("a", "exit 0");
    r.stub("wget", "echo 'http://basic-pd:2379'");
    Files.writeString(r.dir.resolve("etc/podinfo/annotations"), "runmode=\"debug\"\n");
    ScriptRunner.Result res = r.run(script("pump", tc), Map.of("HOSTNAME", "basic-pump-1", "POD_NAME", "basic-pump-1"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("-pd-urls=http://basic-pd:2379", "-L=info",
        "-advertise-addr=basic-pump-1.basic-pump.default.svc:8250", "-config=/etc/pump/pump.toml",
        "-data-dir=/data", "-log-file="), res.args(), "started although runmode=debug");
    assertTrue(res.output().contains("pump offline, please delete my pod"), res.output());
    assertEquals(List.of("IDLE"), lines(r, "tail.log"));

    ScriptRunner failing = pump("b", "exit 3");
    res = failing.run(script("pump", cluster("v1")), Map.of("HOSTNAME", "basic-pump-0"));
    assertEquals(3, res.exit(), res.output());
    assertTrue(lines(failing, "tail.log").isEmpty());
  }

  @Test
  void pumpV2ExecsPumpSoNothingIdlesAfterIt() throws Exception {
    ScriptRunner r = pump("a", "exit 0");
    ScriptRunner.Result res = r.run(script("pump", cluster("v2")), Map.of("HOSTNAME", "basic-pump-0", "POD_NAME", "basic-pump-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("-pd-urls=http://basic-pd:2379", "-L", "info", "-log-file=",
        "-advertise-addr=basic-pump-0.basic-pump:8250", "-data-dir=/data", "--config=/etc/pump/pump.toml"),
        res.args());
    assertTrue(lines(r, "tail.log").isEmpty());
  }

  // ---- TiFlash ----

  private int runInit(String script, Path dir, String podName) throws Exception {
    String local = script.replace("/etc/tiflash", dir.resolve("etc").toString())
        .replace("/data0/", dir.resolve("data0") + "/");
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", local).redirectErrorStream(true);
    pb.environment().put("POD_NAME", podName);
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    return p.exitValue();
  }

  @Test
  void tiflashInitV1FailsOnAMissingTemplateWhileV2FailsOnlyOnTheLastOne() throws Exception {
    for (String version : List.of("", "v1", "v2")) {
      Path d = tmp.resolve("i" + version);
      Files.createDirectories(d.resolve("etc"));
      Files.createDirectories(d.resolve("data0"));
      Files.writeString(d.resolve("etc/proxy_templ.toml"), "engine-addr = \"flash-tiflash-POD_NUM\"\n");
      int code = runInit(script("tiflash-init", in("tiflash", version)), d, "flash-tiflash-4");
      if (version.equals("v2")) {
        assertEquals(0, code, "upstream's v2 init has no set -e");
        assertEquals("engine-addr = \"flash-tiflash-4\"\n", Files.readString(d.resolve("data0/proxy.toml")));
      } else {
        assertNotEquals(0, code, "version " + version);
        assertFalse(Files.exists(d.resolve("data0/proxy.toml")), "stopped at the missing config template");
      }
    }
  }

  @Test
  void tiflashStartV1HasNoDebugMode() throws Exception {
    for (String version : List.of("v1", "v2")) {
      ScriptRunner r = server("s" + version, "/tiflash/tiflash");
      r.stub("tail", "echo IDLE; exit 0");
      Files.writeString(r.dir.resolve("etc/podinfo/annotations"), "runmode=\"debug\"\n");
      ScriptRunner.Result res = r.run(script("tiflash", in("tiflash", version)), Map.of("POD_NAME", "flash-tiflash-0"));
      assertEquals(0, res.exit(), res.output());
      assertEquals(List.of("server", "--config-file", "/data0/config.toml"), res.args(), version);
      assertEquals(version.equals("v2"), res.output().contains("IDLE"), version + ": debug mode");
    }
  }
}
