package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The defaulted copy of each primary and the rules' verdict on it, kept per version of the
 * primary ({@link ValidatingReconciler} keeps one per controller). Defaulting and judging are pure
 * functions of the stored object ({@code AdmissionRules}), and between two reconciles of a settled
 * resource its {@code resourceVersion} does not change, so the copy (a JSON round trip of the whole
 * object) and the rules would give the same answer again: about a tenth of a settled TidbCluster
 * reconcile's CPU.
 *
 * <p>The copy is shared by every reconcile of that version, so no reconcile may change it, as none
 * may change the cached primary: with the cache mutation detector on ({@link
 * CacheMutationDetector}), a reconcile that does fails. The objects reconciles build from the
 * copy alone are kept with it ({@link DerivedObjects}) under the same rule. A primary without a uid or
 * resourceVersion (never stored) is defaulted afresh each time. At most {@code capacity} primaries
 * are kept, the least recently reconciled forgotten first.
 *
 * @param <P> the custom resource
 */
final class DefaultedPrimaries<P extends HasMetadata> {

  /** Enough for a few thousand primaries of one kind; each entry is one object's copy. */
  static final int DEFAULT_CAPACITY = 4096;

  /**
   * A primary with its defaults filled in, the violations of the stored-object rules on it (empty
   * when it is valid), and the objects reconciles built from it ({@link DerivedObjects}).
   */
  record Judged<P>(P defaulted, List<Violation> violations, DerivedObjects derived) {
    Judged {
      violations = List.copyOf(violations);
    }
  }

  /** The version last seen of a primary, and its judged copy once kept (null before). */
  private record Entry<P>(String resourceVersion, Judged<P> judged) {}

  private final Map<String, Entry<P>> byUid;

  DefaultedPrimaries(int capacity) {
    this.byUid = new LruMap<>(capacity);
  }

  /**
   * The judged copy of {@code stored}: the one kept for its uid when it was made from the same
   * resourceVersion, else {@code judge} of it. A version is kept from its second reconcile on:
   * while a resource converges, its status (and so its version) changes at nearly every
   * reconcile, and copies kept for one reconcile each would outlive the young generation only to
   * be dropped (4-12 MiB more RSS with 30 converging clusters when every version was kept).
   */
  Judged<P> of(P stored, Function<P, Judged<P>> judge) {
    String uid = stored.getMetadata().getUid();
    String version = stored.getMetadata().getResourceVersion();
    if (uid == null || uid.isEmpty() || version == null || version.isEmpty()) {
      return judge.apply(stored);
    }
    boolean seenBefore;
    synchronized (byUid) {
      Entry<P> kept = byUid.get(uid);
      if (kept != null && kept.resourceVersion().equals(version) && kept.judged() != null) {
        return kept.judged();
      }
      seenBefore = kept != null && kept.resourceVersion().equals(version);
    }
    // Outside the lock: JOSDK never reconciles one primary on two threads at once, so no two
    // threads judge the same version; other primaries are not held up.
    Judged<P> judged = judge.apply(stored);
    synchronized (byUid) {
      byUid.put(uid, new Entry<>(version, seenBefore ? judged : null));
    }
    return judged;
  }

  int size() {
    synchronized (byUid) {
      return byUid.size();
    }
  }
}
