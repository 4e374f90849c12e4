package io.tidb.operator.controller.tidbcluster.tls;

import io.fabric8.kubernetes.api.model.Secret;
import java.util.Optional;

/** Reads one Secret by name (the operator never lists or watches Secrets). */
@FunctionalInterface
public interface ClientSecretSource {
  Optional<Secret> get(String namespace, String name);
}
