package io.tidb.operator.controller.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus;
import io.tidb.operator.controller.runtime.Conditions;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure decisions about the state of a log backup's task in the cluster (the "kernel"), as
 * upstream's backup tracker: whether PD's etcd says the task is paused ({@code
 * /tidb/br-stream/pause/<task>}) and why, and how the Backup's status is corrected when it says
 * otherwise. A task paused by an error marks the command {@code RetryFailed} (upstream's {@code
 * BackupRetryTheFailed}); a task paused or resumed outside the operator moves the phase to
 * {@code Paused} or {@code Running}, once the same difference is seen on two reads in a row
 * (upstream's double check).
 */
public final class LogKernel {

  /** Upstream's pause reason of a task paused by hand (BR's V1 empty value, or severity MANUAL). */
  public static final String MANUAL = "manual";
  /**
   * Upstream's phase and condition {@code BackupRetryTheFailed} (its value {@code RetryFailed}) of
   * a log backup whose task was paused by an error.
   */
  public static final String RETRY_THE_FAILED = "RetryFailed";
  /** A command's entry that has to run again: its counterpart completed since (upstream's). */
  public static final String REPEATABLE = "Repeatable";
  public static final String REASON_ERROR_PAUSED = "LogBackupErrorPaused";
  public static final String REASON_KERNEL_SYNC = "LogBackupKernelSync";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STREAM_BACKUP_ERROR = "brpb.StreamBackupError";

  private LogKernel() {}

  /** What PD's etcd says of the task: paused or not, and upstream's reason when paused. */
  public record Kernel(boolean paused, String pauseReason) {
    public static final Kernel RUNNING = new Kernel(false, "");
  }

  /** What to do with the status. */
  public enum Action {
    /** The status agrees with the task (or the difference was seen once only). */
    NONE,
    /** The task was paused by an error: {@code RetryFailed}. */
    ERROR_PAUSED,
    /** The task was paused outside the operator: {@code Paused}. */
    TO_PAUSED,
    /** The task was resumed outside the operator: {@code Running}. */
    TO_RUNNING,
    /** The task of a {@code RetryFailed} log backup runs again: {@code Running}. */
    RECOVERED
  }

  /**
   * @param action what to do
   * @param reason the error pause's reason ({@link Action#ERROR_PAUSED}), else empty
   * @param suspect the command whose difference from the task was seen on this read, to be given
   *     back on the next read; {@code null} when none
   */
  public record Verdict(Action action, String reason, String suspect) {}

  /**
   * The key of the task's pause mark: {@code /tidb/br-stream/pause/<task>}. It is read as a
   * prefix, the way the checkpoint is, and only this exact key counts (upstream's prefix read
   * would also take a task whose name starts with this one's).
   */
  public static String pauseKey(String task) {
    return LogCheckpoint.STREAM_PREFIX + "/pause/" + task;
  }

  /** The task's state from the keys read under {@link #pauseKey}. */
  public static Kernel of(String task, Map<String, byte[]> read) {
    byte[] pause = read.get(pauseKey(task));
    return pause == null ? Kernel.RUNNING : new Kernel(true, pauseReason(pause));
  }

  /**
   * Upstream's reason of a pause value: empty (BR's V1 pause) or severity {@code MANUAL} is {@code
   * manual}; a value that is not JSON is {@code unknown}; otherwise the payload BR or TiKV
   * attached: {@code text/plain} as it is, {@code application/x-protobuf;messageType=
   * brpb.StreamBackupError} as {@code Paused by error(store <store_id>): <error_message>}, anything
   * else, or a payload that cannot be read, {@code error}.
   */
  public static String pauseReason(byte[] value) {
    if (value.length == 0) {
      return MANUAL;
    }
    JsonNode pause;
    byte[] payload;
    try {
      pause = JSON.readTree(value);
      if (pause == null || !pause.isObject()) {
        return "unknown";
      }
      String encoded = pause.path("payload").asText("");
      payload = Base64.getDecoder().decode(encoded);
    } catch (java.io.IOException | IllegalArgumentException e) {
      return "unknown";
    }
    if ("MANUAL".equals(pause.path("severity").asText(""))) {
      return MANUAL;
    }
    Optional<Map.Entry<String, Map<String, String>>> type = mediaType(pause.path("payload_type").asText(""));
    if (type.isEmpty()) {
      return "error";
    }
    switch (type.get().getKey()) {
      case "text/plain":
        return new String(payload, StandardCharsets.UTF_8);
      case "application/x-protobuf":
        if (!STREAM_BACKUP_ERROR.equals(type.get().getValue().get("messagetype"))) {
          return "error";
        }
        return streamBackupError(payload).orElse("error");
      default:
        return "error";
    }
  }

  /**
   * A MIME type as Go's {@code mime.ParseMediaType} reads it: the lower-cased {@code type/subtype}
   * and its parameters (names lower-cased, values unquoted); empty when it is not one.
   */
  static Optional<Map.Entry<String, Map<String, String>>> mediaType(String text) {
    String[] parts = text.split(";", -1);
    String main = parts[0].trim().toLowerCase(Locale.ROOT);
    int slash = main.indexOf('/');
    if (slash <= 0 || slash == main.length() - 1 || !token(main.substring(0, slash))
        || !token(main.substring(slash + 1))) {
      return Optional.empty();
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq <= 0 || !token(p.substring(0, eq).trim())) {
        return Optional.empty();
      }
      String v = p.substring(eq + 1).trim();
      if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
        v = v.substring(1, v.length() - 1);
      }
      params.put(p.substring(0, eq).trim().toLowerCase(Locale.ROOT), v);
    }
    return Optional.of(Map.entry(main, params));
  }

  private static boolean token(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (char c : s.toCharArray()) {
      if (c <= ' ' || c >= 127 || "()<>@,;:\\\"/[]?=".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The message of a {@code brpb.StreamBackupError} in protobuf's wire format, as TiKV writes it
   * ({@code happen_at = 1}, {@code error_code = 2}, {@code error_message = 3}, {@code store_id =
   * 4}): {@code Paused by error(store <store_id>): <error_message>}; empty when the bytes are not
   * such a message or carry no error_message.
   */
  static Optional<String> streamBackupError(byte[] bytes) {
    int[] at = {0};
    String message = null;
    long store = 0;
    while (at[0] < bytes.length) {
      Optional<Long> tag = varint(bytes, at);
      if (tag.isEmpty()) {
        return Optional.empty();
      }
      int field = (int) (tag.get() >>> 3);
      int wire = (int) (tag.get() & 7);
      if (field == 0) {
        return Optional.empty();
      }
      switch (wire) {
        case 0 -> {
          Optional<Long> v = varint(bytes, at);
          if (v.isEmpty()) {
            return Optional.empty();
          }
          if (field == 4) {
            store = v.get();
          }
        }
        case 1 -> at[0] += 8;
        case 5 -> at[0] += 4;
        case 2 -> {
          Optional<Long> len = varint(bytes, at);
          if (len.isEmpty() || len.get() < 0 || len.get() > bytes.length - at[0]) {
            return Optional.empty();
          }
          if (field == 3) {
            message = new String(bytes, at[0], (int) (long) len.get(), StandardCharsets.UTF_8);
          }
          at[0] += (int) (long) len.get();
        }
        default -> {
          return Optional.empty();
        }
      }
      if (at[0] > bytes.length) {
        return Optional.empty();
      }
    }
    return message == null ? Optional.empty()
        : Optional.of("Paused by error(store " + Long.toUnsignedString(store) + "): " + message);
  }

  private static Optional<Long> varint(byte[] bytes, int[] at) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at[0] >= bytes.length) {
        return Optional.empty();
      }
      byte b = bytes[at[0]++];
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return Optional.of(value);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether the task's state is compared with {@code command} at all: not when the command's own
   * run failed (its entry {@code Failed}). A failed command already says why the task is not as the
   * spec asks (a pause BR refused because the task was paused with br directly, say); correcting
   * the status from the task would mark the command {@code Repeatable}, and its Job would run and
   * fail again, over and over, until the spec changes.
   */
  public static boolean compared(BackupStatus status, String command) {
    Map<String, LogSubCommandStatus> subs = status.getLogSubCommandStatuses();
    LogSubCommandStatus sub = subs == null ? null : subs.get(command);
    return sub == null || !BackupPhase.FAILED.equals(sub.getPhase());
  }

  /**
   * What to do, as upstream's {@code SyncLogBackupState}: a pause whose reason is neither {@code
   * manual} nor empty is an error pause; otherwise the task's state is compared with {@code
   * command} (paused agrees with {@code log-pause}, running with {@code log-start} and {@code
   * log-resume}). A difference is corrected only when {@code suspected}, what the previous read
   * saw, is the same command; the first time it is only remembered. A {@code RetryFailed} log
   * backup whose task runs again goes back to {@code Running} (upstream leaves it so).
   */
  public static Verdict decide(String command, String phase, Kernel kernel, String suspected) {
    if (kernel.paused() && !kernel.pauseReason().isEmpty() && !MANUAL.equals(kernel.pauseReason())) {
      return new Verdict(Action.ERROR_PAUSED, kernel.pauseReason(), suspected);
    }
    boolean agrees = kernel.paused() ? LogBackupCommands.PAUSE.equals(command)
        : LogBackupCommands.START.equals(command) || LogBackupCommands.RESUME.equals(command);
    if (agrees) {
      return new Verdict(!kernel.paused() && RETRY_THE_FAILED.equals(phase) ? Action.RECOVERED : Action.NONE, "", null);
    }
    if (!command.equals(suspected)) {
      return new Verdict(Action.NONE, "", command);
    }
    return new Verdict(kernel.paused() ? Action.TO_PAUSED : Action.TO_RUNNING, "", null);
  }

  /**
   * Writes {@code verdict} into {@code status}, as upstream's status updater does with the
   * condition its tracker sets, and returns whether anything changed ({@code timeSynced} is set
   * only then):
   *
   * <ul>
   *   <li>{@link Action#ERROR_PAUSED}: the command's entry {@code RetryFailed} (reason {@code
   *       LogBackupErrorPaused}, {@code Log backup paused due to error: <reason>}); for {@code
   *       log-start} the log backup's phase and condition too (upstream's updater passes only the
   *       start's on).
   *   <li>{@link Action#TO_PAUSED}: {@code log-pause} Complete, phase and condition {@code Paused}
   *       (reason {@code LogBackupKernelSync}, {@code Synced with kernel state: paused}), {@code
   *       log-resume} {@code repeatable}.
   *   <li>{@link Action#TO_RUNNING}: {@code log-resume} Complete, phase and condition {@code
   *       Running}, {@code log-pause} {@code repeatable}.
   *   <li>{@link Action#RECOVERED}: {@code log-start} Complete again, phase and condition {@code
   *       Running}, condition {@code RetryFailed} False.
   * </ul>
   */
  public static boolean apply(BackupStatus status, String command, Verdict verdict, Long generation, Instant now) {
    BackupStatus before = ApiObjects.deepCopy(status);
    switch (verdict.action()) {
      case NONE -> {
        return false;
      }
      case ERROR_PAUSED -> {
        String message = "Log backup paused due to error: " + verdict.reason();
        entry(status, command, RETRY_THE_FAILED, RETRY_THE_FAILED, REASON_ERROR_PAUSED, message, generation, now);
        if (LogBackupCommands.START.equals(command)) {
          status.setPhase(RETRY_THE_FAILED);
          BackupStatuses.setCondition(status, RETRY_THE_FAILED, Conditions.TRUE, REASON_ERROR_PAUSED, message, command,
              generation, now);
        }
      }
      case TO_PAUSED -> synced(status, LogBackupCommands.PAUSE, LogBackupCommands.RESUME, LogBackupCommands.PAUSED,
          "paused", generation, now);
      case TO_RUNNING -> synced(status, LogBackupCommands.RESUME, LogBackupCommands.PAUSE, BackupPhase.RUNNING,
          "running", generation, now);
      case RECOVERED -> {
        synced(status, LogBackupCommands.START, null, BackupPhase.RUNNING, "running", generation, now);
        BackupStatuses.setCondition(status, RETRY_THE_FAILED, Conditions.FALSE, REASON_KERNEL_SYNC,
            "the task runs again", LogBackupCommands.START, generation, now);
      }
      default -> throw new IllegalStateException("verdict: " + verdict);
    }
    if (Objects.equals(before, status)) {
      return false;
    }
    status.setTimeSynced(Conditions.timestamp(now));
    return true;
  }

  private static void synced(BackupStatus status, String done, String counterpart, String phase, String state,
      Long generation, Instant now) {
    String message = "Synced with kernel state: " + state;
    entry(status, done, BackupPhase.COMPLETE, BackupPhase.COMPLETE, REASON_KERNEL_SYNC, message, generation, now);
    if (counterpart != null && status.getLogSubCommandStatuses().containsKey(counterpart)) {
      LogBackupWork.subStatus(status, counterpart).setPhase(REPEATABLE);
    }
    status.setPhase(phase);
    BackupStatuses.setCondition(status, phase, Conditions.TRUE, REASON_KERNEL_SYNC, message, done, generation, now);
  }

  private static void entry(BackupStatus status, String command, String phase, String type, String reason,
      String message, Long generation, Instant now) {
    LogSubCommandStatus sub = LogBackupWork.subStatus(status, command);
    sub.setPhase(phase);
    BackupStatus scratch = new BackupStatus();
    scratch.setConditions(sub.getConditions());
    BackupStatuses.setCondition(scratch, type, Conditions.TRUE, reason, message, null, generation, now);
    sub.setConditions(scratch.getConditions());
  }
}
