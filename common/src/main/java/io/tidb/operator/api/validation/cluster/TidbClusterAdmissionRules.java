package io.tidb.operator.api.validation.cluster;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.defaulting.cluster.TidbClusterDefaulter;
import io.tidb.operator.api.v1alpha1.cluster.Components.Member;
import io.tidb.operator.api.v1alpha1.cluster.Components;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * TidbCluster admission: upstream's defaulting, its validation rules checked on the defaulted
 * object (as upstream's controller does), the components this operator does not manage ({@link
 * UnmanagedComponentRules}, refused on create and update), and warnings for deprecated fields.
 */
public final class TidbClusterAdmissionRules implements AdmissionRules<TidbCluster> {

  @Override
  public Class<TidbCluster> resourceType() {
    return TidbCluster.class;
  }

  @Override
  public List<Violation> validateCreateDefaulted(TidbCluster defaulted) {
    List<Violation> out = TidbClusterValidator.validateCreate(defaulted);
    out.addAll(UnmanagedComponentRules.violations(defaulted.getSpec()));
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(TidbCluster oldDefaulted, TidbCluster newDefaulted) {
    List<Violation> out = TidbClusterValidator.validateUpdate(oldDefaulted, newDefaulted);
    out.addAll(UnmanagedComponentRules.violations(newDefaulted.getSpec()));
    return out;
  }

  /**
   * Upstream's controller checks only {@link TidbClusterValidator#validate} on stored objects. The
   * unmanaged components are not among them: the controller keeps healing the components it does
   * manage and reports the others through {@code Ready=False} instead.
   */
  @Override
  public List<Violation> validateStoredDefaulted(TidbCluster defaulted) {
    return TidbClusterValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(TidbCluster obj) {
    List<String> out = new ArrayList<>();
    TidbClusterSpec spec = obj.getSpec();
    if (spec == null) {
      return out;
    }
    for (Member m : Components.members(spec)) {
      if (m.spec().getImage() != null && !m.spec().getImage().isEmpty()) {
        out.add(m.path() + ".image is deprecated; use " + m.path() + ".baseImage and "
            + m.path() + ".version (or spec.version)");
      }
    }
    if (spec.getServices() != null && !spec.getServices().isEmpty()) {
      out.add("spec.services is deprecated; use the service field of each component, e.g. spec.tidb.service");
    }
    if (spec.getPd() != null && spec.getPd().getEnableDashboardInternalProxy() != null) {
      out.add("spec.pd.enableDashboardInternalProxy is deprecated; set dashboard.internal-proxy in spec.pd.config");
    }
    return out;
  }

  @Override
  public TidbCluster defaultInPlace(TidbCluster obj, FilledDefaults filled) {
    return TidbClusterDefaulter.defaultInPlace(obj, filled);
  }
}
