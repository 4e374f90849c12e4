package io.tidb.operator.pdsim;

import java.util.ArrayList;
import java.util.List;

/** Every call the simulator answered, in the order the answers were decided. */
public final class CallRecorder {

  private final List<RecordedCall> calls = new ArrayList<>();

  public synchronized void record(RecordedCall call) {
    calls.add(call);
  }

  public synchronized List<RecordedCall> calls() {
    return List.copyOf(calls);
  }

  public synchronized List<RecordedCall> calls(ClusterKey key) {
    return calls.stream().filter(c -> key.equals(c.cluster())).toList();
  }

  public synchronized void clear() {
    calls.clear();
  }
}
