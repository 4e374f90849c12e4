package io.tidb.operator.pd;

/**
 * {@code GET /pd/api/v1/cluster} ({@code metapb.Cluster}).
 *
 * @param id unsigned 64-bit cluster id (see {@link #idText()})
 * @param maxPeerCount replication.max-replicas
 */
public record PdCluster(long id, int maxPeerCount) {

  /** The cluster id in decimal, as upstream stores it in {@code status.clusterID}. */
  public String idText() {
    return Long.toUnsignedString(id);
  }
}
