package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.controller.monitor.MonitorManifests.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every generated configuration, as Prometheus reads it (placeholders expanded), passes the real
 * {@code promtool check config}: one per upstream manifest, plus TLS, shards and remote-write.
 */
class PromtoolCheckConfigIT {

  @TempDir Path dir;

  static Stream<Manifest> manifests() {
    return MonitorManifests.all().stream();
  }

  /** As the pod has it: the operator's rules beside the configuration, where the ConfigMap is mounted. */
  private void assertPasses(String yaml, String what) throws Exception {
    Path file = dir.resolve("prometheus.yml");
    Path rules = dir.resolve(OperatorAlertRules.FILE_NAME);
    Files.writeString(rules, PrometheusConfigYaml.render(OperatorAlertRules.rules()));
    Files.writeString(file, Promtool.expand(yaml.replace(OperatorAlertRules.PATH, rules.toString()),
        "ns", "basic-monitor-0", 0));
    Promtool.Result r = Promtool.run("check", "config", file.toString());
    assertEquals(0, r.exit(), () -> what + ": promtool check config failed:\n" + r.output() + "\n" + yaml);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("manifests")
  void everyManifestsConfigurationPasses(Manifest m) throws Exception {
    TidbMonitor tm = m.monitor();
    String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
        tm, MonitorManifests.clusters(tm), MonitorManifests.dmClusters(tm)));
    assertPasses(yaml, m.file());
  }

  @Test
  void aTlsClusterConfigurationPassesWithItsCertificateFiles() throws Exception {
    TidbMonitor tm = MonitorManifests.named("basic-tls__tidb-monitor.yaml");
    String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
        tm, List.of(new MonitoredCluster("ns", "basic-tls", true)), List.of()));
    // promtool checks that certificate files exist: the monitor pod mounts them at TLS_ASSETS_PATH.
    Path assets = Files.createDirectories(dir.resolve("assets"));
    for (String key : List.of("ca.crt", "tls.crt", "tls.key")) {
      Files.writeString(assets.resolve(PrometheusConfigGenerator.tlsAssetKey(
          "ns", "basic-tls-cluster-client-secret", key)), "");
    }
    String local = yaml.replace(PrometheusConfigGenerator.TLS_ASSETS_PATH, assets.toString());
    assertTrue(local.contains("scheme: https"));
    assertPasses(local, "TLS");
  }

  @Test
  void aShardedConfigurationPassesForEveryShard() throws Exception {
    TidbMonitor tm = MonitorManifests.named("monitor-shards__tidb-monitor.yaml");
    String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
        tm, MonitorManifests.clusters(tm), List.of()));
    for (int shard = 0; shard < 2; shard++) {
      Path file = dir.resolve("shard-" + shard + ".yml");
      Files.writeString(file, Promtool.expand(yaml, "ns", "basic-monitor-0", shard));
      Promtool.Result r = Promtool.run("check", "config", file.toString());
      assertEquals(0, r.exit(), r.output());
    }
  }

  @Test
  void remoteWriteWithEveryOptionPasses() throws Exception {
    TidbMonitor tm = MonitorManifests.named("monitor-prom-remotewrite__tidb-monitor.yaml");
    var rw = tm.getSpec().getPrometheus().getRemoteWrite().get(0);
    rw.setName("thanos");
    rw.setRemoteTimeout("10s");
    rw.setHeaders(java.util.Map.of("X-Scope-OrgID", "tidb"));
    rw.setBearerToken("t0ken");
    rw.getQueueConfig().setBatchSendDeadline(5_000_000_000L);
    rw.getQueueConfig().setMinBackoff(30_000_000L);
    rw.getQueueConfig().setMaxBackoff(100_000_000_000L);
    rw.getQueueConfig().setMinShards(1);
    rw.getQueueConfig().setCapacity(2500);
    rw.getQueueConfig().setMaxRetries(3);
    var relabel = new io.tidb.operator.api.v1alpha1.monitor.RelabelConfig();
    relabel.setSourceLabels(List.of("__name__"));
    relabel.setRegex("go_.*");
    relabel.setAction("drop");
    rw.setWriteRelabelConfigs(List.of(relabel));
    tm.getSpec().setAlertmanagerURL("alertmanager.monitoring:9093");
    tm.getSpec().setExternalLabels(java.util.Map.of("region", "eu"));
    String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
        tm, MonitorManifests.clusters(tm), List.of()));
    assertTrue(yaml.contains("batch_send_deadline: 5s"), yaml);
    assertTrue(yaml.contains("min_backoff: 30ms"), yaml);
    assertPasses(yaml, "remote write");
  }

  @Test
  void remoteWriteCredentialsFromSecretsPassAsFilesForOldAndNewPrometheus() throws Exception {
    Path assets = Files.createDirectories(dir.resolve("rw-assets"));
    for (RemoteWriteSecrets.Item item : RemoteWriteSecrets.Item.values()) {
      Files.writeString(assets.resolve(RemoteWriteSecrets.assetKey(0, item)), "");
    }
    for (String version : List.of("v2.27.1", "v2.53.4")) {
      TidbMonitor tm = MonitorManifests.named("monitor-prom-remotewrite__tidb-monitor.yaml");
      tm.getSpec().getPrometheus().setVersion(version);
      var rw = tm.getSpec().getPrometheus().getRemoteWrite().get(0);
      var auth = new io.tidb.operator.api.v1alpha1.monitor.BasicAuth();
      auth.setUsername(new io.fabric8.kubernetes.api.model.SecretKeySelector("u", "auth", null));
      auth.setPassword(new io.fabric8.kubernetes.api.model.SecretKeySelector("p", "auth", null));
      rw.setBasicAuth(auth);
      var tls = new io.tidb.operator.api.v1alpha1.monitor.TlsConfig();
      var ca = new io.tidb.operator.api.v1alpha1.monitor.SecretOrConfigMap();
      ca.setSecret(new io.fabric8.kubernetes.api.model.SecretKeySelector("ca.crt", "client", null));
      tls.setCa(ca);
      var cert = new io.tidb.operator.api.v1alpha1.monitor.SecretOrConfigMap();
      cert.setSecret(new io.fabric8.kubernetes.api.model.SecretKeySelector("tls.crt", "client", null));
      tls.setCert(cert);
      tls.setKeySecret(new io.fabric8.kubernetes.api.model.SecretKeySelector("tls.key", "client", null));
      tls.setServerName("remote.example");
      rw.setTlsConfig(tls);
      boolean file = PrometheusConfigGenerator.readsUsernameFile(tm.getSpec());
      var copied = new RemoteWriteSecrets.Copied(java.util.Map.of(), java.util.Set.of(),
          file ? java.util.Map.of() : java.util.Map.of(0, "tidb"));
      String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
          tm, MonitorManifests.clusters(tm), List.of(), copied));
      assertTrue(yaml.contains(file ? "username_file:" : "username: tidb"), yaml);
      assertTrue(yaml.contains("password_file:"), yaml);
      assertPasses(yaml.replace(PrometheusConfigGenerator.TLS_ASSETS_PATH, assets.toString()),
          "remote write with credentials, Prometheus " + version);
    }
  }

  @Test
  void aBrokenConfigurationIsRejectedSoTheCheckCanFail() throws Exception {
    Path file = dir.resolve("broken.yml");
    Files.writeString(file, "scrape_configs:\n- job_name: x\n  relabel_configs:\n  - action: explode\n");
    assertTrue(Promtool.run("check", "config", file.toString()).exit() != 0);
  }
}
