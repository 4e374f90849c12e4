package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies desired objects with server-side apply (field manager {@value #FIELD_MANAGER}, conflicts
 * forced), but only when {@link OwnedFieldsMatcher} finds a difference with the cached actual
 * object (a match found before for the same desired object and version of the actual one is not
 * looked for again: {@link MatchMemo}). The applied result goes back into the informer's cache so the next reconcile reads its
 * own write.
 *
 * <p>The API server's answer to an apply is compared with the desired object at once. A match is
 * remembered, so the next reconcile, which reads that answer from the cache, skips its comparison.
 * A difference means the object can never match as desired (a {@code false} or {@code 0} the API
 * server leaves out, a value a mutating webhook rewrites): every reconcile would write it again,
 * and each write's watch event could start another. It is logged as a warning and counted
 * ({@link ReconcileMetrics#unsettledApply}), so a test or an alert finds it.
 */
public final class ServerSideApplier implements Applier {

  /** The field manager of every object the operator applies. */
  public static final String FIELD_MANAGER = "tidb-operator";

  private static final Logger LOG = LoggerFactory.getLogger(ServerSideApplier.class);

  private final KubernetesClient client;
  private final ReconcileMetrics metrics;
  private final MatchMemo matches = new MatchMemo(MatchMemo.DEFAULT_CAPACITY);

  public ServerSideApplier(KubernetesClient client, ReconcileMetrics metrics) {
    this.client = client;
    this.metrics = metrics;
  }

  /** As the interface's, with this applier's memo of matches, which {@link #apply} then reuses. */
  @Override
  public boolean matches(HasMetadata desired, HasMetadata actual) {
    return OwnedFieldsMatcher.differences(desired, Optional.of(actual), FIELD_MANAGER, matches).isEmpty();
  }

  @Override
  public <R extends HasMetadata> ApplyOutcome apply(
      R desired, Optional<R> actual, RecentOperationCacheFiller<R> cache, ResourceID primary) {
    List<String> diffs = OwnedFieldsMatcher.differences(desired, actual, FIELD_MANAGER, matches);
    String kind = desired.getKind();
    if (diffs.isEmpty()) {
      metrics.applied(kind, "unchanged");
      return ApplyOutcome.UNCHANGED;
    }
    LOG.info(
        "apply kind={} namespace={} name={} cluster={} differences={}",
        kind,
        desired.getMetadata().getNamespace(),
        desired.getMetadata().getName(),
        primary.getName(),
        shown(diffs));
    R applied =
        client
            .resource(desired)
            .patch(
                new PatchContext.Builder()
                    .withPatchType(PatchType.SERVER_SIDE_APPLY)
                    .withFieldManager(FIELD_MANAGER)
                    .withForce(true)
                    .build());
    List<String> unsettled =
        OwnedFieldsMatcher.differences(desired, Optional.of(applied), FIELD_MANAGER, matches);
    if (!unsettled.isEmpty()) {
      metrics.unsettledApply(kind);
      LOG.warn(
          "apply did not settle: the API server's answer still differs from the desired object,"
              + " so it would be applied again at every reconcile kind={} namespace={} name={}"
              + " differences={}",
          kind,
          desired.getMetadata().getNamespace(),
          desired.getMetadata().getName(),
          shown(unsettled));
    }
    if (actual.isPresent()) {
      cache.handleRecentResourceUpdate(primary, applied, actual.get());
      metrics.applied(kind, "updated");
      return ApplyOutcome.UPDATED;
    }
    cache.handleRecentResourceCreate(primary, applied);
    metrics.applied(kind, "created");
    return ApplyOutcome.CREATED;
  }

  /** The first eight differences, for a log line. */
  private static Object shown(List<String> differences) {
    return differences.size() > 8 ? differences.subList(0, 8) + "..." : differences;
  }
}
