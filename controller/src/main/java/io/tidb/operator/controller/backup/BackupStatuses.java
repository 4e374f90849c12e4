package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.Condition;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.RestoreCondition;
import io.tidb.operator.api.v1alpha1.backup.RestoreStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.StatusAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the runtime reads and writes Backup and Restore status. Upstream's condition types carry
 * one more field than Kubernetes' ({@code command}), kept through the runtime's conditions. The
 * controller applies only its own fields ({@link #controllerPart}); the backup-manager owns the
 * rest (times, size, commitTs) under its own field manager.
 */
public final class BackupStatuses {

  public static final StatusAccess<BackupStatus> BACKUP = new StatusAccess<>() {
    @Override
    public BackupStatus empty() {
      return new BackupStatus();
    }

    @Override
    public BackupStatus copy(BackupStatus status) {
      return ApiObjects.deepCopy(status);
    }

    @Override
    public void setObservedGeneration(BackupStatus status, Long generation) {
      status.setObservedGeneration(generation);
    }

    @Override
    public List<Condition> conditions(BackupStatus status) {
      return status.getConditions() == null ? null
          : status.getConditions().stream().map(BackupStatuses::toCondition).toList();
    }

    @Override
    public void setConditions(BackupStatus status, List<Condition> conditions) {
      List<BackupCondition> old = status.getConditions();
      status.setConditions(conditions == null ? null : conditions.stream().map(c -> {
        BackupCondition b = new BackupCondition();
        b.setType(c.getType());
        b.setStatus(c.getStatus());
        b.setReason(c.getReason());
        b.setMessage(c.getMessage());
        b.setLastTransitionTime(c.getLastTransitionTime());
        b.setObservedGeneration(c.getObservedGeneration());
        if (old != null) {
          old.stream().filter(o -> Objects.equals(o.getType(), c.getType())).findFirst()
              .ifPresent(o -> b.setCommand(o.getCommand()));
        }
        return b;
      }).toList());
    }

    @Override
    public BackupStatus applied(BackupStatus status) {
      return controllerPart(status);
    }

    /** Upstream's phase {@code Invalid}, unless the backup already finished. */
    @Override
    public void invalid(BackupStatus status) {
      if (status.getPhase() == null || !BackupPhase.TERMINAL.contains(status.getPhase())) {
        status.setPhase(BackupPhase.INVALID);
      }
    }
  };

  public static final StatusAccess<RestoreStatus> RESTORE = new StatusAccess<>() {
    @Override
    public RestoreStatus empty() {
      return new RestoreStatus();
    }

    @Override
    public RestoreStatus copy(RestoreStatus status) {
      return ApiObjects.deepCopy(status);
    }

    @Override
    public void setObservedGeneration(RestoreStatus status, Long generation) {
      status.setObservedGeneration(generation);
    }

    @Override
    public List<Condition> conditions(RestoreStatus status) {
      if (status.getConditions() == null) {
        return null;
      }
      List<Condition> out = new ArrayList<>();
      for (RestoreCondition r : status.getConditions()) {
        Condition c = new Condition();
        c.setType(r.getType());
        c.setStatus(r.getStatus());
        c.setReason(r.getReason());
        c.setMessage(r.getMessage());
        c.setLastTransitionTime(r.getLastTransitionTime());
        c.setObservedGeneration(r.getObservedGeneration());
        out.add(c);
      }
      return out;
    }

    @Override
    public void setConditions(RestoreStatus status, List<Condition> conditions) {
      status.setConditions(conditions == null ? null : conditions.stream().map(c -> {
        RestoreCondition r = new RestoreCondition();
        r.setType(c.getType());
        r.setStatus(c.getStatus());
        r.setReason(c.getReason());
        r.setMessage(c.getMessage());
        r.setLastTransitionTime(c.getLastTransitionTime());
        r.setObservedGeneration(c.getObservedGeneration());
        return r;
      }).toList());
    }

    /** Upstream's phase {@code Invalid}, unless the restore already finished. */
    @Override
    public void invalid(RestoreStatus status) {
      if (status.getPhase() == null || !BackupPhase.TERMINAL.contains(status.getPhase())) {
        status.setPhase(BackupPhase.INVALID);
      }
    }

    @Override
    public RestoreStatus applied(RestoreStatus status) {
      RestoreStatus out = new RestoreStatus();
      out.setPhase(status.getPhase());
      out.setConditions(status.getConditions());
      out.setObservedGeneration(status.getObservedGeneration());
      return out;
    }
  };

  private BackupStatuses() {}

  /**
   * The Backup status fields the controller writes: phase, conditions, observedGeneration,
   * backupPath, and a log backup's logSubCommandStatuses, logCheckpointTs and timeSynced (read
   * from PD by the controller).
   */
  public static BackupStatus controllerPart(BackupStatus status) {
    BackupStatus out = new BackupStatus();
    out.setLogSubCommandStatuses(status.getLogSubCommandStatuses());
    out.setPhase(status.getPhase());
    out.setConditions(status.getConditions());
    out.setObservedGeneration(status.getObservedGeneration());
    out.setBackupPath(status.getBackupPath());
    out.setLogCheckpointTs(status.getLogCheckpointTs());
    out.setTimeSynced(status.getTimeSynced());
    return out;
  }

  /**
   * Sets the condition {@code type} in {@code s} and records which command it is about ({@code
   * null}: none), as upstream.
   */
  public static void setCondition(BackupStatus s, String type, String status, String reason, String message, String command,
      Long generation, java.time.Instant now) {
    BackupStatus scratch = new BackupStatus();
    scratch.setConditions(s.getConditions());
    BACKUP.setConditions(scratch, Conditions.set(BACKUP.conditions(scratch), type,
        status, reason, message, generation, now));
    List<BackupCondition> conditions = scratch.getConditions();
    conditions.stream().filter(c -> type.equals(c.getType())).forEach(c -> c.setCommand(command));
    s.setConditions(conditions);
  }

  private static Condition toCondition(BackupCondition b) {
    Condition c = new Condition();
    c.setType(b.getType());
    c.setStatus(b.getStatus());
    c.setReason(b.getReason());
    c.setMessage(b.getMessage());
    c.setLastTransitionTime(b.getLastTransitionTime());
    c.setObservedGeneration(b.getObservedGeneration());
    return c;
  }
}
