package io.tidb.operator.api.v1alpha1.backup;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;

/**
 * One BR restore of a backup into a TidbCluster, run by a Job, as {@code pingcap.com/v1alpha1 Restore}. Field names and meaning follow upstream TiDB Operator v1; unlike upstream, {@code status}
 * is a subresource, and the controller and the backup-manager each own their status fields.
 */
@Group(TidbCluster.GROUP)
@Version(TidbCluster.VERSION)
@Kind("Restore")
@Plural("restores")
@Singular("restore")
@ShortNames("rt")
@Categories("pingcap")
public class Restore extends CustomResource<RestoreSpec, RestoreStatus> implements Namespaced {

  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "restores." + TidbCluster.GROUP;
}
