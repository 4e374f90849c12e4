package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.UnreadableResources;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Comparator;
import java.util.Optional;

/** {@link InitializerLookups} over the API server (GET by name; the Job's pods by label). */
public final class KubeInitializerLookups implements InitializerLookups {

  /** The label the Job controller puts on a Job's pods. */
  public static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

  private final KubernetesClient client;

  public KubeInitializerLookups(KubernetesClient client) {
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
  public Optional<ConfigMap> configMap(String namespace, String name) {
    return Optional.ofNullable(client.configMaps().inNamespace(namespace).withName(name).get());
  }

  @Override
  public Optional<String> failureMessage(String namespace, String jobName) {
    return client.pods().inNamespace(namespace).withLabel(JOB_NAME_LABEL, jobName).list().getItems().stream()
        .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp()).reversed())
        .flatMap(p -> p.getStatus() == null || p.getStatus().getContainerStatuses() == null
            ? java.util.stream.Stream.<ContainerStatus>empty()
            : p.getStatus().getContainerStatuses().stream())
        .filter(s -> InitializerJob.CONTAINER.equals(s.getName()))
        .map(s -> s.getState() == null ? null : s.getState().getTerminated())
        .filter(t -> t != null && t.getExitCode() != null && t.getExitCode() != 0)
        .map(t -> t.getMessage())
        .map(InitializerProgress::lastLine)
        .flatMap(Optional::stream)
        .findFirst();
  }
}
