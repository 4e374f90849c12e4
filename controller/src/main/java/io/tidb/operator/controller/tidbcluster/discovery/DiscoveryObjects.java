package io.tidb.operator.controller.tidbcluster.discovery;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpecBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.tidb.operator.api.v1alpha1.cluster.DiscoverySpec;
import io.tidb.operator.api.v1alpha1.cluster.ProbeSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.member.Containers;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StartScriptFetch;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The desired objects of a cluster's discovery service, all named {@code <tc>-discovery}: the
 * operator's own image run in discovery mode ({@link #args()}), answering starting PD pods (see
 * {@code io.tidb.operator.controller.discovery}). Pure functions of a defaulted, valid
 * {@link TidbCluster} (with a uid); apply in the order ServiceAccount, Role, RoleBinding, Deployment,
 * Service.
 *
 * <ul>
 *   <li>{@link #serviceAccount}, {@link #role} (get this TidbCluster; with cluster TLS, get the
 *       Secret {@code <tc>-cluster-client-secret}), {@link #roleBinding}.
 *   <li>{@link #deployment}: 1 replica, Recreate, container {@code discovery} with env
 *       {@code MY_POD_NAMESPACE}, {@code TZ}, {@code TC_NAME} (read by the discovery entry point),
 *       ports 10261 {@code discovery} and 10262 {@code proxy}; placement, labels, annotations,
 *       resources and env from {@code spec.discovery} over the cluster-level settings; the PD cluster
 *       certificate mounted at /var/lib/pd-tls with cluster TLS ({@code TC_TLS_ENABLED=true}) and
 *       PD of its own; with discovery mTLS, {@code <tc>-discovery-cluster-secret} at
 *       /var/lib/discovery-tls ({@code DISCOVERY_MTLS_ENABLED=true}).
 *   <li>{@link #service}: ClusterIP, ports 10261 {@code discovery} and 10262 {@code proxy}.
 * </ul>
 */
public final class DiscoveryObjects {

  /** The discovery service's reverse proxy to PD's dashboard. */
  public static final int PROXY_PORT = 10262;
  /** The subcommand of the operator's entry point that selects discovery mode. */
  public static final String MODE = "discovery";
  /** Env var holding the cluster name for the discovery process. */
  public static final String ENV_CLUSTER = "TC_NAME";
  /** Env var holding the namespace (from the downward API) for the discovery process. */
  public static final String ENV_NAMESPACE = "MY_POD_NAMESPACE";
  /** Env var set to {@code true} when PD serves TLS; its certificate is under {@link #PD_TLS_DIR}. */
  public static final String ENV_TLS = "TC_TLS_ENABLED";
  /** Where the discovery pod finds PD's cluster certificate with cluster TLS. */
  public static final String PD_TLS_DIR = "/var/lib/pd-tls";
  /** Env var set to {@code true} with discovery mTLS; its certificate is under {@link #DISCOVERY_TLS_DIR}. */
  public static final String ENV_MTLS = "DISCOVERY_MTLS_ENABLED";
  /** Where the discovery pod finds the certificate it serves its API with under discovery mTLS. */
  public static final String DISCOVERY_TLS_DIR = "/var/lib/discovery-tls";

  private DiscoveryObjects() {}

  /**
   * The discovery container's args: {@code ["discovery"]}. The container keeps the image's entry
   * point (the operator's main class), which runs this subcommand.
   */
  public static List<String> args() {
    return List.of(MODE);
  }

  /**
   * {@code <tc>-discovery-cluster-secret}: the certificate the discovery API serves with under
   * discovery mTLS (upstream's name), issued by the cluster's CA.
   */
  public static String discoveryTlsSecret(String cluster) {
    return ClusterAddresses.discoveryName(cluster) + "-cluster-secret";
  }

  public static ServiceAccount serviceAccount(TidbCluster tc) {
    return new ServiceAccountBuilder().withMetadata(meta(tc)).build();
  }

  /**
   * Discovery reads its own {@code TidbCluster}, and with cluster TLS the one Secret it calls PD
   * with, {@code <tc>-cluster-client-secret}, by name ({@code get} only: it is never listed or
   * watched). Upstream grants get/list/watch on every Secret of the namespace.
   */
  public static Role role(TidbCluster tc) {
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(new PolicyRuleBuilder()
        .withApiGroups(TidbCluster.GROUP)
        .withResources("tidbclusters")
        .withResourceNames(tc.getMetadata().getName())
        .withVerbs("get")
        .build());
    if (MemberPods.tlsCluster(tc)) {
      rules.add(new PolicyRuleBuilder()
          .withApiGroups("")
          .withResources("secrets")
          .withResourceNames(MemberPods.clusterClientSecret(tc.getMetadata().getName()))
          .withVerbs("get")
          .build());
    }
    return new RoleBuilder().withMetadata(meta(tc)).withRules(rules).build();
  }

  public static RoleBinding roleBinding(TidbCluster tc) {
    String name = ClusterAddresses.discoveryName(tc.getMetadata().getName());
    return new RoleBindingBuilder()
        .withMetadata(meta(tc))
        .addNewSubject()
        .withKind("ServiceAccount")
        .withName(name)
        .withNamespace(tc.getMetadata().getNamespace())
        .endSubject()
        .withNewRoleRef()
        .withApiGroup("rbac.authorization.k8s.io")
        .withKind("Role")
        .withName(name)
        .endRoleRef()
        .build();
  }

  /**
   * @param image the operator's own image (the runtime knows it, e.g. from its configuration)
   */
  public static Deployment deployment(TidbCluster tc, String image) {
    DiscoverySpec spec = spec(tc);
    List<EnvVar> env = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    List<Volume> volumes = new ArrayList<>();
    if (MemberPods.tlsCluster(tc)) {
      if (tc.getSpec().getPd() != null) {
        // Only a cluster with PD of its own has <tc>-pd-cluster-secret, as upstream mounts it.
        volumes.add(MemberPods.secretVolume("pd-tls",
            MemberPods.clusterTlsSecret(tc.getMetadata().getName(), ClusterAddresses.PD)));
        mounts.add(MemberPods.mount("pd-tls", PD_TLS_DIR, true));
      }
      env.add(MemberPods.env(ENV_TLS, "true"));
    }
    if (StartScriptFetch.mtls(tc)) {
      volumes.add(MemberPods.secretVolume("discovery-tls",
          discoveryTlsSecret(tc.getMetadata().getName())));
      mounts.add(MemberPods.mount("discovery-tls", DISCOVERY_TLS_DIR, true));
      env.add(MemberPods.env(ENV_MTLS, "true"));
    }
    String instance = Labels.instanceOf(tc);
    return deployment(new DeploymentParts(meta(tc), instance,
        Labels.component(instance, ClusterAddresses.DISCOVERY), tc.getMetadata().getName(),
        ClusterAddresses.discoveryName(tc.getMetadata().getName()), spec,
        PodSettings.resolve(tc.getSpec(), spec), env, volumes, mounts), image);
  }

  /**
   * What a discovery Deployment takes from the kind it serves (a TidbCluster's, or a DMCluster's
   * {@code <dc>-dm-discovery}).
   *
   * @param meta the objects' metadata (name, labels, owner)
   * @param instance the instance label value (topology spread)
   * @param selector the pods' selector labels
   * @param clusterName the cluster name the process reads ({@value #ENV_CLUSTER})
   * @param serviceAccount the pod's service account
   * @param extraEnv env after {@code MY_POD_NAMESPACE}, {@code TZ}, {@code TC_NAME}
   * @param volumes volumes before {@code additionalVolumes}
   * @param mounts mounts before {@code additionalVolumeMounts}
   */
  public record DeploymentParts(ObjectMeta meta, String instance, SortedMap<String, String> selector,
      String clusterName, String serviceAccount, DiscoverySpec spec, PodSettings pod,
      List<EnvVar> extraEnv, List<Volume> volumes, List<VolumeMount> mounts) {}

  /** The discovery Deployment of {@code parts}, running {@code image} in discovery mode. */
  public static Deployment deployment(DeploymentParts parts, String image) {
    DiscoverySpec spec = parts.spec();
    PodSettings pod = parts.pod();
    String instance = parts.instance();
    SortedMap<String, String> selector = parts.selector();
    SortedMap<String, String> podLabels = new TreeMap<>(pod.labels());
    podLabels.putAll(selector);

    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv(ENV_NAMESPACE, "metadata.namespace"),
        MemberPods.env("TZ", pod.timezone()),
        MemberPods.env(ENV_CLUSTER, parts.clusterName())));
    env.addAll(parts.extraEnv());
    List<VolumeMount> mounts = new ArrayList<>(parts.mounts());
    List<Volume> volumes = new ArrayList<>(parts.volumes());
    if (spec.getAdditionalVolumeMounts() != null) {
      mounts.addAll(spec.getAdditionalVolumeMounts());
    }
    if (spec.getAdditionalVolumes() != null) {
      volumes.addAll(spec.getAdditionalVolumes());
    }

    Container main = new ContainerBuilder()
        .withName(ClusterAddresses.DISCOVERY.label())
        .withImage(image)
        .withImagePullPolicy(pod.imagePullPolicy())
        .withArgs(args())
        .withPorts(
            MemberPods.containerPort("discovery", ClusterAddresses.DISCOVERY_PORT),
            MemberPods.containerPort("proxy", DiscoveryObjects.PROXY_PORT))
        .withEnv(MemberPods.withUserEnv(env, spec.getEnv()))
        .withEnvFrom(spec.getEnvFrom())
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(spec))
        .withSecurityContext(spec.getSecurityContext())
        .withReadinessProbe(probe(spec.getReadinessProbe()))
        .withLivenessProbe(probe(spec.getLivenessProbe()))
        .build();

    PodSpec podSpec = new PodSpecBuilder()
        .withContainers(Containers.mergeSidecars(main, spec.getAdditionalContainers()))
        .withInitContainers(spec.getInitContainers())
        .withVolumes(volumes)
        .withServiceAccountName(parts.serviceAccount())
        .withAutomountServiceAccountToken(spec.getAutomountServiceAccountToken())
        .withAffinity(pod.affinity())
        .withNodeSelector(pod.nodeSelector().isEmpty() ? null : pod.nodeSelector())
        .withTolerations(pod.tolerations())
        .withTopologySpreadConstraints(pod.topologySpreadConstraints(instance, ClusterAddresses.DISCOVERY))
        .withPriorityClassName(MemberPods.emptyToNull(pod.priorityClassName()))
        .withSchedulerName(MemberPods.emptyToNull(pod.schedulerName()))
        .withHostNetwork(pod.hostNetwork() ? Boolean.TRUE : null)
        .withDnsPolicy(MemberPods.emptyToNull(pod.dnsPolicy()))
        .withDnsConfig(pod.dnsConfig())
        .withSecurityContext(pod.podSecurityContext())
        .withImagePullSecrets(pod.imagePullSecrets())
        .withTerminationGracePeriodSeconds(spec.getTerminationGracePeriodSeconds())
        .build();
    DeploymentSpec deploymentSpec = new DeploymentSpecBuilder()
        .withReplicas(1)
        .withNewStrategy().withType("Recreate").endStrategy()
        .withNewSelector().withMatchLabels(selector).endSelector()
        .build();
    // Set on the built objects, as MemberPods.statefulSet does: nested builders copy the pod spec
    // at every level.
    deploymentSpec.setTemplate(new PodTemplateSpec(new ObjectMetaBuilder()
        .withLabels(podLabels)
        .withAnnotations(pod.annotations().isEmpty() ? null : pod.annotations())
        .build(), podSpec));
    Deployment deployment = new Deployment();
    deployment.setMetadata(new ObjectMetaBuilder(parts.meta()).build());
    deployment.setSpec(deploymentSpec);
    return deployment;
  }

  public static Service service(TidbCluster tc) {
    return MemberPods.dualStackIfPreferred(tc, new ServiceBuilder()
        .withMetadata(meta(tc))
        .withNewSpec()
        .withType("ClusterIP")
        .withPorts(
            MemberPods.servicePort("discovery", ClusterAddresses.DISCOVERY_PORT),
            MemberPods.servicePort("proxy", DiscoveryObjects.PROXY_PORT))
        .withSelector(Labels.component(Labels.instanceOf(tc), ClusterAddresses.DISCOVERY))
        .endSpec()
        .build());
  }

  private static Probe probe(ProbeSpec spec) {
    if (spec == null) {
      return null;
    }
    ProbeBuilder b = new ProbeBuilder()
        .withNewTcpSocket().withPort(new IntOrString(ClusterAddresses.DISCOVERY_PORT)).endTcpSocket();
    if (spec.getInitialDelaySeconds() != null) {
      b.withInitialDelaySeconds(spec.getInitialDelaySeconds());
    }
    if (spec.getPeriodSeconds() != null) {
      b.withPeriodSeconds(spec.getPeriodSeconds());
    }
    return b.build();
  }

  private static ObjectMeta meta(TidbCluster tc) {
    return new ObjectMetaBuilder()
        .withName(ClusterAddresses.discoveryName(tc.getMetadata().getName()))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.component(Labels.instanceOf(tc), ClusterAddresses.DISCOVERY))
        .withOwnerReferences(OwnerRefs.of(tc))
        .build();
  }

  private static DiscoverySpec spec(TidbCluster tc) {
    DiscoverySpec spec = tc.getSpec().getDiscovery();
    return spec == null ? new DiscoverySpec() : spec;
  }
}
