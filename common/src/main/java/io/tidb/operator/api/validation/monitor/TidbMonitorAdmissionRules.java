package io.tidb.operator.api.validation.monitor;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.defaulting.monitor.TidbMonitorDefaulter;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * TidbMonitor admission: the defaults, then the same rules on create, update and stored objects
 * (upstream has no create-only or update-only TidbMonitor rules), and warnings for the deprecated
 * plain-text Grafana credentials.
 */
public final class TidbMonitorAdmissionRules implements AdmissionRules<TidbMonitor> {

  @Override
  public Class<TidbMonitor> resourceType() {
    return TidbMonitor.class;
  }

  @Override
  public List<Violation> validateStoredDefaulted(TidbMonitor defaulted) {
    return TidbMonitorValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(TidbMonitor obj) {
    List<String> out = new ArrayList<>();
    TidbMonitorSpec spec = obj.getSpec();
    if (spec == null || spec.getGrafana() == null) {
      return out;
    }
    if (spec.getGrafana().getPassword() != null && spec.getGrafana().getPasswordSecret() == null) {
      out.add("spec.grafana.password is stored in plain text in the TidbMonitor; use spec.grafana.passwordSecret");
    }
    if (spec.getGrafana().getUsername() != null && spec.getGrafana().getUsernameSecret() == null) {
      out.add("spec.grafana.username is deprecated; use spec.grafana.usernameSecret");
    }
    return out;
  }

  @Override
  public TidbMonitor defaultInPlace(TidbMonitor obj, FilledDefaults filled) {
    return TidbMonitorDefaulter.defaultInPlace(obj, filled);
  }

  @Override
  public List<Violation> validateCreateDefaulted(TidbMonitor defaulted) {
    List<Violation> out = new ArrayList<>(TidbMonitorValidator.validate(defaulted));
    // <tm>-monitor is the StatefulSet, <tm>-monitor-reloader the longest Service; a second shard
    // on adds -shard-<n> to both
    Integer shards = defaulted.getSpec() == null ? null : defaulted.getSpec().getShards();
    String shard = shards == null || shards <= 1 ? "" : "-shard-" + (shards - 1);
    DerivedNameLengths.check(defaulted.getMetadata(), List.of(
        DerivedNameLengths.Derived.statefulSet("", "-monitor" + shard),
        DerivedNameLengths.Derived.service("", "-monitor-reloader" + shard)), out);
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(TidbMonitor oldDefaulted, TidbMonitor newDefaulted) {
    return TidbMonitorValidator.validate(newDefaulted);
  }
}
