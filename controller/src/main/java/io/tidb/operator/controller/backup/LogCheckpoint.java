package io.tidb.operator.controller.backup;

import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure decisions about a running log backup's checkpoint, as upstream's backup tracker: where the
 * cluster's log-backup advancer keeps it in PD's etcd, how its value reads, and what the status
 * should say.
 */
public final class LogCheckpoint {

  /** BR's key space in PD's etcd. */
  public static final String STREAM_PREFIX = "/tidb/br-stream";

  private LogCheckpoint() {}

  /**
   * The etcd prefix of the task's checkpoints: {@code /tidb/br-stream/checkpoint/<task>/}, under
   * which the advancer writes the global checkpoint ({@code central_global}). The trailing slash
   * keeps another task whose name starts with this one's out.
   */
  public static String prefix(String task) {
    return STREAM_PREFIX + "/checkpoint/" + task + "/";
  }

  /**
   * The checkpoint TSO among the keys read under {@link #prefix}: the first key's value (the
   * global checkpoint {@code central_global} sorts before BR's per-store ones), an 8-byte
   * big-endian unsigned number, as upstream reads it. Empty when there is no key, or the value is
   * not 8 bytes, or it is 0 (upstream reports nothing then either).
   */
  public static Optional<String> tsoOf(Map<String, byte[]> keysInOrder) {
    if (keysInOrder.isEmpty()) {
      return Optional.empty();
    }
    byte[] value = keysInOrder.values().iterator().next();
    if (value == null || value.length != 8) {
      return Optional.empty();
    }
    long tso = 0;
    for (byte b : value) {
      tso = (tso << 8) | (b & 0xff);
    }
    return tso == 0 ? Optional.empty() : Optional.of(Long.toUnsignedString(tso));
  }

  /** Whether the log backup's checkpoint is to be read now: only while it runs, as upstream. */
  public static boolean tracked(BackupStatus status) {
    return BackupPhase.RUNNING.equals(status.getPhase());
  }

  /**
   * What to write when {@code read} was read at {@code now}: {@code logCheckpointTs} and {@code
   * timeSynced} (when it was read), only when the checkpoint is not the one the status already
   * has, so an unchanged checkpoint writes nothing; {@code timeSynced} therefore says when the
   * checkpoint last moved.
   */
  public static boolean apply(BackupStatus status, Optional<String> read, Instant now) {
    if (read.isEmpty() || Objects.equals(read.get(), status.getLogCheckpointTs())) {
      return false;
    }
    status.setLogCheckpointTs(read.get());
    status.setTimeSynced(io.tidb.operator.controller.runtime.Conditions.timestamp(now));
    return true;
  }
}
