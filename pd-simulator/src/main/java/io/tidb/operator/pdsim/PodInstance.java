package io.tidb.operator.pdsim;

/**
 * One pod of a component as the simulator sees it.
 *
 * @param uid the pod's UID: a new UID for the same name is a new pod (possibly new data)
 * @param running whether the pod runs: phase Running and not marked not Ready
 * @param terminating whether the pod is being deleted (it has a deletion timestamp); it may still
 *     run until it is gone
 */
public record PodInstance(String name, String uid, boolean running, boolean terminating) {

  /** A pod that is not being deleted. */
  public PodInstance(String name, String uid, boolean running) {
    this(name, uid, running, false);
  }
}
