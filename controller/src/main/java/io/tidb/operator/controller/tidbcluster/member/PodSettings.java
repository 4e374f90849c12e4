package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.v1alpha1.cluster.SpreadConstraint;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A component's pod-level settings after applying upstream's precedence between {@code spec.*}
 * (cluster) and {@code spec.<component>.*}:
 *
 * <ul>
 *   <li>the component value replaces the cluster value: imagePullPolicy, imagePullSecrets (when
 *       non-empty), hostNetwork, affinity, priorityClassName, schedulerName, tolerations (when
 *       non-empty), podSecurityContext, dnsPolicy, dnsConfig, topologySpreadConstraints (when
 *       non-empty), statefulSetUpdateStrategy, podManagementPolicy, configUpdateStrategy;
 *   <li>maps are merged, component keys winning: nodeSelector, labels, annotations;
 *   <li>defaults when neither is set: podManagementPolicy {@code Parallel} (anything but
 *       {@code OrderedReady} means Parallel), statefulSetUpdateStrategy {@code RollingUpdate},
 *       configUpdateStrategy {@code InPlace}, timezone {@code UTC}; dnsPolicy
 *       {@code ClusterFirstWithHostNet} with host networking, otherwise left to the server.
 * </ul>
 */
public record PodSettings(
    String imagePullPolicy,
    List<LocalObjectReference> imagePullSecrets,
    boolean hostNetwork,
    Affinity affinity,
    String priorityClassName,
    String schedulerName,
    SortedMap<String, String> nodeSelector,
    SortedMap<String, String> labels,
    SortedMap<String, String> annotations,
    List<Toleration> tolerations,
    PodSecurityContext podSecurityContext,
    String dnsPolicy,
    PodDNSConfig dnsConfig,
    List<SpreadConstraint> spreadConstraints,
    boolean onDelete,
    String podManagementPolicy,
    boolean configRollingUpdate,
    String timezone) {

  static final String PARALLEL = "Parallel";
  static final String ORDERED_READY = "OrderedReady";
  static final String ON_DELETE = "OnDelete";
  static final String CONFIG_ROLLING_UPDATE = "RollingUpdate";
  static final String DEFAULT_TIMEZONE = "UTC";

  public static PodSettings resolve(TidbClusterSpec cluster, ComponentSpec component) {
    boolean hostNetwork = Boolean.TRUE.equals(first(component.getHostNetwork(), cluster.getHostNetwork()));
    String dnsPolicy = first(component.getDnsPolicy(), cluster.getDnsPolicy());
    if (dnsPolicy == null && hostNetwork) {
      dnsPolicy = "ClusterFirstWithHostNet";
    }
    String policy = first(component.getPodManagementPolicy(), cluster.getPodManagementPolicy());
    String stsStrategy = first(component.getStatefulSetUpdateStrategy(), cluster.getStatefulSetUpdateStrategy());
    String configStrategy = first(component.getConfigUpdateStrategy(), cluster.getConfigUpdateStrategy());
    String tz = cluster.getTimezone();
    return new PodSettings(
        first(component.getImagePullPolicy(), cluster.getImagePullPolicy()),
        nonEmpty(component.getImagePullSecrets(), cluster.getImagePullSecrets()),
        hostNetwork,
        first(component.getAffinity(), cluster.getAffinity()),
        first(component.getPriorityClassName(), cluster.getPriorityClassName()),
        first(component.getSchedulerName(), cluster.getSchedulerName()),
        merge(cluster.getNodeSelector(), component.getNodeSelector()),
        merge(cluster.getLabels(), component.getLabels()),
        merge(cluster.getAnnotations(), component.getAnnotations()),
        nonEmpty(component.getTolerations(), cluster.getTolerations()),
        first(component.getPodSecurityContext(), cluster.getPodSecurityContext()),
        dnsPolicy,
        first(component.getDnsConfig(), cluster.getDnsConfig()),
        nonEmpty(component.getTopologySpreadConstraints(), cluster.getTopologySpreadConstraints()),
        ON_DELETE.equals(stsStrategy),
        ORDERED_READY.equals(policy) ? ORDERED_READY : PARALLEL,
        CONFIG_ROLLING_UPDATE.equals(configStrategy),
        tz == null || tz.isEmpty() ? DEFAULT_TIMEZONE : tz);
  }

  /**
   * The spread constraints as Kubernetes ones: maxSkew 1 unless set, {@code DoNotSchedule}, and a
   * selector of the cluster's and component's labels (a constraint's matchLabels may override the
   * component or instance value, and add keys).
   */
  public List<TopologySpreadConstraint> topologySpreadConstraints(String instance, Component component) {
    if (spreadConstraints == null) {
      return null;
    }
    List<TopologySpreadConstraint> out = new ArrayList<>();
    for (SpreadConstraint c : spreadConstraints) {
      SortedMap<String, String> match = Labels.component(instance, component);
      if (c.getMatchLabels() != null) {
        match.putAll(c.getMatchLabels());
      }
      out.add(new TopologySpreadConstraintBuilder()
          .withTopologyKey(c.getTopologyKey())
          .withMaxSkew(c.getMaxSkew() == null ? 1 : c.getMaxSkew())
          .withWhenUnsatisfiable("DoNotSchedule")
          .withMinDomains(c.getMinDomains())
          .withNodeAffinityPolicy(c.getNodeAffinityPolicy())
          .withNewLabelSelector().withMatchLabels(match).endLabelSelector()
          .build());
    }
    return out;
  }

  private static <T> T first(T preferred, T fallback) {
    return preferred != null ? preferred : fallback;
  }

  private static <T> List<T> nonEmpty(List<T> preferred, List<T> fallback) {
    if (preferred != null && !preferred.isEmpty()) {
      return preferred;
    }
    return fallback == null || fallback.isEmpty() ? null : fallback;
  }

  private static SortedMap<String, String> merge(Map<String, String> base, Map<String, String> over) {
    SortedMap<String, String> out = new TreeMap<>();
    if (base != null) {
      out.putAll(base);
    }
    if (over != null) {
      out.putAll(over);
    }
    return out;
  }
}
