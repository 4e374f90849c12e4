package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Optional;

/**
 * The objects a TidbInitializer names but does not own, read when it is about to run (never once
 * it has completed). {@link KubeInitializerLookups} reads them from the API server.
 */
public interface InitializerLookups {

  Optional<TidbCluster> cluster(String namespace, String name);

  Optional<Secret> secret(String namespace, String name);

  Optional<ConfigMap> configMap(String namespace, String name);

  /** The termination message of the Job's failed initializer container, if a pod reports one. */
  Optional<String> failureMessage(String namespace, String jobName);
}
