package io.tidb.operator.pdsim;

/**
 * One pod of a component as the simulator sees it.
 *
 * @param uid the pod's UID: a new UID for the same name is a new pod (possibly new data)
 * @param running whether the pod runs: phase Running and not marked not Ready
 * @param terminating whether the pod is being deleted (it has a deletion timestamp); it may still
 *     run until it is gone
 * @param version the tag of the image its main container runs (e.g. {@code v8.5.7}); null when
 *     unknown
 */
public record PodInstance(String name, String uid, boolean running, boolean terminating,
    String version) {

  /** A pod whose version is not known. */
  public PodInstance(String name, String uid, boolean running, boolean terminating) {
    this(name, uid, running, terminating, null);
  }

  /** A pod that is not being deleted. */
  public PodInstance(String name, String uid, boolean running) {
    this(name, uid, running, false);
  }
}
