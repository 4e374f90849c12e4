package io.tidb.operator.api.v1alpha1.dm;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A TiDB Data Migration cluster: dm-master members and dm-worker members, as {@code
 * pingcap.com/v1alpha1 DMCluster}. Field names and meaning follow upstream TiDB Operator v1;
 * unlike upstream, {@code status} is a subresource.
 *
 * <p>The printer columns are added after generation by {@link io.tidb.operator.api.crd.DmClusterCrd}.
 */
@Group(DmCluster.GROUP)
@Version(DmCluster.VERSION)
@Kind("DMCluster")
@Plural("dmclusters")
@Singular("dmcluster")
@ShortNames("dc")
@Categories("pingcap")
public class DmCluster extends CustomResource<DmClusterSpec, DmClusterStatus> implements Namespaced {

  public static final String GROUP = "pingcap.com";
  public static final String VERSION = "v1alpha1";
  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "dmclusters." + GROUP;
}
