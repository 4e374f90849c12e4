package io.tidb.operator.api.v1alpha1.cluster;

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
 * A TiDB cluster: PD, TiKV, TiDB and optional TiFlash, TiCDC, TiProxy and Pump, as {@code
 * pingcap.com/v1alpha1 TidbCluster}. Field names and meaning follow upstream TiDB Operator v1;
 * unlike upstream, {@code status} is a subresource.
 *
 * <p>The printer columns are added after generation by {@link
 * io.tidb.operator.api.crd.TidbClusterCrd}, because the generator sorts them by JSON path.
 */
@Group(TidbCluster.GROUP)
@Version(TidbCluster.VERSION)
@Kind("TidbCluster")
@Plural("tidbclusters")
@Singular("tidbcluster")
@ShortNames("tc")
@Categories("pingcap")
public class TidbCluster extends CustomResource<TidbClusterSpec, TidbClusterStatus>
    implements Namespaced {

  public static final String GROUP = "pingcap.com";
  public static final String VERSION = "v1alpha1";
  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "tidbclusters." + GROUP;
}
