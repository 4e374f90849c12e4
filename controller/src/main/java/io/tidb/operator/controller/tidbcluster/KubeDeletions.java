package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tidb.operator.controller.tidbcluster.pipeline.Deletions;
import java.io.IOException;
import java.net.HttpURLConnection;

/** {@link Deletions} in one namespace over the API server, with a uid precondition. */
public final class KubeDeletions implements Deletions {

  private final KubernetesClient client;
  private final String namespace;

  public KubeDeletions(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  @Override
  public void deletePod(String name, String uid) throws IOException {
    Pod pod = client.pods().inNamespace(namespace).withName(name).get();
    if (pod == null || !uid.equals(pod.getMetadata().getUid())) {
      return;
    }
    try {
      client.resource(pod).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw new IOException("deleting pod " + name + " failed: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public void deleteUnscheduledPod(String name, String uid) throws IOException {
    Pod pod = client.pods().inNamespace(namespace).withName(name).get();
    if (pod == null
        || !uid.equals(pod.getMetadata().getUid())
        || (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty())) {
      return;
    }
    try {
      client.resource(pod).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw new IOException("deleting pod " + name + " failed: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public void deleteStatefulSet(String name, String uid) throws IOException {
    StatefulSet sts = client.apps().statefulSets().inNamespace(namespace).withName(name).get();
    if (sts == null || !uid.equals(sts.getMetadata().getUid())) {
      return;
    }
    try {
      client.resource(sts).withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw new IOException("deleting StatefulSet " + name + " failed: " + e.getMessage(), e);
      }
    }
  }
}
