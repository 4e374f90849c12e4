package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.List;
import java.util.Map;

/**
 * The least privilege of a Backup's or Restore's Job: its own ServiceAccount, and a Role that lets
 * it read its one Backup (or Restore) and patch that object's status, nothing else: no Secret (the
 * kubelet puts the credentials into the environment), no other object. All three are owned by
 * the Backup, so they go with it. Pure.
 */
public final class JobPermissions {

  private JobPermissions() {}

  /** {@code <job name>}: one ServiceAccount, Role and RoleBinding per Job owner. */
  public static ServiceAccount serviceAccount(HasMetadata owner, String name, Map<String, String> labels) {
    return new ServiceAccountBuilder()
        .withNewMetadata().withName(name).withNamespace(owner.getMetadata().getNamespace()).withLabels(labels)
        .withOwnerReferences(BackupJob.ownerRef(owner)).endMetadata()
        .build();
  }

  /** Get the one object named like {@code owner}, and patch its status. */
  public static Role role(HasMetadata owner, String name, String plural, Map<String, String> labels) {
    return new RoleBuilder()
        .withNewMetadata().withName(name).withNamespace(owner.getMetadata().getNamespace()).withLabels(labels)
        .withOwnerReferences(BackupJob.ownerRef(owner)).endMetadata()
        .withRules(
            new PolicyRuleBuilder().withApiGroups("pingcap.com").withResources(plural)
                .withResourceNames(owner.getMetadata().getName()).withVerbs("get").build(),
            new PolicyRuleBuilder().withApiGroups("pingcap.com").withResources(plural + "/status")
                .withResourceNames(owner.getMetadata().getName()).withVerbs("get", "patch").build())
        .build();
  }

  public static RoleBinding roleBinding(HasMetadata owner, String name, Map<String, String> labels) {
    return new RoleBindingBuilder()
        .withNewMetadata().withName(name).withNamespace(owner.getMetadata().getNamespace()).withLabels(labels)
        .withOwnerReferences(BackupJob.ownerRef(owner)).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name).endRoleRef()
        .withSubjects(List.of(new io.fabric8.kubernetes.api.model.rbac.SubjectBuilder()
            .withKind("ServiceAccount").withName(name).withNamespace(owner.getMetadata().getNamespace()).build()))
        .build();
  }
}
