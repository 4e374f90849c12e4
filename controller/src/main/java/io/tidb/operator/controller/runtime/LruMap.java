package io.tidb.operator.controller.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map of at most {@code capacity} entries that drops the least recently used one (read or
 * written) when a new one would exceed it. Not thread-safe: its users lock around it.
 */
final class LruMap<K, V> extends LinkedHashMap<K, V> {

  private static final long serialVersionUID = 1L;

  private final int capacity;

  LruMap(int capacity) {
    super(64, 0.75f, true);
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " must be at least 1");
    }
    this.capacity = capacity;
  }

  @Override
  protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
    return size() > capacity;
  }
}
