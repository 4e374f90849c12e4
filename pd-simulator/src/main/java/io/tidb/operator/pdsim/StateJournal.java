package io.tidb.operator.pdsim;

import io.tidb.operator.pdsim.JournalEntry.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The transition journal of one simulated cluster. The cluster hands it a {@link Snapshot} of
 * what the journal tracks after every change; the journal compares it with the last one and
 * appends one {@link JournalEntry} per difference, each with the counts after that single
 * difference (a change made of several, e.g. one pod sync, is replayed in a fixed order: members,
 * leader, replication, stores by id, evict-leader). Comparing snapshots rather than instrumenting
 * each mutation means no transition can be missed. Not thread-safe: the cluster's lock guards it.
 */
final class StateJournal {

  /** What the journal tracks of one store. */
  record StoreMark(
      StoreEngine engine, String pod, SimulatedStoreState state, boolean heartbeating,
      boolean podBacked, boolean podRemoved) {}

  /**
   * What the journal tracks of a cluster.
   *
   * @param members member name → healthy, in join order
   */
  record Snapshot(
      Map<String, Boolean> members, String leader, int maxReplicas,
      Map<Long, StoreMark> stores, List<Long> evictLeaderStores) {
    static final Snapshot EMPTY = new Snapshot(Map.of(), null, 0, Map.of(), List.of());
  }

  private final List<JournalEntry> entries = new ArrayList<>();
  private Snapshot last = Snapshot.EMPTY;
  private boolean replicationSeen;

  List<JournalEntry> entries() {
    return List.copyOf(entries);
  }

  /** Appends one entry per difference between the last snapshot and {@code now}. */
  void record(Snapshot now, Instant time) {
    Work work = new Work(last);
    for (Map.Entry<String, Boolean> member : now.members().entrySet()) {
      Boolean before = work.members.get(member.getKey());
      if (before == null) {
        work.members.put(member.getKey(), member.getValue());
        append(time, Event.MEMBER_ADDED, null, null, member.getKey(), work);
      } else if (!before.equals(member.getValue())) {
        work.members.put(member.getKey(), member.getValue());
        append(time, member.getValue() ? Event.MEMBER_HEALTHY : Event.MEMBER_UNHEALTHY,
            null, null, member.getKey(), work);
      }
    }
    for (String name : List.copyOf(work.members.keySet())) {
      if (!now.members().containsKey(name)) {
        work.members.remove(name);
        append(time, Event.MEMBER_DELETED, null, null, name, work);
      }
    }
    if (!Objects.equals(work.leader, now.leader())) {
      work.leader = now.leader();
      append(time, Event.LEADER_CHANGED, null, null, now.leader(), work);
    }
    // The first snapshot's replication config is the default, not a change.
    if (work.maxReplicas != now.maxReplicas()) {
      work.maxReplicas = now.maxReplicas();
      if (replicationSeen) {
        append(time, Event.REPLICATION_CHANGED, null, null, null, work);
      }
    }
    replicationSeen = true;
    for (Map.Entry<Long, StoreMark> entry : now.stores().entrySet()) {
      long id = entry.getKey();
      StoreMark mark = entry.getValue();
      StoreMark before = work.stores.get(id);
      if (before == null) {
        work.stores.put(id, mark);
        append(time, Event.STORE_JOINED, id, mark.pod(), null, work);
        continue;
      }
      if (before.state() != mark.state()) {
        before = withState(before, mark.state());
        work.stores.put(id, before);
        append(time, switch (mark.state()) {
          case UP -> Event.STORE_UP;
          case OFFLINE -> Event.STORE_OFFLINE;
          case TOMBSTONE -> Event.STORE_TOMBSTONE;
        }, id, mark.pod(), null, work);
      }
      if (before.heartbeating() != mark.heartbeating()) {
        before = new StoreMark(before.engine(), before.pod(), before.state(), mark.heartbeating(),
            before.podBacked(), before.podRemoved());
        work.stores.put(id, before);
        append(time, mark.heartbeating() ? Event.STORE_HEARTBEAT_RESUMED
            : Event.STORE_HEARTBEAT_LOST, id, mark.pod(), null, work);
      }
      if (before.podRemoved() != mark.podRemoved() || before.podBacked() != mark.podBacked()) {
        work.stores.put(id, mark);
        if (mark.podRemoved() && !before.podRemoved()) {
          append(time, Event.STORE_POD_REMOVED, id, mark.pod(), null, work);
        }
      }
    }
    for (Long id : now.evictLeaderStores()) {
      if (!work.evict.contains(id)) {
        work.evict.add(id);
        append(time, Event.EVICT_LEADER_BEGIN, id, podOf(now, id), null, work);
      }
    }
    for (Long id : List.copyOf(work.evict)) {
      if (!now.evictLeaderStores().contains(id)) {
        work.evict.remove(id);
        append(time, Event.EVICT_LEADER_END, id, podOf(now, id), null, work);
      }
    }
    last = now;
  }

  private static String podOf(Snapshot snapshot, long id) {
    StoreMark mark = snapshot.stores().get(id);
    return mark == null ? null : mark.pod();
  }

  private static StoreMark withState(StoreMark mark, SimulatedStoreState state) {
    return new StoreMark(mark.engine(), mark.pod(), state, mark.heartbeating(), mark.podBacked(),
        mark.podRemoved());
  }

  private void append(
      Instant time, Event event, Long storeId, String pod, String member, Work work) {
    int healthy = (int) work.members.values().stream().filter(h -> h).count();
    int up = 0;
    int offline = 0;
    int tombstonePods = 0;
    int stopped = 0;
    for (StoreMark store : work.stores.values()) {
      if (store.engine() != StoreEngine.TIKV) {
        continue;
      }
      switch (store.state()) {
        case UP -> {
          up++;
          if (!store.heartbeating()) {
            stopped++;
          }
        }
        case OFFLINE -> offline++;
        case TOMBSTONE -> {
          if (store.podBacked() && !store.podRemoved()) {
            tombstonePods++;
          }
        }
      }
    }
    entries.add(new JournalEntry(entries.size() + 1, time, event, storeId, pod, member,
        work.leader, work.members.size(), healthy, up, offline, tombstonePods, stopped,
        List.copyOf(work.evict), work.maxReplicas));
  }

  /** The state being replayed, one difference at a time. */
  private static final class Work {
    final Map<String, Boolean> members;
    String leader;
    int maxReplicas;
    final TreeMap<Long, StoreMark> stores;
    final TreeSet<Long> evict;

    Work(Snapshot from) {
      members = new LinkedHashMap<>(from.members());
      leader = from.leader();
      maxReplicas = from.maxReplicas();
      stores = new TreeMap<>(from.stores());
      evict = new TreeSet<>(from.evictLeaderStores());
    }
  }
}
