package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.RestoreSpec;
import java.util.List;

/** The pod settings a Backup or Restore spec gives its Job, in one shape. */
public record JobPod(
    ResourceRequirements resources,
    List<EnvVar> env,
    List<Toleration> tolerations,
    String toolImage,
    List<LocalObjectReference> imagePullSecrets,
    Affinity affinity,
    PodSecurityContext podSecurityContext,
    String priorityClassName,
    String serviceAccount,
    List<Volume> additionalVolumes,
    List<VolumeMount> additionalVolumeMounts) {

  public static JobPod of(BackupSpec s) {
    return new JobPod(s.getResources(), s.getEnv(), s.getTolerations(), s.getToolImage(), s.getImagePullSecrets(),
        s.getAffinity(), s.getPodSecurityContext(), s.getPriorityClassName(), s.getServiceAccount(),
        s.getAdditionalVolumes(), s.getAdditionalVolumeMounts());
  }

  public static JobPod of(RestoreSpec s) {
    return new JobPod(s.getResources(), s.getEnv(), s.getTolerations(), s.getToolImage(), s.getImagePullSecrets(),
        s.getAffinity(), s.getPodSecurityContext(), s.getPriorityClassName(), s.getServiceAccount(),
        s.getAdditionalVolumes(), s.getAdditionalVolumeMounts());
  }
}
