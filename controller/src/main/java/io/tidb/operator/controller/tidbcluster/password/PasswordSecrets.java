package io.tidb.operator.controller.tidbcluster.password;

import io.fabric8.kubernetes.api.model.Secret;
import java.util.Optional;

/**
 * The generated-password Secret of a cluster, read by name and created only when absent: it is
 * never updated, so a password once generated stays. Tests use an in-memory fake.
 */
public interface PasswordSecrets {

  Optional<Secret> get(String namespace, String name);

  /**
   * Creates {@code secret}; when one of its name exists already (created since it was read), that
   * one is returned unchanged.
   */
  Secret createIfAbsent(Secret secret);
}
