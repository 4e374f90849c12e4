package io.tidb.operator.api.validation.monitor;

import io.tidb.operator.api.v1alpha1.monitor.RemoteWriteSpec;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import io.tidb.operator.api.validation.IpAddresses;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.validation.cluster.StorageRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * TidbMonitor validation: upstream's rules (Service source ranges, a Prometheus retention
 * duration, a storage size when persistent) and what upstream's controller silently gives up on
 * (no cluster to monitor, a shard count below one). Every violation is returned. Pure.
 */
public final class TidbMonitorValidator {

  /** A Prometheus duration: units y, w, d, h, m, s, ms, largest first, e.g. 15d or 1h30m. */
  private static final Pattern PROMETHEUS_DURATION =
      Pattern.compile("^(\\d+y)?(\\d+w)?(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?(\\d+ms)?$");

  private static final Set<String> RELABEL_ACTIONS = Set.of(
      "replace", "keep", "drop", "hashmod", "labelmap", "labeldrop", "labelkeep",
      "lowercase", "uppercase", "keepequal", "dropequal");

  private TidbMonitorValidator() {}

  /** The rules every TidbMonitor must satisfy (on create, update and in the controller). */
  public static List<Violation> validate(TidbMonitor monitor) {
    List<Violation> out = new ArrayList<>();
    TidbMonitorSpec spec = monitor.getSpec();
    if (spec == null) {
      out.add(Violation.required("spec", "a TidbMonitor needs a spec"));
      return out;
    }
    boolean noTidb = spec.getClusters() == null || spec.getClusters().isEmpty();
    boolean noDm = spec.getDm() == null || spec.getDm().getClusters() == null
        || spec.getDm().getClusters().isEmpty();
    if (noTidb && noDm) {
      out.add(Violation.required("spec.clusters",
          "at least one TidbCluster to monitor (or a DMCluster in spec.dm.clusters)"));
    }
    validateRefs("spec.clusters", spec.getClusters(), out);
    if (spec.getDm() != null) {
      validateRefs("spec.dm.clusters", spec.getDm().getClusters(), out);
      if (spec.getDm().getInitializer() == null) {
        out.add(Violation.required("spec.dm.initializer", "the DM dashboards and rules initializer"));
      }
    }
    if (spec.getPrometheus() == null) {
      out.add(Violation.required("spec.prometheus", "the Prometheus container"));
    } else {
      validateService("spec.prometheus.service", spec.getPrometheus().getService(), out);
      String retention = spec.getPrometheus().getRetentionTime();
      if (retention != null && !isPrometheusDuration(retention)) {
        out.add(Violation.invalid("spec.prometheus.retentionTime", retention,
            "must be a Prometheus duration such as 12h, 15d or 1w"));
      }
      validateRemoteWrite(spec.getPrometheus().getRemoteWrite(), out);
    }
    if (spec.getReloader() == null) {
      out.add(Violation.required("spec.reloader", "the alert rules reloader container"));
    } else {
      validateService("spec.reloader.service", spec.getReloader().getService(), out);
    }
    if (spec.getInitializer() == null) {
      out.add(Violation.required("spec.initializer", "the dashboards and rules initializer"));
    }
    if (spec.getGrafana() != null) {
      validateService("spec.grafana.service", spec.getGrafana().getService(), out);
    }
    if (spec.getShards() != null && spec.getShards() < 1) {
      out.add(Violation.invalid("spec.shards", spec.getShards(), "must be at least 1"));
    }
    if (spec.getReplicas() != null && spec.getReplicas() < 0) {
      out.add(Violation.invalid("spec.replicas", spec.getReplicas(), "must be 0 or more"));
    }
    if (Boolean.TRUE.equals(spec.getPersistent())) {
      String storage = spec.getStorage();
      if (storage == null || storage.isEmpty()) {
        out.add(Violation.required("spec.storage",
            "the data volume size, e.g. 10Gi, is required when spec.persistent is true"));
      } else if (!StorageRules.isQuantity(storage)) {
        out.add(Violation.invalid("spec.storage", storage,
            "must be a Kubernetes quantity such as 10Gi or 100G"));
      }
    }
    return out;
  }

  static boolean isPrometheusDuration(String text) {
    return !text.isEmpty() && PROMETHEUS_DURATION.matcher(text).matches();
  }

  private static void validateRefs(String path, List<TidbClusterRef> refs, List<Violation> out) {
    if (refs == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < refs.size(); i++) {
      TidbClusterRef ref = refs.get(i);
      String at = path + "[" + i + "]";
      if (ref == null || ref.getName() == null || ref.getName().isEmpty()) {
        out.add(Violation.required(at + ".name", "the name of the cluster to monitor"));
        continue;
      }
      String key = ref.getNamespace() + "/" + ref.getName();
      if (!seen.add(key)) {
        out.add(new Violation(at, Violation.Type.DUPLICATE, key,
            "each cluster may be referenced once"));
      }
    }
  }

  private static void validateRemoteWrite(List<RemoteWriteSpec> remoteWrite, List<Violation> out) {
    if (remoteWrite == null) {
      return;
    }
    for (int i = 0; i < remoteWrite.size(); i++) {
      RemoteWriteSpec rw = remoteWrite.get(i);
      String at = "spec.prometheus.remoteWrite[" + i + "]";
      if (rw == null || rw.getUrl() == null || rw.getUrl().isEmpty()) {
        out.add(Violation.required(at + ".url", "the URL samples are written to"));
        continue;
      }
      if (rw.getWriteRelabelConfigs() != null) {
        for (int j = 0; j < rw.getWriteRelabelConfigs().size(); j++) {
          String action = rw.getWriteRelabelConfigs().get(j).getAction();
          if (action != null && !action.isEmpty() && !RELABEL_ACTIONS.contains(action.toLowerCase())) {
            out.add(Violation.notSupported(at + ".writeRelabelConfigs[" + j + "].action", action,
                "supported values: " + String.join(", ", RELABEL_ACTIONS.stream().sorted().toList())));
          }
        }
      }
    }
  }

  private static void validateService(String path, ServiceSpec service, List<Violation> out) {
    if (service == null || service.getLoadBalancerSourceRanges() == null) {
      return;
    }
    List<String> ranges = service.getLoadBalancerSourceRanges();
    for (int i = 0; i < ranges.size(); i++) {
      String range = ranges.get(i);
      if (range == null || !IpAddresses.isCidr(range.trim())) {
        out.add(Violation.invalid(path + ".loadBalancerSourceRanges[" + i + "]", range,
            "must be a CIDR such as 10.0.0.0/8 or fd00::/8"));
      }
    }
  }
}
