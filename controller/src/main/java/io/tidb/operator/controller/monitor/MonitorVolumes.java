package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.Optional;

/**
 * The monitor's data claims and the PersistentVolumes bound to them, for {@code
 * spec.pvReclaimPolicy}. {@link KubeMonitorVolumes} is the real one; tests use an in-memory one.
 */
public interface MonitorVolumes {

  Optional<PersistentVolumeClaim> claim(String namespace, String name);

  /** The volume, or empty when it does not exist or the operator may not read volumes. */
  Optional<PersistentVolume> volume(String name);

  void setReclaimPolicy(String volume, String policy);
}
