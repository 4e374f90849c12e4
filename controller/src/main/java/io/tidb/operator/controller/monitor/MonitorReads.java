package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Optional;

/**
 * What a TidbMonitor's reconcile reads besides its own objects, possibly in other namespaces: the
 * referenced clusters, their client certificates and an external Prometheus ConfigMap. {@link
 * KubeMonitorReads} is the real one; tests use an in-memory one.
 */
public interface MonitorReads {

  Optional<TidbCluster> tidbCluster(String namespace, String name);

  /** Whether the DMCluster exists, and if so whether it has {@code spec.tlsCluster.enabled}. */
  Optional<Boolean> dmClusterTls(String namespace, String name);

  Optional<Secret> secret(String namespace, String name);

  Optional<ConfigMap> configMap(String namespace, String name);
}
