package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Upstream's monitor labels and the owner reference every owned object carries. Pure. */
public final class MonitorLabels {

  public static final String NAME = "app.kubernetes.io/name";
  public static final String INSTANCE = "app.kubernetes.io/instance";
  public static final String COMPONENT = "app.kubernetes.io/component";
  public static final String APP = "app.kubernetes.io/app";
  public static final String USED_BY = "app.kubernetes.io/used-by";

  /** {@code app.kubernetes.io/name}: upstream keeps the Helm chart's value for monitors too. */
  public static final String NAME_VALUE = "tidb-cluster";

  public static final String COMPONENT_VALUE = "monitor";

  /** On cluster-scoped objects, which cannot have an owner reference: the owning monitor. */
  public static final String OWNER_ANNOTATION = "tidb.pingcap.com/tidbmonitor";

  private MonitorLabels() {}

  /** name, managed-by, component and instance: what the StatefulSet selects and the Services select. */
  public static Map<String, String> of(String instance) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(NAME, NAME_VALUE);
    labels.put(OwnedEventSources.MANAGED_BY, OwnedEventSources.MANAGED_BY_VALUE);
    labels.put(COMPONENT, COMPONENT_VALUE);
    labels.put(INSTANCE, instance);
    return labels;
  }

  /** The Services' selector (upstream leaves managed-by out, for monitors made by upstream 1.0). */
  public static Map<String, String> selector(String instance) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(INSTANCE, instance);
    labels.put(NAME, NAME_VALUE);
    labels.put(COMPONENT, COMPONENT_VALUE);
    return labels;
  }

  public static Map<String, String> withApp(String instance, String app) {
    Map<String, String> labels = of(instance);
    labels.put(APP, app);
    return labels;
  }

  public static List<OwnerReference> ownerRefs(TidbMonitor tm) {
    return List.of(new OwnerReferenceBuilder()
        .withApiVersion(TidbMonitor.GROUP + "/" + TidbMonitor.VERSION)
        .withKind("TidbMonitor")
        .withName(tm.getMetadata().getName())
        .withUid(tm.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build());
  }

  /** Maps in order, later ones winning; null maps are skipped. */
  @SafeVarargs
  public static Map<String, String> combine(Map<String, String>... maps) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map<String, String> m : maps) {
      if (m != null) {
        out.putAll(m);
      }
    }
    return out;
  }
}
