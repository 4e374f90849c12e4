package io.tidb.operator.controller.backup.manager;

import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus;
import io.tidb.operator.controller.backup.BackupPhase;
import io.tidb.operator.controller.backup.LogBackupCommands;
import io.tidb.operator.controller.backup.BackupStatuses;
import io.tidb.operator.controller.runtime.Conditions;
import java.time.Instant;
import java.util.Map;

/**
 * What the backup-manager writes when it begins, as upstream's: condition {@code Prepare}
 * ({@code status: True}, no reason), before BR runs. A snapshot backup's phase becomes {@code
 * Prepare}; a log command's condition names the command, and its entry of {@code
 * logSubCommandStatuses} gets phase {@code Prepare} and the same condition; only the start moves
 * the log backup's own phase and conditions (upstream's other commands leave them). Pure.
 */
final class PrepareStatus {

  private PrepareStatus() {}

  /**
   * The fields to merge into the status, built from {@code current}: the whole condition list
   * (an atomic list, so it carries every condition already there) and the phase, and for a log
   * command its {@code logSubCommandStatuses} entry.
   *
   * @param command {@code null} for a snapshot backup, else the log command ({@code log-start},
   *     {@code log-pause}, ...)
   */
  static BackupStatus of(BackupStatus current, String command, Long generation, Instant now) {
    BackupStatus out = new BackupStatus();
    if (command == null || LogBackupCommands.START.equals(command)) {
      out.setConditions(current.getConditions());
      BackupStatuses.setCondition(out, BackupPhase.PREPARE, Conditions.TRUE, null, null, command, generation, now);
      out.setPhase(BackupPhase.PREPARE);
    }
    if (command != null) {
      LogSubCommandStatus before = current.getLogSubCommandStatuses() == null ? null
          : current.getLogSubCommandStatuses().get(command);
      BackupStatus scratch = new BackupStatus();
      scratch.setConditions(before == null ? null : before.getConditions());
      BackupStatuses.setCondition(scratch, BackupPhase.PREPARE, Conditions.TRUE, null, null, command, generation, now);
      LogSubCommandStatus sub = new LogSubCommandStatus();
      sub.setCommand(command);
      sub.setPhase(BackupPhase.PREPARE);
      sub.setConditions(scratch.getConditions());
      out.setLogSubCommandStatuses(Map.of(command, sub));
    }
    return out;
  }
}
