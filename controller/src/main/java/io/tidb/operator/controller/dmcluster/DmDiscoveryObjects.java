package io.tidb.operator.controller.dmcluster;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmDiscoverySpec;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryObjects;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTransports;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * The discovery service dm-master's start script asks, upstream's {@code <dc>-dm-discovery}: the
 * operator's image in discovery mode ({@link DiscoveryObjects#deployment(DiscoveryObjects.DeploymentParts, String)})
 * with {@code TC_NAME=<dc>}, answering {@code /new/<peer>/dm}. Labels as upstream's: {@code
 * name=dm-cluster}, {@code instance=<instance>-dm}, {@code component=discovery}. Its Role may get
 * this DMCluster, and with {@code tlsCluster} the Secret {@code <dc>-dm-client-secret} it calls
 * dm-master with, by name. Pure; apply in the order ServiceAccount, Role, RoleBinding, Deployment,
 * Service.
 */
public final class DmDiscoveryObjects {

  public static final String COMPONENT = "discovery";

  private DmDiscoveryObjects() {}

  public static ServiceAccount serviceAccount(DmCluster dc) {
    return new ServiceAccountBuilder().withMetadata(meta(dc)).build();
  }

  public static Role role(DmCluster dc) {
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(new PolicyRuleBuilder().withApiGroups(DmCluster.GROUP).withResources("dmclusters")
        .withResourceNames(dc.getMetadata().getName()).withVerbs("get").build());
    if (DmConfigFiles.tls(dc)) {
      rules.add(new PolicyRuleBuilder().withApiGroups("").withResources("secrets")
          .withResourceNames(ClusterTransports.dmClientSecretName(dc.getMetadata().getName()))
          .withVerbs("get").build());
    }
    return new RoleBuilder().withMetadata(meta(dc)).withRules(rules).build();
  }

  public static RoleBinding roleBinding(DmCluster dc) {
    String name = DmNames.discovery(dc.getMetadata().getName());
    return new RoleBindingBuilder()
        .withMetadata(meta(dc))
        .addNewSubject().withKind("ServiceAccount").withName(name)
        .withNamespace(dc.getMetadata().getNamespace()).endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name).endRoleRef()
        .build();
  }

  /** @param image the operator's own image */
  public static Deployment deployment(DmCluster dc, String image) {
    DmDiscoverySpec spec = dc.getSpec().getDiscovery() == null ? new DmDiscoverySpec() : dc.getSpec().getDiscovery();
    return DiscoveryObjects.deployment(new DiscoveryObjects.DeploymentParts(meta(dc), instance(dc),
        selector(dc), dc.getMetadata().getName(), DmNames.discovery(dc.getMetadata().getName()), spec,
        DmObjects.podSettings(dc, spec), List.of(), List.of(), List.of()), image);
  }

  public static Service service(DmCluster dc) {
    return new ServiceBuilder()
        .withMetadata(meta(dc))
        .withNewSpec()
        .withType("ClusterIP")
        .withPorts(MemberPods.servicePort("discovery", DmConfigFiles.DISCOVERY_PORT),
            MemberPods.servicePort("proxy", DiscoveryObjects.PROXY_PORT))
        .withSelector(selector(dc))
        .endSpec()
        .build();
  }

  private static String instance(DmCluster dc) {
    return DmLabels.instanceOf(dc) + "-dm";
  }

  private static SortedMap<String, String> selector(DmCluster dc) {
    return DmLabels.component(instance(dc), COMPONENT);
  }

  private static ObjectMeta meta(DmCluster dc) {
    return new ObjectMetaBuilder()
        .withName(DmNames.discovery(dc.getMetadata().getName()))
        .withNamespace(dc.getMetadata().getNamespace())
        .withLabels(selector(dc))
        .withOwnerReferences(DmObjects.owner(dc))
        .build();
  }
}
