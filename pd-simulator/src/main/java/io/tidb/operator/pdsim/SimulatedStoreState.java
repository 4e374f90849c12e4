package io.tidb.operator.pdsim;

/** kvproto {@code metapb.SimulatedStoreState}: serialised as its number, omitted when Up. */
public enum SimulatedStoreState {
  UP(0, "Up"),
  OFFLINE(1, "Offline"),
  TOMBSTONE(2, "Tombstone");

  private final int code;
  private final String displayName;

  SimulatedStoreState(int code, String displayName) {
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
