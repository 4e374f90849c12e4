package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Remembers which desired objects were found to match which actual ones, so that comparing them
 * again is skipped ({@link ServerSideApplier} keeps one for the process). Whether applying a desired object changes an actual one is a pure function of
 * the two: the same desired object (by the SHA-256 of its JSON) against the same version of the
 * actual object (its uid, resourceVersion and the field manager asked about) gives the same
 * answer. A reconcile compares each owned object at least once, a StatefulSet twice, and in a
 * settled cluster nothing changes between reconciles, so most comparisons are repeats.
 *
 * <p>Only matches are remembered (a difference leads to a write, which makes a new version
 * anyway), the last one per actual object, for at most {@code capacity} objects, the least
 * recently used forgotten first.
 */
public final class MatchMemo {

  /** Enough for the owned objects of a few hundred clusters (about 15 compared per cluster). */
  public static final int DEFAULT_CAPACITY = 4096;

  /** An actual object (uid and the field manager asked about) and the version of it that matched. */
  public record Key(String object, String version) {}

  private record Match(String version, byte[] digest) {}

  private final Map<String, Match> matched;

  public MatchMemo(int capacity) {
    this.matched = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Match> eldest) {
        return size() > capacity;
      }
    };
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

  /** SHA-256 of the desired object's JSON. */
  static byte[] digest(String json) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** Whether the desired object of {@code digest} was found to match the actual version {@code key}. */
  synchronized boolean matched(Key key, byte[] digest) {
    Match known = matched.get(key.object());
    return known != null && known.version().equals(key.version()) && Arrays.equals(known.digest(), digest);
  }

  /** Records that the desired object of {@code digest} matches the actual version {@code key}. */
  synchronized void remember(Key key, byte[] digest) {
    matched.put(key.object(), new Match(key.version(), digest));
  }

  synchronized int size() {
    return matched.size();
  }
}
