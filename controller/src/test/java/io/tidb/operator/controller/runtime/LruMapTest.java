package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LruMapTest {

  @Test
  void dropsTheLeastRecentlyUsedEntryPastItsCapacity() {
    LruMap<String, Integer> map = new LruMap<>(2);
    map.put("a", 1);
    map.put("b", 2);
    map.get("a"); // read: "b" is now the least recently used
    map.put("c", 3);
    assertEquals(List.of("a", "c"), List.copyOf(map.keySet()));
    map.put("a", 4); // written: "c" is now the least recently used
    map.put("d", 5);
    assertEquals(List.of("a", "d"), List.copyOf(map.keySet()));
    assertEquals(4, map.get("a"));
  }

  @Test
  void refusesACapacityBelowOne() {
    assertThrows(IllegalArgumentException.class, () -> new LruMap<String, String>(0));
  }
}
