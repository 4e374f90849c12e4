package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClusterRole and ClusterRoleBinding of a {@code clusterScoped} monitor. They cannot carry an
 * owner reference to a namespaced TidbMonitor, so they are applied by name (only when they differ)
 * and deleted by the controller's finalizer, as upstream does.
 */
public final class ClusterScopedRbac {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterScopedRbac.class);

  private final KubernetesClient client;
  private final ObjectsByName objects;

  public ClusterScopedRbac(KubernetesClient client, ObjectsByName objects) {
    this.client = client;
    this.objects = objects;
  }

  /**
   * Applies both objects where they differ.
   *
   * @return why they cannot be applied when the operator may not manage ClusterRoles (a
   *     namespace-scoped install); empty otherwise
   */
  public Optional<String> apply(TidbMonitor tm) {
    try {
      objects.apply(MonitorObjects.clusterRole(tm));
      objects.apply(MonitorObjects.clusterRoleBinding(tm));
      return Optional.empty();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 403) {
        throw e;
      }
      return Optional.of("spec.clusterScoped needs a ClusterRole " + MonitorNames.clusterWide(tm)
          + ", which this operator may not create (a namespace-scoped install): install it cluster-wide"
          + " or set spec.clusterScoped to false and monitor clusters in namespace "
          + tm.getMetadata().getNamespace() + " only");
    }
  }

  /** Deletes both objects if they exist and name this monitor as their owner. */
  public void delete(TidbMonitor tm) {
    String owner = MonitorObjects.owner(tm);
    ClusterRoleBinding binding = client.rbac().clusterRoleBindings().withName(MonitorNames.clusterWide(tm)).get();
    if (ownedBy(binding, owner)) {
      client.resource(binding).delete();
      LOG.info("deleted ClusterRoleBinding name={} monitor={}", binding.getMetadata().getName(), owner);
    }
    ClusterRole role = client.rbac().clusterRoles().withName(MonitorNames.clusterWide(tm)).get();
    if (ownedBy(role, owner)) {
      client.resource(role).delete();
      LOG.info("deleted ClusterRole name={} monitor={}", role.getMetadata().getName(), owner);
    }
  }

  private static boolean ownedBy(HasMetadata obj, String owner) {
    return obj != null && obj.getMetadata().getAnnotations() != null
        && owner.equals(obj.getMetadata().getAnnotations().get(MonitorLabels.OWNER_ANNOTATION));
  }

}
