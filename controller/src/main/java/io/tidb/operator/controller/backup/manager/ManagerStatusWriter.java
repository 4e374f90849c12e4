package io.tidb.operator.controller.backup.manager;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Writes the backup-manager's own status fields of its one Backup or Restore: server-side apply
 * on the status subresource with field manager {@value #FIELD_MANAGER}, so the controller's fields
 * (phase, conditions) are never touched and never lost, and each apply carries every field this
 * writer owns.
 *
 * <p>The one exception is {@link #prepare}: upstream's backup-manager sets the phase and condition
 * {@code Prepare} when it begins, fields the controller otherwise writes. That write is a JSON
 * merge patch (an update, not an apply) under the same field manager, made against the
 * resourceVersion just read and tried again on a conflict, so it carries every condition the
 * controller had set, and the controller's next apply takes the phase back; being an update, it
 * is never removed by this writer's later applies, which do not carry it.
 */
final class ManagerStatusWriter {

  /** The backup-manager's field manager on the status subresource. */
  static final String FIELD_MANAGER = "tidb-backup-manager";

  private ManagerStatusWriter() {}

  /** How often {@link #prepare} reads again after a conflict before it gives up. */
  static final int PREPARE_ATTEMPTS = 5;

  /**
   * Writes upstream's {@code Prepare} ({@link PrepareStatus}) into the Backup's status.
   *
   * @param command {@code null} for a snapshot backup, else the log command
   */
  static void prepare(KubernetesClient client, String namespace, String name, String command, Clock clock) {
    for (int attempt = 1; ; attempt++) {
      Backup current = client.resources(Backup.class).inNamespace(namespace).withName(name).get();
      if (current == null) {
        throw new IllegalStateException("Backup " + namespace + "/" + name + " not found");
      }
      BackupStatus status = current.getStatus() == null ? new BackupStatus() : current.getStatus();
      Map<String, Object> patch = new LinkedHashMap<>();
      patch.put("metadata", Map.of("resourceVersion", current.getMetadata().getResourceVersion()));
      patch.put("status", PrepareStatus.of(status, command, current.getMetadata().getGeneration(),
          clock.instant().truncatedTo(ChronoUnit.SECONDS)));
      try {
        client.resources(Backup.class).inNamespace(namespace).withName(name).subresource("status")
            .patch(new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager(FIELD_MANAGER)
                .build(), ApiObjects.toJson(patch));
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= PREPARE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

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
