package io.tidb.operator.controller.tidbcluster.pipeline;

/**
 * What the operator is doing to a component right now (scaling or upgrading it), in words for
 * the cluster's {@code Ready} condition: the component that is busy explains why the cluster is
 * not ready, and later components wait for it.
 *
 * @param reason the condition reason, e.g. {@code ScalingIn}
 * @param message one line, e.g. "store 5 (basic-tikv-3) is Offline, 41 regions left; ..."
 */
public record Activity(String reason, String message) {

  public static final String SCALING_IN = "ScalingIn";
  public static final String SCALING_OUT = "ScalingOut";
  public static final String UPGRADING = "Upgrading";
  public static final String REPLACING_VOLUMES = "ReplacingVolumes";
}
