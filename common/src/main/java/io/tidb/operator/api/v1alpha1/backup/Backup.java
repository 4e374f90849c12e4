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
 * What a Backup does: one BR (or Dumpling) backup of a TidbCluster to S3, GCS, Azure Blob or a volume, run by a Job, as {@code pingcap.com/v1alpha1 Backup}. Field names and meaning follow upstream TiDB Operator v1; unlike upstream, {@code status}
 * is a subresource, and the controller and the backup-manager each own their status fields.
 */
@Group(TidbCluster.GROUP)
@Version(TidbCluster.VERSION)
@Kind("Backup")
@Plural("backups")
@Singular("backup")
@ShortNames("bk")
@Categories("pingcap")
public class Backup extends CustomResource<BackupSpec, BackupStatus> implements Namespaced {

  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "backups." + TidbCluster.GROUP;
}
