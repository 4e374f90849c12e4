package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tidb.operator.controller.tidbcluster.pipeline.NodeLabels;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link NodeLabels} from the API server: one {@code GET} of the Node by name (never listed or
 * watched). Without the permission (a namespace-scoped install without {@code
 * rbac.clusterNodeAccess}) the answer is empty and a warning says so once, as upstream skips
 * these labels when it has no Node lister.
 */
final class KubeNodeLabels implements NodeLabels {

  private static final Logger LOG = LoggerFactory.getLogger(KubeNodeLabels.class);

  private final KubernetesClient client;
  private final AtomicBoolean forbiddenLogged = new AtomicBoolean();

  KubeNodeLabels(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<Map<String, String>> of(String name) {
    try {
      Node node = client.nodes().withName(name).get();
      if (node == null) {
        return Optional.empty();
      }
      Map<String, String> labels = node.getMetadata().getLabels();
      return Optional.of(labels == null ? Map.of() : labels);
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_FORBIDDEN) {
        throw e;
      }
      if (forbiddenLogged.compareAndSet(false, true)) {
        LOG.warn("nodes cannot be read (forbidden): TiProxy's zone labels are not set; grant get "
            + "on nodes (Helm: rbac.clusterNodeAccess=true for a namespace-scoped install)");
      }
      return Optional.empty();
    }
  }
}
