package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tidb.operator.controller.runtime.ApplyOutcome;
import io.tidb.operator.controller.runtime.OwnedFieldsMatcher;
import io.tidb.operator.controller.runtime.ServerSideApplier;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link ObjectsByName} over the API server: a GET, then server-side apply only on a difference. */
public final class KubeObjectsByName implements ObjectsByName {

  private static final Logger LOG = LoggerFactory.getLogger(KubeObjectsByName.class);

  private final KubernetesClient client;

  public KubeObjectsByName(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public <R extends HasMetadata> ApplyOutcome apply(R desired) {
    Optional<R> actual = Optional.ofNullable(client.resource(desired).get());
    if (OwnedFieldsMatcher.differences(desired, actual, ServerSideApplier.FIELD_MANAGER).isEmpty()) {
      return ApplyOutcome.UNCHANGED;
    }
    client.resource(desired).patch(new PatchContext.Builder()
        .withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager(ServerSideApplier.FIELD_MANAGER)
        .withForce(true)
        .build());
    LOG.info("apply kind={} namespace={} name={}", desired.getKind(),
        desired.getMetadata().getNamespace(), desired.getMetadata().getName());
    return actual.isPresent() ? ApplyOutcome.UPDATED : ApplyOutcome.CREATED;
  }
}
