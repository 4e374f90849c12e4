package io.tidb.operator.controller.tidbcluster.pipeline;

/**
 * A component's identity: its {@code app.kubernetes.io/component} label value, which is also the
 * object-name infix ({@code <cluster>-<label>} is the StatefulSet, client Service and base
 * ConfigMap, {@code <cluster>-<label>-peer} the headless Service). Each component's package
 * declares its own; those other components address are in {@link ClusterAddresses}.
 */
public record Component(String label) {

  /** {@code <cluster>-<label>}: the component's StatefulSet (or Deployment), Service and ConfigMap. */
  public String nameIn(String cluster) {
    return cluster + "-" + label;
  }
}
