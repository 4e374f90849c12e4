package io.tidb.operator.pdsim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The active fault rules; the first matching rule applies, and counted rules run out. */
public final class FaultInjector {

  /** An installed rule and how many more requests it affects (0 = unlimited). */
  public record ActiveFault(int id, FaultRule rule, int remaining) {}

  private final Map<Integer, ActiveFault> faults = new LinkedHashMap<>();
  private int nextId = 1;

  /** Installs a rule and returns its id. */
  public synchronized int add(FaultRule rule) {
    int id = nextId++;
    faults.put(id, new ActiveFault(id, rule, rule.times()));
    return id;
  }

  public synchronized boolean remove(int id) {
    return faults.remove(id) != null;
  }

  public synchronized void clear() {
    faults.clear();
  }

  public synchronized List<ActiveFault> active() {
    return new ArrayList<>(faults.values());
  }

  /** The rule for one request, if any, counting the use. */
  public synchronized Optional<ActiveFault> take(
      ClusterKey key, String component, String instance, String method, String path) {
    for (ActiveFault fault : faults.values()) {
      if (!fault.rule().matches(key, component, instance, method, path)) {
        continue;
      }
      if (fault.remaining() == 1) {
        faults.remove(fault.id());
      } else if (fault.remaining() > 1) {
        faults.put(fault.id(), new ActiveFault(fault.id(), fault.rule(), fault.remaining() - 1));
      }
      return Optional.of(fault);
    }
    return Optional.empty();
  }
}
