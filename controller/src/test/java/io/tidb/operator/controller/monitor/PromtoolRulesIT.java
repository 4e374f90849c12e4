package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's alert rules with the real {@code promtool}: {@code check rules}, and {@code test
 * rules} with input series that make each alert fire (and not fire) with exactly the labels and
 * annotations a user sees in Alertmanager; a monitor with an Alertmanager references them and its
 * configuration, rules included, passes {@code check config}.
 */
class PromtoolRulesIT {

  @TempDir Path dir;

  private Path rulesFile() throws Exception {
    Path file = dir.resolve(OperatorAlertRules.FILE_NAME);
    Files.writeString(file, PrometheusConfigYaml.render(OperatorAlertRules.rules()));
    return file;
  }

  private static String description(String alert) {
    return OperatorAlertRules.rules().groups().get(0).rules().stream()
        .filter(a -> a.alert().equals(alert)).findFirst().orElseThrow().annotations().get("description");
  }

  @Test
  void theRulesPassCheckRules() throws Exception {
    Promtool.Result r = Promtool.run("check", "rules", rulesFile().toString());
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("SUCCESS: 3 rules found"), r.output());
  }

  @Test
  void eachAlertFiresOnlyWhenItShouldWithItsLabelsAndAnnotations() throws Exception {
    rulesFile();
    String pd = "kubernetes_namespace=\"ns\",cluster=\"basic\",component=\"pd\"";
    String tests = """
        rule_files: [%s]
        evaluation_interval: 1m
        tests:
        - interval: 1m
          input_series:
          - series: 'up{%s,instance="basic-pd-0"}'
            values: '1x20'
          - series: 'up{%s,instance="basic-pd-1"}'
            values: '1 1 0x18'
          - series: 'up{%s,instance="basic-pd-2"}'
            values: '1x4 0x16'
          - series: 'process_start_time_seconds{kubernetes_namespace="ns",cluster="basic",component="tidb",instance="basic-tidb-0"}'
            values: '100 100 200 300 400 400 400'
          alert_rule_test:
          - eval_time: 6m
            alertname: TidbClusterMemberDown
            exp_alerts: []
          - eval_time: 8m
            alertname: TidbClusterMemberDown
            exp_alerts:
            - exp_labels: {severity: critical, kubernetes_namespace: ns, cluster: basic, component: pd, instance: basic-pd-1}
              exp_annotations:
                summary: pd basic-pd-1 of ns/basic is down
                description: %s
          - eval_time: 4m
            alertname: TidbClusterPdQuorumLost
            exp_alerts: []
          - eval_time: 6m
            alertname: TidbClusterPdQuorumLost
            exp_alerts:
            - exp_labels: {severity: critical, kubernetes_namespace: ns, cluster: basic}
              exp_annotations:
                summary: PD of ns/basic has no quorum
                description: %s
          - eval_time: 2m
            alertname: TidbClusterMemberRestarting
            exp_alerts: []
          - eval_time: 4m
            alertname: TidbClusterMemberRestarting
            exp_alerts:
            - exp_labels: {severity: warning, kubernetes_namespace: ns, cluster: basic, component: tidb, instance: basic-tidb-0}
              exp_annotations:
                summary: tidb basic-tidb-0 of ns/basic restarted 3 times in 15 minutes
                description: %s
        """.formatted(OperatorAlertRules.FILE_NAME, pd, pd, pd,
            quoted(description("TidbClusterMemberDown")), quoted(description("TidbClusterPdQuorumLost")),
            quoted(description("TidbClusterMemberRestarting")));
    Path file = dir.resolve("tests.yml");
    Files.writeString(file, tests);
    Promtool.Result r = Promtool.run("test", "rules", file.toString());
    assertEquals(0, r.exit(), r.output() + "\n" + tests);

    Files.writeString(file, tests.replace("summary: pd basic-pd-1 of ns/basic is down",
        "summary: pd basic-pd-2 of ns/basic is down"));
    assertNotEquals(0, Promtool.run("test", "rules", file.toString()).exit(), "a wrong expectation fails");
  }

  private static String quoted(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  @Test
  void aMonitorWithAnAlertmanagerLoadsTheRulesAndItsConfigurationPasses() throws Exception {
    TidbMonitor tm = MonitorManifests.named("basic-cn__tidb-monitor.yaml");
    tm.getSpec().setAlertmanagerURL("alertmanager.monitoring:9093");
    String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
        tm, MonitorManifests.clusters(tm), List.of()));
    var data = MonitorObjects.prometheusConfigMap(tm, yaml).getData();
    assertEquals(PrometheusConfigYaml.render(OperatorAlertRules.rules()), data.get(OperatorAlertRules.FILE_NAME));
    assertTrue(yaml.contains("- " + OperatorAlertRules.PATH), yaml);
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(dir.resolve(OperatorAlertRules.FILE_NAME), data.get(OperatorAlertRules.FILE_NAME));
    Files.writeString(config, Promtool.expand(
        yaml.replace(OperatorAlertRules.PATH, dir.resolve(OperatorAlertRules.FILE_NAME).toString()),
        "ns", "basic-monitor-0", 0));
    Promtool.Result r = Promtool.run("check", "config", config.toString());
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("SUCCESS: 3 rules found"), "check config read the rules: " + r.output());

    tm.getSpec().setAlertmanagerURL(null);
    assertTrue(!MonitorObjects.prometheusConfigMap(tm, yaml).getData().containsKey(OperatorAlertRules.FILE_NAME),
        "no rules without alerting");
  }
}
