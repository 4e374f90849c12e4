package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Remembers which desired objects were found to match which actual ones, so that comparing them
 * again is skipped ({@link ServerSideApplier} keeps one for the process). Whether applying a
 * desired object changes an actual one is a pure function of the two: the same desired object
 * (by its {@linkplain #fingerprint fingerprint}) against the same version of the actual object
 * (its uid, resourceVersion and the field manager asked about) gives the same answer. A reconcile
 * compares each owned object at least once, a StatefulSet twice, and in a settled cluster nothing
 * changes between reconciles, so most comparisons are repeats.
 *
 * <p>The fingerprint is the model's own {@code hashCode} (a walk of the object, no serialization:
 * the JSON and SHA-256 of every desired object were 16 % of the reconcile threads' CPU with 30
 * clusters). Being 32 bits, two different desired objects could share one; a match is therefore
 * trusted for at most {@code maxAge} ({@value #DEFAULT_MAX_AGE_MINUTES} minutes by default) and
 * then compared again, so even that one-in-four-billion case delays an apply by minutes, never
 * for good.
 *
 * <p>Only matches are remembered (a difference leads to a write, which makes a new version
 * anyway), the last one per actual object, for at most {@code capacity} objects, the least
 * recently used forgotten first.
 */
public final class MatchMemo {

  /** Enough for the owned objects of a few hundred clusters (about 15 compared per cluster). */
  public static final int DEFAULT_CAPACITY = 4096;

  static final long DEFAULT_MAX_AGE_MINUTES = 5;

  /** An actual object (uid and the field manager asked about) and the version of it that matched. */
  public record Key(String object, String version) {}

  private record Match(String version, int fingerprint, long atNanos) {}

  private final Map<String, Match> matched;
  private final long maxAgeNanos;
  private final LongSupplier nanoTime;

  public MatchMemo(int capacity) {
    this(capacity, Duration.ofMinutes(DEFAULT_MAX_AGE_MINUTES), System::nanoTime);
  }

  /** @param nanoTime a monotonic clock in nanoseconds ({@link System#nanoTime}) */
  MatchMemo(int capacity, Duration maxAge, LongSupplier nanoTime) {
    this.maxAgeNanos = maxAge.toNanos();
    this.nanoTime = nanoTime;
    this.matched = new LruMap<>(capacity);
  }

  /**
   * The memo's key for a version of {@code actual}: empty when it has no uid or resourceVersion
   * (an object that was never stored, as in a template).
   */
  static Optional<Key> key(HasMetadata actual, String fieldManager) {
    String uid = actual.getMetadata() == null ? null : actual.getMetadata().getUid();
    String version = actual.getMetadata() == null ? null : actual.getMetadata().getResourceVersion();
    if (uid == null || uid.isEmpty() || version == null || version.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Key(uid + "/" + fieldManager, version));
  }

  /**
   * The desired object's fingerprint: equal objects (the same fields, however built) have equal
   * ones, as the model's {@code equals} and {@code hashCode} say.
   */
  static int fingerprint(HasMetadata desired) {
    return desired.hashCode();
  }

  /**
   * Whether the desired object of {@code fingerprint} was found to match the actual version
   * {@code key}, less than the maximum age ago.
   */
  synchronized boolean matched(Key key, int fingerprint) {
    Match known = matched.get(key.object());
    return known != null
        && known.version().equals(key.version())
        && known.fingerprint() == fingerprint
        && nanoTime.getAsLong() - known.atNanos() < maxAgeNanos;
  }

  /** Records that the desired object of {@code fingerprint} matches the actual version {@code key}. */
  synchronized void remember(Key key, int fingerprint) {
    matched.put(key.object(), new Match(key.version(), fingerprint, nanoTime.getAsLong()));
  }

  synchronized int size() {
    return matched.size();
  }
}
