package io.tidb.operator.api.validation.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class TidbMonitorValidatorTest {

  private static TidbMonitor monitor(String specYaml) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbMonitor
        metadata: {name: m, namespace: ns}
        spec:
        """ + specYaml.indent(2), TidbMonitor.class);
  }

  private static final String BASE = """
      prometheus: {baseImage: prom/prometheus, version: v2.27.1}
      reloader: {baseImage: pingcap/tidb-monitor-reloader, version: v1.0.1}
      initializer: {baseImage: pingcap/tidb-monitor-initializer, version: v8.5.7}
      """;

  private static List<String> messages(TidbMonitor tm) {
    return new TidbMonitorAdmissionRules().validateCreate(tm).stream().map(Violation::message).toList();
  }

  @Test
  void aMonitorOfOneClusterIsValid() {
    assertEquals(List.of(), messages(monitor(BASE + "clusters: [{name: basic}]\n")));
  }

  @Test
  void everyViolationIsListedAtOnceWithFieldValueAndRule() {
    TidbMonitor tm = monitor("""
        shards: 0
        replicas: -1
        persistent: true
        storage: lots
        prometheus:
          retentionTime: 2 weeks
          service: {loadBalancerSourceRanges: [10.0.0.0/8, not-a-cidr]}
          remoteWrite: [{url: ""}, {url: "http://r", writeRelabelConfigs: [{action: explode}]}]
        reloader: {}
        initializer: {}
        """);
    List<String> got = messages(tm);
    assertEquals(List.of(
        "spec.clusters: Required value: at least one TidbCluster to monitor (or a DMCluster in spec.dm.clusters)",
        "spec.prometheus.service.loadBalancerSourceRanges[1]: Invalid value: \"not-a-cidr\": must be a CIDR such as 10.0.0.0/8 or fd00::/8",
        "spec.prometheus.retentionTime: Invalid value: \"2 weeks\": must be a Prometheus duration such as 12h, 15d or 1w",
        "spec.prometheus.remoteWrite[0].url: Required value: the URL samples are written to",
        "spec.prometheus.remoteWrite[1].writeRelabelConfigs[0].action: Unsupported value: \"explode\": supported values: "
            + "drop, dropequal, hashmod, keep, keepequal, labeldrop, labelkeep, labelmap, lowercase, replace, uppercase",
        "spec.shards: Invalid value: 0: must be at least 1",
        "spec.replicas: Invalid value: -1: must be 0 or more",
        "spec.storage: Invalid value: \"lots\": must be a Kubernetes quantity such as 10Gi or 100G"), got);
  }

  @Test
  void persistentNeedsAStorageSize() {
    assertEquals(List.of("spec.storage: Required value: the data volume size, e.g. 10Gi, is required when spec.persistent is true"),
        messages(monitor(BASE + "clusters: [{name: basic}]\npersistent: true\n")));
  }

  @Test
  void aDmClusterAloneIsEnoughButNeedsItsInitializer() {
    assertEquals(List.of(), messages(monitor(BASE + "dm: {clusters: [{name: dm}], initializer: {}}\n")));
    assertEquals(List.of("spec.dm.initializer: Required value: the DM dashboards and rules initializer"),
        messages(monitor(BASE + "dm: {clusters: [{name: dm}]}\n")));
  }

  @Test
  void aClusterReferencedTwiceIsADuplicateAfterNamespaceDefaulting() {
    assertEquals(List.of("spec.clusters[1]: Duplicate value: \"ns/a\": each cluster may be referenced once"),
        messages(monitor(BASE + "clusters: [{name: a}, {name: a, namespace: ns}, {name: a, namespace: other}]\n")));
  }

  @Test
  void aClusterWithoutNameIsRequired() {
    assertEquals(List.of("spec.clusters[0].name: Required value: the name of the cluster to monitor"),
        messages(monitor(BASE + "clusters: [{namespace: x}]\n")));
  }

  @Test
  void prometheusDurations() {
    assertTrue(TidbMonitorValidator.isPrometheusDuration("15d"));
    assertTrue(TidbMonitorValidator.isPrometheusDuration("1h30m"));
    assertTrue(TidbMonitorValidator.isPrometheusDuration("500ms"));
    assertFalse(TidbMonitorValidator.isPrometheusDuration("30m1h"));
    assertFalse(TidbMonitorValidator.isPrometheusDuration(""));
    assertFalse(TidbMonitorValidator.isPrometheusDuration("15"));
  }

  @Test
  void defaultsFillNamespacesAndReclaimPolicyWithoutTouchingTheInput() {
    TidbMonitor tm = monitor(BASE + "clusters: [{name: a}, {name: b, namespace: other}]\ndm: {clusters: [{name: d}], initializer: {}}\n");
    TidbMonitor d = new TidbMonitorAdmissionRules().withDefaults(tm);
    assertEquals("ns", d.getSpec().getClusters().get(0).getNamespace());
    assertEquals("other", d.getSpec().getClusters().get(1).getNamespace());
    assertEquals("ns", d.getSpec().getDm().getClusters().get(0).getNamespace());
    assertEquals("Retain", d.getSpec().getPvReclaimPolicy());
    assertEquals(null, tm.getSpec().getClusters().get(0).getNamespace());
  }

  @Test
  void plainTextGrafanaCredentialsWarn() {
    TidbMonitor tm = monitor(BASE + "clusters: [{name: a}]\ngrafana: {username: admin, password: admin}\n");
    assertEquals(2, new TidbMonitorAdmissionRules().warnings(tm).size());
  }
}
