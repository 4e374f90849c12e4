package io.tidb.operator.controller.backup;

import java.util.Set;

/** Upstream's Backup and Restore phases (also their condition types). */
public final class BackupPhase {

  public static final String SCHEDULED = "Scheduled";
  public static final String PREPARE = "Prepare";
  public static final String RUNNING = "Running";
  public static final String COMPLETE = "Complete";
  public static final String FAILED = "Failed";
  public static final String INVALID = "Invalid";
  /** Clean-up of a deleted Backup's data (cleanPolicy Delete / OnFailure). */
  public static final String CLEANED = "Cleaned";

  /** A Job may still be working. */
  public static final Set<String> IN_FLIGHT = Set.of(SCHEDULED, PREPARE, RUNNING);
  /** Done for good: no Job is ever created again. */
  public static final Set<String> TERMINAL = Set.of(COMPLETE, FAILED);

  private BackupPhase() {}
}
