package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.api.model.Condition;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Objects;
import java.util.Optional;

/** TidbClusters for the ITs, from the repository's examples. */
final class Fixtures {

  private Fixtures() {}

  /** {@code examples/basic-tidb-cluster.yaml} renamed: 3 PD, 3 TiKV, 2 TiDB. */
  static TidbCluster basic(String name) {
    return example("basic-tidb-cluster.yaml", name);
  }

  /**
   * A cluster the validator refuses: a malformed TiKV duration (and no version, which only the
   * create rules refuse).
   */
  static TidbCluster invalid(String name) {
    TidbCluster tc = small(name, "InPlace");
    tc.getSpec().setVersion(null);
    tc.getSpec().getTikv().setEvictLeaderTimeout("5 minutes");
    return tc;
  }

  /** A small valid cluster: 1 PD, 1 TiKV, 1 TiDB. */
  static TidbCluster small(String name, String configUpdateStrategy) {
    TidbCluster tc = basic(name);
    tc.getSpec().getPd().setReplicas(1);
    tc.getSpec().getTikv().setReplicas(1);
    tc.getSpec().getTidb().setReplicas(1);
    tc.getSpec().setConfigUpdateStrategy(configUpdateStrategy);
    return tc;
  }

  /**
   * A TidbMonitor in {@code namespace} with the images of the upstream examples and the given spec
   * lines (e.g. {@code clusters: [{name: basic}]}).
   */
  static TidbMonitor monitor(String namespace, String name, String specLines) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbMonitor
        metadata: {name: %s, namespace: %s}
        spec:
          prometheus: {baseImage: prom/prometheus, version: v2.27.1}
          grafana: {baseImage: grafana/grafana, version: 7.5.11}
          initializer: {baseImage: pingcap/tidb-monitor-initializer, version: v8.5.7}
          reloader: {baseImage: pingcap/tidb-monitor-reloader, version: v1.0.1}
          prometheusReloader: {baseImage: quay.io/prometheus-operator/prometheus-config-reloader, version: v0.49.0}
          imagePullPolicy: IfNotPresent
        %s""".formatted(name, namespace, specLines.indent(2)), TidbMonitor.class);
  }

  private static TidbCluster example(String file, String name) {
    try {
      String yaml = Files.readString(ProjectDirectory.root().resolve("examples").resolve(file));
      TidbCluster tc = ApiObjects.parse(yaml, TidbCluster.class);
      tc.getMetadata().setName(name);
      return tc;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An upstream user manifest from the compat set ({@code common/src/test/resources/compat/tidbcluster},
   * copied from {@code ../shared/compat/tidbcluster}), as written.
   */
  static TidbCluster compat(String file) {
    try {
      String yaml = Files.readString(ProjectDirectory.root()
          .resolve("common/src/test/resources/compat/tidbcluster").resolve(file));
      return ApiObjects.parse(yaml, TidbCluster.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Optional<Condition> condition(TidbCluster tc, String type) {
    if (tc.getStatus() == null || tc.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return tc.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** Ready=True, computed from the current generation. */
  static boolean ready(TidbCluster tc) {
    return condition(tc, "Ready").filter(c -> "True".equals(c.getStatus())).isPresent()
        && Objects.equals(tc.getStatus().getObservedGeneration(), tc.getMetadata().getGeneration());
  }
}
