package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;

/**
 * The controller owner reference every object built here carries, so Kubernetes garbage-collects it
 * when its {@code TidbCluster} is deleted.
 */
public final class OwnerRefs {
  public static final String API_VERSION = "pingcap.com/v1alpha1";
  public static final String KIND = "TidbCluster";

  private OwnerRefs() {}

  /**
   * {@code apiVersion=pingcap.com/v1alpha1, kind=TidbCluster, name, uid, controller=true,
   * blockOwnerDeletion=true} for the given cluster.
   *
   * @throws IllegalArgumentException when the cluster has no uid yet (it was never stored)
   */
  public static OwnerReference controllerRef(HasMetadata cluster) {
    String uid = cluster.getMetadata().getUid();
    if (uid == null || uid.isEmpty()) {
      throw new IllegalArgumentException(
          "metadata.uid of TidbCluster " + cluster.getMetadata().getName()
              + " is empty: owner references need the uid of a stored object");
    }
    return new OwnerReferenceBuilder()
        .withApiVersion(API_VERSION)
        .withKind(KIND)
        .withName(cluster.getMetadata().getName())
        .withUid(uid)
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /** {@link #controllerRef} as the single-element list object metadata expects. */
  public static List<OwnerReference> of(HasMetadata cluster) {
    return List.of(controllerRef(cluster));
  }
}
