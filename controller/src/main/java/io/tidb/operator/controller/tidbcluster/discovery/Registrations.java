package io.tidb.operator.controller.tidbcluster.discovery;

import java.util.Set;
import java.util.TreeSet;

/**
 * The PD pods that have asked discovery how to start and have not been answered successfully yet,
 * counted for one version of the TidbCluster. Immutable.
 *
 * @param resourceVersion the TidbCluster resourceVersion the count belongs to
 * @param pods pod names
 */
public record Registrations(String resourceVersion, Set<String> pods) {
  public Registrations {
    pods = Set.copyOf(pods);
  }

  /** No pod registered yet for this resourceVersion. */
  public static Registrations empty(String resourceVersion) {
    return new Registrations(resourceVersion, Set.of());
  }

  public Registrations with(String pod) {
    Set<String> next = new TreeSet<>(pods);
    next.add(pod);
    return new Registrations(resourceVersion, next);
  }

  public Registrations without(String pod) {
    Set<String> next = new TreeSet<>(pods);
    next.remove(pod);
    return new Registrations(resourceVersion, next);
  }
}
