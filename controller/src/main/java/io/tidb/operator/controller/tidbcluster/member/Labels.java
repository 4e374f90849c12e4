package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code app.kubernetes.io/*} labels upstream TiDB Operator puts on everything it creates, so
 * tools and queries written for upstream keep working.
 *
 * <ul>
 *   <li>{@code app.kubernetes.io/name=tidb-cluster}
 *   <li>{@code app.kubernetes.io/managed-by=tidb-operator}
 *   <li>{@code app.kubernetes.io/instance=<instance>}: the cluster's own {@code app.kubernetes.io/instance}
 *       label if it has one (Helm-installed clusters), else its name — see {@link #instanceOf}
 *   <li>{@code app.kubernetes.io/component=pd|tikv|tidb|discovery}
 *   <li>Services only: {@code app.kubernetes.io/used-by=end-user} on client Services, {@code peer} on
 *       headless ones.
 * </ul>
 *
 * <p>All maps returned are sorted and mutable copies.
 */
public final class Labels {
  public static final String NAME = "app.kubernetes.io/name";
  public static final String INSTANCE = OwnedEventSources.INSTANCE;
  public static final String COMPONENT = OwnedEventSources.COMPONENT;
  public static final String MANAGED_BY = OwnedEventSources.MANAGED_BY;
  public static final String USED_BY = "app.kubernetes.io/used-by";

  public static final String NAME_VALUE = "tidb-cluster";
  public static final String MANAGED_BY_VALUE = OwnedEventSources.MANAGED_BY_VALUE;
  public static final String USED_BY_END_USER = "end-user";
  public static final String USED_BY_PEER = "peer";

  private Labels() {}

  /** The instance label value for a cluster: its {@code app.kubernetes.io/instance} label, else its name. */
  public static String instanceOf(HasMetadata cluster) {
    Map<String, String> labels = cluster.getMetadata().getLabels();
    String instance = labels == null ? null : labels.get(INSTANCE);
    return instance == null ? cluster.getMetadata().getName() : instance;
  }

  /** Labels selecting every object of one cluster: name, managed-by, instance. */
  public static SortedMap<String, String> cluster(String instance) {
    SortedMap<String, String> labels = new TreeMap<>();
    labels.put(NAME, NAME_VALUE);
    labels.put(MANAGED_BY, MANAGED_BY_VALUE);
    labels.put(INSTANCE, instance);
    return labels;
  }

  /**
   * Labels selecting one component of one cluster. This is the StatefulSet/Deployment selector and
   * the Service selector, so it must never change for an existing cluster.
   */
  public static SortedMap<String, String> component(String instance, Component component) {
    SortedMap<String, String> labels = cluster(instance);
    labels.put(COMPONENT, component.label());
    return labels;
  }

  /** {@link #component} plus {@code used-by=end-user}: labels of a client Service. */
  public static SortedMap<String, String> clientService(String instance, Component component) {
    SortedMap<String, String> labels = component(instance, component);
    labels.put(USED_BY, USED_BY_END_USER);
    return labels;
  }

  /** {@link #component} plus {@code used-by=peer}: labels of a headless peer Service. */
  public static SortedMap<String, String> peerService(String instance, Component component) {
    SortedMap<String, String> labels = component(instance, component);
    labels.put(USED_BY, USED_BY_PEER);
    return labels;
  }
}
