package io.tidb.operator.pdsim;

/** kvproto {@code metapb.StoreState}: serialised as its number, omitted when Up. */
public enum StoreState {
  UP(0, "Up"),
  OFFLINE(1, "Offline"),
  TOMBSTONE(2, "Tombstone");

  private final int code;
  private final String displayName;

  StoreState(int code, String displayName) {
    this.code = code;
    this.displayName = displayName;
  }

  public int code() {
    return code;
  }

  public String displayName() {
    return displayName;
  }
}
