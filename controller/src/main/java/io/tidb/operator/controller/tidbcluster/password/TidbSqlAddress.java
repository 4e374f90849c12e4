package io.tidb.operator.controller.tidbcluster.password;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.net.InetSocketAddress;

/** Where the operator reaches a cluster's TiDB over the MySQL protocol (its client Service). */
@FunctionalInterface
public interface TidbSqlAddress {

  /** An unresolved {@code host:port}. */
  InetSocketAddress of(TidbCluster tc);
}
