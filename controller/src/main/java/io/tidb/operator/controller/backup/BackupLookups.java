package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Optional;

/**
 * What the Backup and Restore controllers read besides their own objects and Jobs, and the one
 * deletion they make outside a finalizer: a log backup's finished Job of an earlier spec.
 */
public interface BackupLookups {

  Optional<TidbCluster> cluster(String namespace, String name);

  Optional<Secret> secret(String namespace, String name);

  /** Whether the API server (not the cache) has the Job. */
  boolean jobExists(String namespace, String name);

  /** The termination message of the Job's failed pod, last line. */
  Optional<String> failureMessage(String namespace, String jobName);

  /** The termination message of the Job's pod, whatever its exit code, last line. */
  Optional<String> lastMessage(String namespace, String jobName);

  /** Deletes the Job and, in the background, its pods. */
  void deleteJob(String namespace, String name);
}
