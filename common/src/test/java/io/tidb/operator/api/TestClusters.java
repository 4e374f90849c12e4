package io.tidb.operator.api;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;

/** Small TidbClusters for tests, written as users write them. */
public final class TestClusters {
  private TestClusters() {}

  /** PD, TiKV and TiDB with storage and a cluster version: valid as is. */
  public static final String BASIC = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbCluster
      metadata:
        name: basic
        namespace: db
      spec:
        version: v8.5.0
        pd:
          baseImage: pingcap/pd
          replicas: 3
          requests:
            storage: 10Gi
          config: {}
        tikv:
          baseImage: pingcap/tikv
          replicas: 3
          requests:
            storage: 100Gi
          config: {}
        tidb:
          baseImage: pingcap/tidb
          replicas: 2
          service:
            type: ClusterIP
          config: {}
      """;

  public static TidbCluster basic() {
    return parse(BASIC);
  }

  public static TidbCluster parse(String yaml) {
    return ApiObjects.parse(yaml, TidbCluster.class);
  }
}
