package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.controller.fixtures.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reviewed prometheus.yml and StatefulSet of upstream's basic TLS monitor (one TLS cluster). */
class MonitorGoldenTest {

  @Test
  void prometheusConfigurationOfATlsCluster() {
    TidbMonitor tm = MonitorManifests.named("basic-tls__tidb-monitor.yaml");
    Golden.assertText("monitor/basic-tls-prometheus.yml", PrometheusConfigYaml.render(
        PrometheusConfigGenerator.generate(tm, List.of(new MonitoredCluster("ns", "basic-tls", true)), List.of())));
  }

  @Test
  void statefulSet() {
    TidbMonitor tm = MonitorManifests.named("basic-tls__tidb-monitor.yaml");
    Golden.assertYaml("monitor/basic-tls-statefulset.yaml", MonitorStatefulSet.build(tm, 0, null, null, "0123456789abcdef"));
  }
}
