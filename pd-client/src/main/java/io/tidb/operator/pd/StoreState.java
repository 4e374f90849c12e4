package io.tidb.operator.pd;

import java.util.Arrays;

/** A store's {@code state_name} as PD shows it. */
public enum StoreState {
  UP("Up"),
  DISCONNECTED("Disconnected"),
  DOWN("Down"),
  OFFLINE("Offline"),
  TOMBSTONE("Tombstone");

  private final String stateName;

  StoreState(String stateName) {
    this.stateName = stateName;
  }

  /** PD's name, e.g. "Up". */
  public String stateName() {
    return stateName;
  }

  static StoreState fromStateName(String name) {
    return Arrays.stream(values())
        .filter(s -> s.stateName.equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("store.state_name: unknown value \""
            + name + "\": expected one of Up, Disconnected, Down, Offline, Tombstone"));
  }
}
