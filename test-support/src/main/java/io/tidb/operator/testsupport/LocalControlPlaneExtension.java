package io.tidb.operator.testsupport;

/** Gives tests the full local control plane ({@link LocalControlPlane#shared()}). */
public final class LocalControlPlaneExtension extends ClusterAccessExtension {

  @Override
  ClusterAccess access() {
    return LocalControlPlane.shared();
  }
}
