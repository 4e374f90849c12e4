package io.tidb.operator.controller.dmcluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Upstream's labels on everything a DMCluster owns: {@code app.kubernetes.io/name=dm-cluster},
 * {@code managed-by=tidb-operator}, {@code instance=<instance>}, {@code component=dm-master|dm-worker}
 * and on Services {@code used-by=end-user|peer}. Maps are sorted, mutable copies.
 */
public final class DmLabels {

  public static final String NAME_VALUE = "dm-cluster";
  public static final String MASTER = "dm-master";
  public static final String WORKER = "dm-worker";

  private DmLabels() {}

  /** The instance label value: the DMCluster's own {@code app.kubernetes.io/instance} or its name. */
  public static String instanceOf(HasMetadata dc) {
    return Labels.instanceOf(dc);
  }

  public static SortedMap<String, String> component(String instance, String component) {
    SortedMap<String, String> out = new TreeMap<>();
    out.put(Labels.NAME, NAME_VALUE);
    out.put(Labels.MANAGED_BY, OwnedEventSources.MANAGED_BY_VALUE);
    out.put(Labels.INSTANCE, instance);
    out.put(Labels.COMPONENT, component);
    return out;
  }

  public static SortedMap<String, String> service(String instance, String component, boolean peer) {
    SortedMap<String, String> out = component(instance, component);
    out.put(Labels.USED_BY, peer ? Labels.USED_BY_PEER : Labels.USED_BY_END_USER);
    return out;
  }
}
