package io.tidb.operator.controller.status;

/** The store state names PD reports in {@code state_name}. */
public final class StoreStates {
  public static final String UP = "Up";
  public static final String DOWN = "Down";
  public static final String OFFLINE = "Offline";
  public static final String TOMBSTONE = "Tombstone";
  public static final String DISCONNECTED = "Disconnected";

  private StoreStates() {}
}
