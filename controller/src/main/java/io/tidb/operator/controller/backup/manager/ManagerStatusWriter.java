package io.tidb.operator.controller.backup.manager;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.function.Supplier;

/**
 * Writes the backup-manager's own status fields of its one Backup or Restore: server-side apply
 * on the status subresource with field manager {@value #FIELD_MANAGER}, so the controller's fields
 * (phase, conditions) are never touched and never lost, and each apply carries every field this
 * writer owns.
 */
final class ManagerStatusWriter {

  /** The backup-manager's field manager on the status subresource. */
  static final String FIELD_MANAGER = "tidb-backup-manager";

  private ManagerStatusWriter() {}

  static <T extends CustomResource<?, S>, S> void apply(
      KubernetesClient client, Supplier<T> empty, String namespace, String name, S status) {
    T patch = empty.get();
    patch.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    patch.setStatus(status);
    client.resource(patch).subresource("status").patch(new PatchContext.Builder()
        .withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager(FIELD_MANAGER)
        .withForce(true)
        .build());
  }
}
