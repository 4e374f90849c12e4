package io.tidb.operator.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
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
 * <p>The printer columns repeat upstream's {@code kubectl get tc} output, plus nothing else.
 */
@Group(TidbCluster.GROUP)
@Version(TidbCluster.VERSION)
@Kind("TidbCluster")
@Plural("tidbclusters")
@Singular("tidbcluster")
@ShortNames("tc")
@Categories("pingcap")
@AdditionalPrinterColumn(
    name = "Ready",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    getDescription = "Whether every component of the cluster is up")
@AdditionalPrinterColumn(
    name = "PD",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.pd.image",
    getDescription = "The image for PD cluster")
@AdditionalPrinterColumn(
    name = "Storage",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.pd.requests.storage",
    getDescription = "The storage size specified for PD node")
@AdditionalPrinterColumn(
    name = "Ready",
    type = AdditionalPrinterColumn.Type.INTEGER,
    jsonPath = ".status.pd.statefulSet.readyReplicas",
    getDescription = "The ready replicas number of PD cluster")
@AdditionalPrinterColumn(
    name = "Desire",
    type = AdditionalPrinterColumn.Type.INTEGER,
    jsonPath = ".spec.pd.replicas",
    getDescription = "The desired replicas number of PD cluster")
@AdditionalPrinterColumn(
    name = "TiKV",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.tikv.image",
    getDescription = "The image for TiKV cluster")
@AdditionalPrinterColumn(
    name = "Storage",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.tikv.requests.storage",
    getDescription = "The storage size specified for TiKV node")
@AdditionalPrinterColumn(
    name = "Ready",
    type = AdditionalPrinterColumn.Type.INTEGER,
    jsonPath = ".status.tikv.statefulSet.readyReplicas",
    getDescription = "The ready replicas number of TiKV cluster")
@AdditionalPrinterColumn(
    name = "Desire",
    type = AdditionalPrinterColumn.Type.INTEGER,
    jsonPath = ".spec.tikv.replicas",
    getDescription = "The desired replicas number of TiKV cluster")
@AdditionalPrinterColumn(
    name = "TiDB",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.tidb.image",
    getDescription = "The image for TiDB cluster")
@AdditionalPrinterColumn(
    name = "Ready",
    type = AdditionalPrinterColumn.Type.INTEGER,
    jsonPath = ".status.tidb.statefulSet.readyReplicas",
    getDescription = "The ready replicas number of TiDB cluster")
@AdditionalPrinterColumn(
    name = "Desire",
    type = AdditionalPrinterColumn.Type.INTEGER,
    jsonPath = ".spec.tidb.replicas",
    getDescription = "The desired replicas number of TiDB cluster")
@AdditionalPrinterColumn(
    name = "Status",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].message",
    priority = 1,
    getDescription = "Why the cluster is or is not ready")
@AdditionalPrinterColumn(
    name = "Age",
    type = AdditionalPrinterColumn.Type.DATE,
    jsonPath = ".metadata.creationTimestamp",
    getDescription = "Time since the cluster was created")
public class TidbCluster extends CustomResource<TidbClusterSpec, TidbClusterStatus>
    implements Namespaced {

  public static final String GROUP = "pingcap.com";
  public static final String VERSION = "v1alpha1";
  /** Name of the CustomResourceDefinition. */
  public static final String CRD_NAME = "tidbclusters." + GROUP;
}
