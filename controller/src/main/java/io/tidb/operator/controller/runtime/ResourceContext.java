package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Everything one reconcile of one custom resource works with: the stored object, the same object
 * with defaults applied, the status being built, the cached owned objects, the applier and Events.
 * Created per reconcile; not shared between threads.
 *
 * @param <P> the custom resource
 * @param <S> its status
 */
public final class ResourceContext<P extends HasMetadata, S> {

  private final P stored;
  private final P resource;
  private final DerivedObjects derived;
  private final S status;
  private final OwnedObjects owned;
  private final Applier applier;
  private final EventRecorder events;
  private final Instant now;
  private final WrittenObjects written = new WrittenObjects();

  /**
   * @param stored the object as stored (Events are about it)
   * @param resource the object with defaults applied (never written back)
   * @param status the status being built, starting as a copy of the stored one
   */
  public ResourceContext(
      P stored, P resource, S status, OwnedObjects owned, Applier applier, EventRecorder events,
      Instant now) {
    this(stored, resource, new DerivedObjects(false), status, owned, applier, events, now);
  }

  /**
   * @param derived the objects built from this version of {@code resource} by earlier reconciles,
   *     kept for the later ones ({@link #derived})
   */
  public ResourceContext(
      P stored, P resource, DerivedObjects derived, S status, OwnedObjects owned, Applier applier,
      EventRecorder events, Instant now) {
    this.stored = stored;
    this.resource = resource;
    this.derived = derived;
    this.status = status;
    this.owned = owned;
    this.applier = applier;
    this.events = events;
    this.now = now;
  }

  public P stored() {
    return stored;
  }

  public P resource() {
    return resource;
  }

  /**
   * What {@code make} builds from {@link #resource} alone and from the parts {@code key} names: the
   * value an earlier reconcile of this version of the resource built under the same key, else
   * {@code make}'s. The caller must not change it ({@link DerivedObjects}).
   */
  public <T> T derived(Object key, Supplier<T> make) {
    return derived.get(key, make);
  }

  public S status() {
    return status;
  }

  public OwnedObjects owned() {
    return owned;
  }

  public EventRecorder events() {
    return events;
  }

  public Instant now() {
    return now;
  }

  public String namespace() {
    return resource.getMetadata().getNamespace();
  }

  public String name() {
    return resource.getMetadata().getName();
  }

  public Long generation() {
    return stored.getMetadata().getGeneration();
  }

  /**
   * Applies {@code desired} if it differs from the cached object. Every write is told in a Normal
   * Event ({@code SuccessfulCreate} or {@code SuccessfulUpdate}), one per verb for the whole
   * reconcile, recorded by {@link #recordWrites} (the reconcile skeleton calls it at the end).
   */
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyOutcome apply(R desired) {
    Class<R> kind = (Class<R>) desired.getClass();
    Optional<R> actual = owned.get(kind, desired.getMetadata().getName());
    ApplyOutcome outcome =
        applier.apply(desired, actual, owned.cacheOf(kind), ResourceID.fromResource(resource));
    written.add(outcome, desired);
    return outcome;
  }

  /** Records the Events of the objects {@link #apply} wrote since the last call. */
  public void recordWrites() {
    written.record(events, stored);
  }

  /** Whether applying {@code desired} would leave {@code actual} as it is ({@link Applier#matches}). */
  public boolean matches(HasMetadata desired, HasMetadata actual) {
    return applier.matches(desired, actual);
  }
}
