package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.backup.RestoreStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import java.time.Duration;

/** Builds the {@code Restore} controller on the shared runtime. */
public final class RestoreController {

  public static final String NAME = "restore";

  private RestoreController() {}

  public static RestoreReconciler create(BackupSettings settings, RuntimeServices services,
      AdmissionRules<Restore> rules, KubernetesClient client, Duration convergingRequeue) {
    return new RestoreReconciler(rules, new RestoreWork(settings, new KubeBackupLookups(client)), services,
        convergingRequeue);
  }

  /** The runtime's skeleton bound to {@code Restore}. */
  public static final class RestoreReconciler extends ValidatingReconciler<Restore, RestoreStatus> {
    RestoreReconciler(AdmissionRules<Restore> rules, RestoreWork work, RuntimeServices services,
        Duration convergingRequeue) {
      super(NAME, rules, BackupStatuses.RESTORE, work, services, convergingRequeue);
    }
  }
}
