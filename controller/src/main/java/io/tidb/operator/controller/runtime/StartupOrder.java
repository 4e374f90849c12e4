package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which resources wait, on the process's first sight of them, so that the others go first. When
 * the operator starts (a restart, an upgrade, a new leader) every resource is reconciled at once;
 * a new cluster, or one whose spec changed while no operator ran, waited behind the start-up
 * reconcile of every settled one (6 s with 30 clusters, 15 s with 100). A resource whose {@value
 * #READY} condition is {@code True} for its current generation is reconciled {@link #MIN_DELAY} to
 * {@link #MIN_DELAY} + {@link #SPREAD} later instead (spread by uid, so they do not all come back
 * at once); any event for it before then reconciles it as usual. Resources without that
 * condition (Backups, Restores…) and unsettled ones are never deferred. Only the first {@link
 * #WINDOW} after the first reconcile is a start (not after construction: a standby builds its
 * reconcilers at launch and may wait for leadership far longer): after it nothing is deferred and
 * no uid is remembered, so the set does not grow with every resource the process ever sees.
 */
final class StartupOrder {

  static final String READY = "Ready";

  static final Duration MIN_DELAY = Duration.ofSeconds(1);

  static final Duration SPREAD = Duration.ofSeconds(2);

  static final Duration WINDOW = Duration.ofMinutes(2);

  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  private volatile Instant windowEnd;

  private volatile boolean windowOpen = true;

  /**
   * How long to defer this first reconcile of {@code uid}; empty when it runs now (seen before,
   * or not settled, or the start is over). Records the sight either way while the start lasts;
   * the first call starts the window.
   */
  Optional<Duration> deferral(Instant now, String uid, Long generation, List<Condition> conditions) {
    if (windowEnd == null) {
      synchronized (this) {
        if (windowEnd == null) {
          windowEnd = now.plus(WINDOW);
        }
      }
    }
    if (windowOpen && !now.isBefore(windowEnd)) {
      windowOpen = false;
      seen.clear();
    }
    if (!windowOpen || uid == null || !seen.add(uid) || !settled(generation, conditions)) {
      return Optional.empty();
    }
    long spreadMillis = Math.floorMod(uid.hashCode(), SPREAD.toMillis() + 1);
    return Optional.of(MIN_DELAY.plusMillis(spreadMillis));
  }

  /** Ready=True, observed at {@code generation}. Pure. */
  static boolean settled(Long generation, List<Condition> conditions) {
    return generation != null
        && Conditions.find(conditions, READY)
            .filter(c -> Conditions.TRUE.equals(c.getStatus()))
            .filter(c -> generation.equals(c.getObservedGeneration()))
            .isPresent();
  }
}
