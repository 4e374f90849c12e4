package io.tidb.operator.api.validation.dm;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.defaulting.dm.DmClusterDefaulter;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmClusterSpec;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * DMCluster admission: the defaults, then the same rules on create, update and stored objects
 * (upstream has no create-only or update-only DMCluster rules), and a warning for the deprecated
 * {@code spec.discovery.address}.
 */
public final class DmClusterAdmissionRules implements AdmissionRules<DmCluster> {

  @Override
  public Class<DmCluster> resourceType() {
    return DmCluster.class;
  }

  @Override
  public List<Violation> validateStoredDefaulted(DmCluster defaulted) {
    return DmClusterValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(DmCluster obj) {
    List<String> out = new ArrayList<>();
    DmClusterSpec spec = obj.getSpec();
    if (spec != null && spec.getDiscovery() != null && spec.getDiscovery().getAddress() != null
        && !spec.getDiscovery().getAddress().isEmpty()) {
      out.add("spec.discovery.address is deprecated; the DMCluster runs its own discovery service");
    }
    return out;
  }

  @Override
  public DmCluster defaultInPlace(DmCluster obj, FilledDefaults filled) {
    return DmClusterDefaulter.defaultInPlace(obj, filled);
  }

  @Override
  public List<Violation> validateCreateDefaulted(DmCluster defaulted) {
    List<Violation> out = new ArrayList<>(DmClusterValidator.validate(defaulted));
    List<DerivedNameLengths.Derived> derived = new ArrayList<>();
    derived.add(DerivedNameLengths.Derived.statefulSet("", "-dm-master"));
    if (defaulted.getSpec() != null && defaulted.getSpec().getWorker() != null) {
      derived.add(DerivedNameLengths.Derived.statefulSet("", "-dm-worker"));
    }
    DerivedNameLengths.check(defaulted.getMetadata(), derived, out);
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(DmCluster oldDefaulted, DmCluster newDefaulted) {
    return DmClusterValidator.validate(newDefaulted);
  }
}
