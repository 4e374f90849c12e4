package io.tidb.operator.pdsim;

/** kvproto {@code metapb.NodeState}: serialised as its number, omitted when Preparing. */
public enum NodeState {
  PREPARING(0),
  SERVING(1),
  REMOVING(2),
  REMOVED(3);

  private final int code;

  NodeState(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
