package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.UnreadableResources;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** {@link BackupLookups} from the API server. */
public final class KubeBackupLookups implements BackupLookups {

  /** The label the Job controller puts on a Job's pods. */
  public static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

  private final KubernetesClient client;

  public KubeBackupLookups(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<TidbCluster> cluster(String namespace, String name) {
    return Optional.ofNullable(client.resources(TidbCluster.class).inNamespace(namespace).withName(name).get())
        .map(UnreadableResources::requireReadable);
  }

  @Override
  public Optional<Secret> secret(String namespace, String name) {
    return Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get());
  }

  @Override
  public boolean jobExists(String namespace, String name) {
    return client.batch().v1().jobs().inNamespace(namespace).withName(name).get() != null;
  }

  @Override
  public void deleteJob(String namespace, String name) {
    client.batch().v1().jobs().inNamespace(namespace).withName(name)
        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
  }

  @Override
  public Optional<String> failureMessage(String namespace, String jobName) {
    return message(namespace, jobName, t -> t.getExitCode() != null && t.getExitCode() != 0);
  }

  @Override
  public Optional<String> lastMessage(String namespace, String jobName) {
    return message(namespace, jobName, t -> true);
  }

  private Optional<String> message(String namespace, String jobName, Predicate<ContainerStateTerminated> which) {
    return client.pods().inNamespace(namespace).withLabel(JOB_NAME_LABEL, jobName).list().getItems().stream()
        .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp()).reversed())
        .flatMap(p -> p.getStatus() == null || p.getStatus().getContainerStatuses() == null
            ? Stream.<ContainerStatus>empty() : p.getStatus().getContainerStatuses().stream())
        .filter(s -> BackupJob.CONTAINER.equals(s.getName()))
        .map(s -> s.getState() == null ? null : s.getState().getTerminated())
        .filter(t -> t != null && which.test(t))
        .map(ContainerStateTerminated::getMessage)
        .map(JobVerdicts::lastLine)
        .flatMap(Optional::stream)
        .findFirst();
  }
}
