package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.StatusAccess;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import java.time.Duration;

/** Builds the {@code BackupSchedule} controller on the shared runtime. */
public final class BackupScheduleController {

  public static final String NAME = "backupschedule";

  /** Schedule status conditions are upstream's BackupCondition; the runtime sees Kubernetes' Condition. */
  public static final StatusAccess<BackupScheduleStatus> STATUS = StatusAccess.of(
      BackupScheduleStatus::new,
      BackupScheduleStatus::setObservedGeneration,
      s -> s.getConditions() == null ? null : s.getConditions().stream().map(b -> {
        Condition c = new Condition();
        c.setType(b.getType());
        c.setStatus(b.getStatus());
        c.setReason(b.getReason());
        c.setMessage(b.getMessage());
        c.setLastTransitionTime(b.getLastTransitionTime());
        c.setObservedGeneration(b.getObservedGeneration());
        return c;
      }).toList(),
      (s, list) -> s.setConditions(list == null ? null : list.stream().map(c -> {
        BackupCondition b = new BackupCondition();
        b.setType(c.getType());
        b.setStatus(c.getStatus());
        b.setReason(c.getReason());
        b.setMessage(c.getMessage());
        b.setLastTransitionTime(c.getLastTransitionTime());
        b.setObservedGeneration(c.getObservedGeneration());
        return b;
      }).toList()));

  private BackupScheduleController() {}

  public static BackupScheduleReconciler create(RuntimeServices services, AdmissionRules<BackupSchedule> rules,
      KubernetesClient client, Duration convergingRequeue) {
    return new BackupScheduleReconciler(rules, new BackupScheduleWork(client), services, convergingRequeue);
  }

  /** The runtime's skeleton bound to {@code BackupSchedule}. */
  public static final class BackupScheduleReconciler extends ValidatingReconciler<BackupSchedule, BackupScheduleStatus> {
    BackupScheduleReconciler(AdmissionRules<BackupSchedule> rules, BackupScheduleWork work, RuntimeServices services,
        Duration convergingRequeue) {
      super(NAME, rules, STATUS, work, services, convergingRequeue);
    }
  }
}
