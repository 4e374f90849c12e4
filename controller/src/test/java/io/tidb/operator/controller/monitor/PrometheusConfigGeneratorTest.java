package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusConfigGeneratorTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static JsonNode render(TidbMonitor tm, List<MonitoredCluster> tidb, List<MonitoredCluster> dm)
      throws Exception {
    return YAML.readTree(PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(tm, tidb, dm)));
  }

  private static JsonNode job(JsonNode config, String name) {
    for (JsonNode job : config.get("scrape_configs")) {
      if (name.equals(job.get("job_name").asText())) {
        return job;
      }
    }
    throw new AssertionError("no job " + name + " in " + config);
  }

  private static List<String> jobNames(JsonNode config) {
    List<String> out = new ArrayList<>();
    config.get("scrape_configs").forEach(j -> out.add(j.get("job_name").asText()));
    return out;
  }

  @Test
  void oneJobPerComponentAndClusterInUpstreamOrder() throws Exception {
    TidbMonitor tm = MonitorManifests.named("heterogeneous__tidb-monitor.yaml");
    JsonNode config = render(tm, MonitorManifests.clusters(tm), List.of());
    List<String> expected = new ArrayList<>();
    for (String c : List.of("pd", "tso", "scheduling", "tidb", "tikv", "tiproxy", "tiflash",
        "tiflash-proxy", "pump", "drainer", "ticdc", "lightning")) {
      expected.add("ns-basic-" + c);
      expected.add("ns-basic-heterogeneous-" + c);
    }
    assertEquals(expected, jobNames(config));
  }

  @Test
  void aJobDiscoversPodsInTheClustersNamespaceOnlyAndRelabelsAsUpstream() throws Exception {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    JsonNode pd = job(render(tm, List.of(new MonitoredCluster("db", "basic", false)), List.of()), "db-basic-pd");
    assertEquals("http", pd.get("scheme").asText());
    assertTrue(pd.get("honor_labels").asBoolean());
    assertEquals("pod", pd.at("/kubernetes_sd_configs/0/role").asText());
    assertEquals("db", pd.at("/kubernetes_sd_configs/0/namespaces/names/0").asText());
    assertTrue(pd.at("/tls_config/insecure_skip_verify").asBoolean());
    JsonNode r = pd.get("relabel_configs");
    assertEquals(13, r.size());
    assertKeep(r.get(0), PrometheusConfigGenerator.INSTANCE_LABEL, "basic");
    assertKeep(r.get(1), PrometheusConfigGenerator.NAMESPACE, "db");
    assertKeep(r.get(2), PrometheusConfigGenerator.SCRAPE, "true");
    assertKeep(r.get(3), PrometheusConfigGenerator.COMPONENT_LABEL, "pd");
    assertEquals("__address__", r.get(4).get("target_label").asText());
    assertEquals("$1.$2-pd-peer.$3:$4", r.get(4).get("replacement").asText());
    assertEquals("(.+);(.+);(.+);(.+)", r.get(4).get("regex").asText());
    assertEquals(List.of(PrometheusConfigGenerator.POD_NAME, PrometheusConfigGenerator.INSTANCE_LABEL,
        PrometheusConfigGenerator.NAMESPACE, PrometheusConfigGenerator.PORT), texts(r.get(4).get("source_labels")));
    assertEquals(List.of("kubernetes_namespace", "cluster", "instance", "component", "tidb_cluster",
        "__metrics_path__", "__tmp_hash"),
        List.of(r.get(5), r.get(6), r.get(7), r.get(8), r.get(9), r.get(10), r.get(11)).stream()
            .map(n -> n.get("target_label").asText()).toList());
    assertEquals("-", r.get(9).get("separator").asText());
    assertEquals("hashmod", r.get(11).get("action").asText());
    assertEquals(1, r.get(11).get("modulus").asInt());
    assertKeep(r.get(12), "__tmp_hash", "$(SHARD)");
  }

  private static void assertKeep(JsonNode rule, String label, String regex) {
    assertEquals("keep", rule.get("action").asText());
    assertEquals(List.of(label), texts(rule.get("source_labels")));
    assertEquals(regex, rule.get("regex").asText());
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void specialAddresses() throws Exception {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    JsonNode config = render(tm, List.of(new MonitoredCluster("ns", "basic", false)), List.of());
    assertEquals("$1.$2-pump.$3:$4", job(config, "ns-basic-pump").at("/relabel_configs/4/replacement").asText());
    assertEquals("$1.$2.$3:$4", job(config, "ns-basic-drainer").at("/relabel_configs/4/replacement").asText());
    assertEquals(PrometheusConfigGenerator.NAME_LABEL,
        job(config, "ns-basic-drainer").at("/relabel_configs/4/source_labels/1").asText());
    assertEquals("$2.$3:$4", job(config, "ns-basic-lightning").at("/relabel_configs/4/replacement").asText());
    assertEquals("tidb-lightning", job(config, "ns-basic-lightning").at("/relabel_configs/3/regex").asText());
    JsonNode proxy = job(config, "ns-basic-tiflash-proxy");
    assertEquals("tiflash", proxy.at("/relabel_configs/3/regex").asText());
    assertEquals("$1.$2-tiflash-peer.$3:$4", proxy.at("/relabel_configs/4/replacement").asText());
    assertEquals(PrometheusConfigGenerator.TIFLASH_PROXY_PORT, proxy.at("/relabel_configs/4/source_labels/3").asText());
  }

  @Test
  void tlsClustersUseTheirClientCertificateExceptTiproxyAndLightning() throws Exception {
    TidbMonitor tm = MonitorManifests.named("basic-tls__tidb-monitor.yaml");
    JsonNode config = render(tm, List.of(new MonitoredCluster("ns", "basic-tls", true)), List.of());
    JsonNode tikv = job(config, "ns-basic-tls-tikv");
    assertEquals("https", tikv.get("scheme").asText());
    String base = PrometheusConfigGenerator.TLS_ASSETS_PATH + "/secret_ns_basic-tls-cluster-client-secret_";
    assertEquals(base + "ca.crt", tikv.at("/tls_config/ca_file").asText());
    assertEquals(base + "tls.crt", tikv.at("/tls_config/cert_file").asText());
    assertEquals(base + "tls.key", tikv.at("/tls_config/key_file").asText());
    JsonNode tiproxy = job(config, "ns-basic-tls-tiproxy");
    assertEquals("https", tiproxy.get("scheme").asText());
    assertTrue(tiproxy.at("/tls_config/insecure_skip_verify").asBoolean());
    assertTrue(tiproxy.at("/tls_config/cert_file").isMissingNode());
  }

  @Test
  void dmJobsUseTheDmClustersAndTheirSecret() throws Exception {
    TidbMonitor tm = MonitorManifests.named("dm__dm-monitor.yaml");
    JsonNode config = render(tm, List.of(), List.of(new MonitoredCluster("ns", "basic", true)));
    assertEquals(List.of("ns-basic-dm-worker", "ns-basic-dm-master"), jobNames(config));
    assertEquals("$1.$2-dm-master-peer.$3:$4", job(config, "ns-basic-dm-master").at("/relabel_configs/4/replacement").asText());
    assertTrue(job(config, "ns-basic-dm-worker").at("/tls_config/ca_file").asText()
        .endsWith("secret_ns_basic-dm-client-secret_ca.crt"));
  }

  @Test
  void shardsSetTheHashModulus() throws Exception {
    TidbMonitor tm = MonitorManifests.named("monitor-shards__tidb-monitor.yaml");
    JsonNode pd = job(render(tm, MonitorManifests.clusters(tm), List.of()), "ns-basic-pd");
    assertEquals(2, pd.at("/relabel_configs/11/modulus").asInt());
  }

  @Test
  void externalLabelsReplicaByDefaultNoneWhenEmptyAndTheSpecsAdded() throws Exception {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    assertEquals(Map.of("prometheus_replica", "$(NAMESPACE)_$(POD_NAME)"),
        PrometheusConfigGenerator.externalLabels(tm.getSpec()));
    tm.getSpec().setReplicaExternalLabelName("");
    tm.getSpec().setExternalLabels(Map.of("env", "prod"));
    assertEquals(Map.of("env", "prod"), PrometheusConfigGenerator.externalLabels(tm.getSpec()));
    tm.getSpec().setReplicaExternalLabelName("replica");
    JsonNode global = render(tm, List.of(), List.of()).get("global");
    assertEquals("$(NAMESPACE)_$(POD_NAME)", global.at("/external_labels/replica").asText());
    assertEquals("15s", global.get("scrape_interval").asText());
    assertEquals("15s", global.get("evaluation_interval").asText());
  }

  @Test
  void alertmanagerAndRuleFilesAsUpstream() throws Exception {
    TidbMonitor tm = MonitorManifests.named("gcp__tidb-monitor.yaml");
    JsonNode none = render(tm, List.of(), List.of());
    assertTrue(none.path("alerting").isMissingNode(), "an empty alertmanagerURL adds nothing");
    assertTrue(none.path("rule_files").isMissingNode());
    tm.getSpec().setEnableAlertRules(true);
    assertEquals("/prometheus-rules/rules/*.rules.yml", render(tm, List.of(), List.of()).at("/rule_files/0").asText());
    tm.getSpec().setAlertmanagerURL("am:9093");
    JsonNode am = render(tm, List.of(), List.of());
    assertEquals("am:9093", am.at("/alerting/alertmanagers/0/static_configs/0/targets/0").asText());
    var ref = new io.tidb.operator.api.v1alpha1.monitor.ConfigMapRef();
    ref.setName("rules");
    var cfg = new io.tidb.operator.api.v1alpha1.monitor.PrometheusConfiguration();
    cfg.setRuleConfigRef(ref);
    tm.getSpec().getPrometheus().setConfig(cfg);
    assertEquals("/prometheus-external-rules/*.rules.yml", render(tm, List.of(), List.of()).at("/rule_files/0").asText());
  }

  @Test
  void remoteWriteFollowsThePrometheusVersion() throws Exception {
    TidbMonitor tm = MonitorManifests.named("monitor-prom-remotewrite__tidb-monitor.yaml");
    tm.getSpec().getPrometheus().getRemoteWrite().get(0).setName("q");
    tm.getSpec().getPrometheus().getRemoteWrite().get(0).getQueueConfig().setMinShards(2);
    tm.getSpec().getPrometheus().getRemoteWrite().get(0).getQueueConfig().setMaxRetries(3);
    JsonNode rw = render(tm, List.of(), List.of()).at("/remote_write/0");
    assertEquals("http://thanos-receiver-0.thanos-receiver.default.svc:19291/api/v1/receive", rw.get("url").asText());
    assertEquals("30s", rw.get("remote_timeout").asText());
    assertEquals("q", rw.get("name").asText());
    assertEquals(100, rw.at("/queue_config/max_samples_per_send").asInt());
    assertEquals(100, rw.at("/queue_config/max_shards").asInt());
    assertEquals(2, rw.at("/queue_config/min_shards").asInt());
    assertEquals("10s", rw.at("/metadata_config/send_interval").asText());
    assertTrue(rw.at("/queue_config/max_retries").isMissingNode(), "removed in Prometheus 2.11");
    tm.getSpec().getPrometheus().setVersion("v2.22.0");
    JsonNode old = render(tm, List.of(), List.of()).at("/remote_write/0");
    assertTrue(old.path("name").isMissingNode(), "name needs 2.25");
    assertTrue(old.path("metadata_config").isMissingNode(), "metadata_config needs 2.23");
    assertEquals(2, old.at("/queue_config/min_shards").asInt());
    tm.getSpec().getPrometheus().setVersion("v2.10.0");
    assertEquals(3, render(tm, List.of(), List.of()).at("/remote_write/0/queue_config/max_retries").asInt());
  }

  @Test
  void durationsAndVersions() {
    assertEquals("5s", PrometheusConfigGenerator.duration(5_000_000_000L));
    assertEquals("1500ms", PrometheusConfigGenerator.duration(1_500_000_000L));
    assertNull(PrometheusConfigGenerator.duration(0L));
    assertEquals(2, PrometheusConfigGenerator.version("v2.27.1")[0]);
    assertEquals(27, PrometheusConfigGenerator.version("v2.27.1")[1]);
    assertEquals(Integer.MAX_VALUE, PrometheusConfigGenerator.version("latest")[0]);
  }

  @Test
  void noReferencedClusterGivesNoJobs() throws Exception {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    assertTrue(render(tm, List.of(), List.of()).path("scrape_configs").isMissingNode());
  }
}
