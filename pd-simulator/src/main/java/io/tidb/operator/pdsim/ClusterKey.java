package io.tidb.operator.pdsim;

import java.util.Objects;

/** Identifies one simulated TiDB cluster: the namespace and name of its TidbCluster. */
public record ClusterKey(String namespace, String name) implements Comparable<ClusterKey> {

  public ClusterKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    if (namespace.isEmpty() || name.isEmpty() || namespace.contains("/") || name.contains("/")) {
      throw new IllegalArgumentException(
          "cluster key needs a non-empty namespace and name without '/', got namespace="
              + namespace + " name=" + name);
    }
  }

  /** Parses {@code <namespace>/<name>}. */
  public static ClusterKey parse(String text) {
    int slash = text.indexOf('/');
    if (slash <= 0 || slash == text.length() - 1 || text.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException(
          "cluster: invalid value \"" + text + "\": expected <namespace>/<name>");
    }
    return new ClusterKey(text.substring(0, slash), text.substring(slash + 1));
  }

  @Override
  public int compareTo(ClusterKey other) {
    int byNamespace = namespace.compareTo(other.namespace);
    return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
