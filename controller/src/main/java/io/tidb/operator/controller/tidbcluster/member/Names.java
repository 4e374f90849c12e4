package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.controller.tidbcluster.pipeline.Component;

/**
 * Object and host names derived from a cluster name. Every name the operator gives an object comes
 * from here, so the builders, the reconciler and the discovery service agree on them.
 */
public final class Names {
  private Names() {}

  /** {@code <cluster>-<component>}: the StatefulSet, the client Service and the base ConfigMap name. */
  public static String member(String cluster, Component component) {
    return component.nameIn(cluster);
  }

  /** {@code <cluster>-<component>-peer}: the headless Service that gives pods stable DNS names. */
  public static String peerService(String cluster, Component component) {
    return member(cluster, component) + "-peer";
  }

  /** {@code <cluster>-<component>-<ordinal>}: a StatefulSet pod's name. */
  public static String pod(String cluster, Component component, int ordinal) {
    return member(cluster, component) + "-" + ordinal;
  }

  /**
   * A pod's stable DNS name through its peer Service: {@code <pod>.<peer service>.<namespace>.svc},
   * followed by {@code .<clusterDomain>} when one is set.
   */
  public static String podHost(String pod, String peerService, String namespace, String clusterDomain) {
    String host = pod + "." + peerService + "." + namespace + ".svc";
    return clusterDomain == null || clusterDomain.isEmpty() ? host : host + "." + clusterDomain;
  }
}
