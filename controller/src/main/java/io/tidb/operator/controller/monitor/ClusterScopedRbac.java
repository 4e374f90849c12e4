package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.controller.runtime.OwnedFieldsMatcher;
import io.tidb.operator.controller.runtime.ServerSideApplier;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClusterRole and ClusterRoleBinding of a {@code clusterScoped} monitor. They cannot carry an
 * owner reference to a namespaced TidbMonitor, so they are read and applied directly (only when
 * they differ) and deleted by the controller's finalizer, as upstream does.
 */
public final class ClusterScopedRbac {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterScopedRbac.class);

  private final KubernetesClient client;

  public ClusterScopedRbac(KubernetesClient client) {
    this.client = client;
  }

  /** Applies both objects where they differ; true when something was written. */
  public boolean apply(TidbMonitor tm) {
    boolean role = applyIfDifferent(MonitorObjects.clusterRole(tm),
        Optional.ofNullable(client.rbac().clusterRoles().withName(MonitorNames.clusterWide(tm)).get()));
    boolean binding = applyIfDifferent(MonitorObjects.clusterRoleBinding(tm),
        Optional.ofNullable(client.rbac().clusterRoleBindings().withName(MonitorNames.clusterWide(tm)).get()));
    return role || binding;
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

  private <R extends HasMetadata> boolean applyIfDifferent(R desired, Optional<R> actual) {
    if (OwnedFieldsMatcher.differences(desired, actual, ServerSideApplier.FIELD_MANAGER).isEmpty()) {
      return false;
    }
    client.resource(desired).patch(new PatchContext.Builder()
        .withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager(ServerSideApplier.FIELD_MANAGER)
        .withForce(true)
        .build());
    LOG.info("apply kind={} name={}", desired.getKind(), desired.getMetadata().getName());
    return true;
  }
}
