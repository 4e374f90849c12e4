package io.tidb.operator.controller.tidbcluster.pipeline;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The persistent volume claims of one cluster's namespace, read from and written to the API server
 * directly (the StatefulSet controller creates them; the operator only marks and removes them, so
 * no informer is kept). Tests use an in-memory fake.
 */
public interface VolumeClaims {

  Optional<PersistentVolumeClaim> get(String name);

  /** The claims carrying every one of {@code labels}, by name. */
  List<PersistentVolumeClaim> list(Map<String, String> labels);

  /** Merges one annotation into the claim; a claim that is gone is left alone. */
  void annotate(String name, String key, String value);

  /**
   * Deletes the claim if it still has {@code uid} (so a claim recreated meanwhile for a new pod is
   * never deleted by mistake).
   */
  void delete(String name, String uid);
}
