package io.tidb.operator.api.validation.initializer;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * TidbInitializer admission: the same rules on create, update and stored objects (upstream has no
 * create-only rule for this kind). Upstream defines no defaults for it either ({@code permitHost}
 * unset means {@code %} where it is used), so {@link #withDefaults} is a copy.
 */
public final class TidbInitializerAdmissionRules implements AdmissionRules<TidbInitializer> {

  @Override
  public Class<TidbInitializer> resourceType() {
    return TidbInitializer.class;
  }

  @Override
  public List<Violation> validateCreateDefaulted(TidbInitializer obj) {
    List<Violation> out = new ArrayList<>(TidbInitializerValidator.validate(obj));
    // the Job is named after the cluster it initializes: <cluster>-tidb-initializer
    String cluster = obj.getSpec() == null || obj.getSpec().getCluster() == null
        ? null : obj.getSpec().getCluster().getName();
    if (cluster != null) {
      DerivedNameLengths.check("spec.cluster.name", cluster, cluster.length(),
          List.of(DerivedNameLengths.Derived.job("", "-tidb-initializer")), out);
    }
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(TidbInitializer oldObj, TidbInitializer newObj) {
    return TidbInitializerValidator.validate(newObj);
  }

  @Override
  public List<Violation> validateStoredDefaulted(TidbInitializer defaulted) {
    return TidbInitializerValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(TidbInitializer obj) {
    return TidbInitializerValidator.warnings(obj);
  }

  /** Nothing to default: the object itself. */
  @Override
  public TidbInitializer defaultInPlace(TidbInitializer obj, FilledDefaults filled) {
    return obj;
  }
}
