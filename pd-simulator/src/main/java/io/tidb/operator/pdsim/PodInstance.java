package io.tidb.operator.pdsim;

/**
 * One pod of a component as the simulator sees it.
 *
 * @param uid the pod's UID: a new UID for the same name is a new pod (possibly new data)
 * @param running whether the pod's phase is Running
 */
public record PodInstance(String name, String uid, boolean running) {}
