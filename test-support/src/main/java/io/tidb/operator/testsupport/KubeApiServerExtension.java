package io.tidb.operator.testsupport;

/** Gives tests the JVM's shared API server ({@link KubeApiServers#shared()}). */
public final class KubeApiServerExtension extends ClusterAccessExtension {

  @Override
  ClusterAccess access() {
    return KubeApiServers.shared();
  }
}
