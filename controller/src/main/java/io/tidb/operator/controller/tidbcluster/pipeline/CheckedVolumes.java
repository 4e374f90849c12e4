package io.tidb.operator.controller.tidbcluster.pipeline;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The PersistentVolumes the operator has read (or patched) and found as their claims want them:
 * the reclaim policy of {@code spec.pvReclaimPolicy} and the labels of the claim. The volumes are
 * cluster-scoped; the operator caches only those carrying its labels, and only where it may list
 * and watch volumes ({@code LabelledVolumes}), so without this every reconcile would read each
 * one; with it a volume is read again only when what it must carry changed (its claim was
 * replaced, the policy or the claim's labels changed), when the cache shows it changed by someone
 * else ({@code VolumeCare}), or when {@link #RECHECK} has passed since it was last read, which
 * bounds how long such a change goes unrepaired without the cache. Kept in memory, one per
 * controller, shared by its workers; an operator restart reads every volume once.
 */
public final class CheckedVolumes {

  /** How long a volume found right is trusted before it is read again. */
  public static final Duration RECHECK = Duration.ofMinutes(30);

  /**
   * What a volume was found (or made) to carry.
   *
   * @param claimUid the claim bound to it
   * @param policy the reclaim policy, or empty when the spec sets none
   * @param labels the labels it carries, of those the operator sets
   * @param annotations the annotations it carries, of those the operator sets
   */
  public record Check(
      String claimUid, String policy, Map<String, String> labels, Map<String, String> annotations) {
    public Check {
      policy = policy == null ? "" : policy;
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
    }
  }

  /**
   * What a volume carries, trusted until {@code until}; {@code unread} when it was patched and
   * not read since; {@code readVersion}, the resource version of the volume as last read (null
   * when unknown).
   */
  private record Checked(Check check, Instant until, boolean unread, String readVersion) {}

  /**
   * How long a volume patched without being read is trusted: a provisioner may still rewrite a
   * volume it has just made (kwok's force-applies its spec again, within seconds of binding the
   * claim), so it is read once after this. Short, so that the rewrite is found and repaired while
   * the cluster is still coming up rather than in the quiet that follows: with 30 clusters and a
   * minute here the repairs of kwok's rewrites (2.5 writes per cluster) came in the first quiet
   * minute after all were Ready; with 15 s they come before, and every volume still ends with the
   * policy asked for (ControllerBenchmark prints it).
   */
  public static final Duration UNREAD_TRUST = Duration.ofSeconds(15);

  /** How long volumes are left alone after the API server refused to let the operator patch one. */
  public static final Duration FORBIDDEN_BACKOFF = Duration.ofMinutes(5);

  private final Map<String, Checked> volumes = new ConcurrentHashMap<>();
  private volatile Instant forbiddenAt;

  /**
   * Whether {@code volume} was found or made as {@code check} asks and is still trusted at {@code
   * now} ({@link #RECHECK} after a read, {@link #UNREAD_TRUST} after an unread patch): it need
   * not be read.
   */
  public boolean upToDate(String volume, Check check, Instant now) {
    Checked c = volumes.get(volume);
    return c != null && c.check().equals(check) && now.isBefore(c.until());
  }

  /**
   * What {@code volume} was last found or made to carry, when that was for the claim and the
   * reclaim policy of {@code check} and still trusted at {@code now}: the volume
   * still has those labels and annotations (as far as the operator knows), so a claim that gained
   * labels needs only the new ones written, without reading the volume first.
   */
  public Optional<Check> lastCheck(String volume, Check check, Instant now) {
    Checked c = volumes.get(volume);
    return c != null
            && c.check().claimUid().equals(check.claimUid())
            && c.check().policy().equals(check.policy())
            && now.isBefore(c.until())
        ? Optional.of(c.check())
        : Optional.empty();
  }

  /**
   * Records that {@code volume} now carries {@code check}: its {@link #lastCheck} and the labels
   * just written without reading it. The time it was last read is kept: {@link #RECHECK} still
   * counts from then.
   */
  public void relabelled(String volume, Check check) {
    volumes.computeIfPresent(
        volume, (v, c) -> new Checked(check, c.until(), c.unread(), c.readVersion()));
  }

  /**
   * Records that {@code volume} carries what {@code check} asks as of {@code now}, and forgets the
   * volumes not checked for longer than {@link #RECHECK} (they are read again anyway, and the
   * claims of deleted clusters leave no entry behind for long).
   */
  public void checked(String volume, Check check, Instant now) {
    checked(volume, check, null, now);
  }

  /**
   * As {@link #checked(String, Check, Instant)}, for a volume read at resource version {@code
   * readVersion} (what it was found carrying, before any patch the reading led to).
   */
  public void checked(String volume, Check check, String readVersion, Instant now) {
    record(volume, check, now, now.plus(RECHECK), false, readVersion);
  }

  /**
   * Whether a cached copy of {@code volume} at resource version {@code version} may show a change
   * made since the operator last read it: the volume was read since its last patch, and {@code
   * version} is not the version read (a cache that has not caught up with the operator's own
   * patch still holds that one). True when the version read is unknown; false for a volume not
   * known or patched unread.
   */
  public boolean changedSinceRead(String volume, String version) {
    Checked c = volumes.get(volume);
    return c != null && !c.unread() && (c.readVersion() == null || !c.readVersion().equals(version));
  }

  /**
   * Records that {@code volume} was patched to carry {@code check} at {@code now} without being
   * read: trusted for {@link #UNREAD_TRUST} only, and {@link #known} from then on, so the next
   * look reads it.
   */
  public void patchedUnread(String volume, Check check, Instant now) {
    record(volume, check, now, now.plus(UNREAD_TRUST), true, null);
  }

  /**
   * How long until {@code volume}, patched without a read, is to be read: empty when it was read
   * since its last patch (or is not known). The reconcile asks to run again then, so the read
   * does not wait for the next event or heartbeat.
   */
  public Optional<Duration> readDueIn(String volume, Instant now) {
    Checked c = volumes.get(volume);
    return c == null || !c.unread() ? Optional.empty() : Optional.of(Duration.between(now, c.until()));
  }

  /** Whether {@code volume} was checked or patched before (and not forgotten since). */
  public boolean known(String volume) {
    return volumes.containsKey(volume);
  }

  private void record(
      String volume, Check check, Instant now, Instant until, boolean unread, String readVersion) {
    volumes.values().removeIf(c -> !now.isBefore(c.until().plus(RECHECK)));
    volumes.put(volume, new Checked(check, until, unread, readVersion));
  }

  /** Records that the API server refused a volume patch at {@code now} (RBAC). */
  public void forbidden(Instant now) {
    forbiddenAt = now;
  }

  /**
   * Whether a volume patch was refused less than {@link #FORBIDDEN_BACKOFF} before {@code now}:
   * volumes are not written again until then (a namespaced install without the ClusterRole would
   * otherwise send a refused request per volume on every reconcile).
   */
  public boolean writesForbidden(Instant now) {
    Instant at = forbiddenAt;
    return at != null && now.isBefore(at.plus(FORBIDDEN_BACKOFF));
  }
}
