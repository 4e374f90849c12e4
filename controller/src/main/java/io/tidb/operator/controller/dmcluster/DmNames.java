package io.tidb.operator.controller.dmcluster;

/** Upstream's object names of a DMCluster {@code <dc>}. */
public final class DmNames {

  private DmNames() {}

  /** StatefulSet, ConfigMap and client Service of dm-master. */
  public static String master(String dc) {
    return dc + "-dm-master";
  }

  /** Headless Service of dm-master (pod DNS names, port 8291 between members). */
  public static String masterPeer(String dc) {
    return dc + "-dm-master-peer";
  }

  /** StatefulSet and ConfigMap of dm-worker. */
  public static String worker(String dc) {
    return dc + "-dm-worker";
  }

  /** Headless Service of dm-worker. */
  public static String workerPeer(String dc) {
    return dc + "-dm-worker-peer";
  }

  /** The discovery service dm-master's start script asks (port 10261). */
  public static String discovery(String dc) {
    return dc + "-dm-discovery";
  }

  /** Pod {@code ordinal} of a StatefulSet. */
  public static String pod(String statefulSet, int ordinal) {
    return statefulSet + "-" + ordinal;
  }
}
