package io.tidb.operator.dmsim;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PodInstance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The state of one simulated DM cluster, derived from its pods and changed by API calls, as
 * dm-master keeps it:
 *
 * <ul>
 *   <li>a running dm-master pod joins as a member with a new ID; a member whose pod stops running
 *       or is gone stays a member, not alive, until it is deleted through the API; a deleted
 *       member's pod does not join again (a new pod of the same name does);
 *   <li>the leader is an alive member that was not evicted, elected only while more than half of
 *       the members are alive; the lowest name wins, so elections are deterministic;
 *   <li>{@code evictLeader} on a member makes it resign and stop campaigning until its process
 *       restarts (a new pod UID);
 *   <li>a running dm-worker pod registers as {@code free}; a worker whose pod stops running or is
 *       gone is {@code offline} and loses its source; each source is bound to the first free
 *       worker; an offline worker can be deleted, an online one cannot.
 * </ul>
 *
 * Thread-safe; every method is synchronized.
 */
public final class SimulatedDmCluster {

  /** A dm-master member. */
  public record Master(String name, String memberId, boolean alive, String peerUrl, String clientUrl) {}

  /** A dm-worker. */
  public record Worker(String name, String addr, String stage, String source) {}

  /** dm-master's answer to a request it refuses: {@code result: false} and this message. */
  public static final class RefusedException extends RuntimeException {
    public RefusedException(String message) {
      super(message);
    }
  }

  private static final class MasterState {
    final long id;
    final String podUid;
    boolean alive;
    boolean podRunning;
    /** The process hangs ({@link #hang}): not alive although its pod runs. */
    boolean hung;
    boolean evicted;

    MasterState(long id, String podUid) {
      this.id = id;
      this.podUid = podUid;
    }
  }

  private static final class WorkerState {
    String podUid;
    boolean online;
    /** The process stopped ({@link #stopWorker}): offline although its pod runs. */
    boolean stopped;
    boolean podRunning;
    String source = "";
  }

  private final ClusterKey key;
  private final Map<String, MasterState> masters = new TreeMap<>();
  private final Map<String, WorkerState> workers = new TreeMap<>();
  /** Pod UIDs of deleted members: those pods do not join again. */
  private final Set<String> deletedPods = new TreeSet<>();
  private final List<String> sources = new ArrayList<>();
  private String leader;
  private long nextId = 0x1a2b3c4d5e6f0001L;

  public SimulatedDmCluster(ClusterKey key) {
    this.key = key;
  }

  public ClusterKey key() {
    return key;
  }

  // ---------------------------------------------------------------- pods

  /** Re-derives liveness, membership and the leader from the cluster's pods. */
  public synchronized void syncPods(List<PodInstance> masterPods, List<PodInstance> workerPods) {
    Map<String, PodInstance> byName = new LinkedHashMap<>();
    masterPods.forEach(p -> byName.put(p.name(), p));
    for (PodInstance pod : masterPods) {
      MasterState member = masters.get(pod.name());
      if (member != null && !member.podUid.equals(pod.uid()) && pod.running()) {
        // A new process of the same member (a restarted or recreated pod): it rejoins with its
        // data, and the eviction held only in memory is gone.
        MasterState restarted = new MasterState(member.id, pod.uid());
        masters.put(pod.name(), restarted);
        member = restarted;
      }
      if (member == null && pod.running() && !deletedPods.contains(pod.uid())) {
        member = new MasterState(nextId++, pod.uid());
        masters.put(pod.name(), member);
      }
      if (member != null) {
        member.podRunning = pod.running();
        member.alive = pod.running() && !member.hung;
      }
    }
    masters.forEach((name, member) -> {
      if (!byName.containsKey(name)) {
        member.podRunning = false;
        member.alive = false;
      }
    });
    Map<String, PodInstance> workersByName = new LinkedHashMap<>();
    workerPods.forEach(p -> workersByName.put(p.name(), p));
    for (PodInstance pod : workerPods) {
      WorkerState worker = workers.get(pod.name());
      if (worker == null && pod.running()) {
        worker = new WorkerState();
        workers.put(pod.name(), worker);
      }
      if (worker != null) {
        if (worker.podUid != null && !worker.podUid.equals(pod.uid())) {
          worker.stopped = false;
        }
        worker.podUid = pod.uid();
        worker.podRunning = pod.running();
        worker.online = pod.running() && !worker.stopped;
      }
    }
    workers.forEach((name, worker) -> {
      if (!workersByName.containsKey(name)) {
        worker.podRunning = false;
        worker.online = false;
      }
    });
    settle();
  }

  // ---------------------------------------------------------------- API

  public synchronized List<Master> masters() {
    List<Master> out = new ArrayList<>();
    masters.forEach((name, m) -> out.add(new Master(name, Long.toUnsignedString(m.id), m.alive,
        "http://" + host(name, "dm-master") + ":8291", "http://" + host(name, "dm-master") + ":8261")));
    return out;
  }

  public synchronized List<Worker> workers() {
    List<Worker> out = new ArrayList<>();
    workers.forEach((name, w) -> out.add(new Worker(name, host(name, "dm-worker") + ":8262",
        stage(w), w.source)));
    return out;
  }

  /** The leader's name, if there is one. */
  public synchronized Optional<String> leader() {
    return Optional.ofNullable(leader);
  }

  /** The leader's advertised address. */
  public synchronized String leaderAddr() {
    return leader == null ? "" : host(leader, "dm-master") + ":8261";
  }

  /** Whether {@code member} is a member whose process runs. */
  public synchronized boolean alive(String member) {
    MasterState m = masters.get(member);
    return m != null && m.alive;
  }

  /** Removes a member (etcd member remove); refused without a leader or for an unknown name. */
  public synchronized void deleteMaster(String name) {
    requireLeader();
    MasterState member = masters.get(name);
    if (member == null) {
      throw new RefusedException("dm-master with name " + name + " not exists");
    }
    masters.remove(name);
    deletedPods.add(member.podUid);
    if (name.equals(leader)) {
      leader = null;
    }
    settle();
  }

  /** Removes an offline worker; refused while the worker is online. */
  public synchronized void deleteWorker(String name) {
    requireLeader();
    WorkerState worker = workers.get(name);
    if (worker == null) {
      throw new RefusedException("dm-worker with name " + name + " not exists");
    }
    if (worker.online) {
      throw new RefusedException("dm-worker with name " + name + " is still online, please stop it first");
    }
    workers.remove(name);
    settle();
  }

  /** The member resigns leadership (when it leads) and stops campaigning. */
  public synchronized void evictLeader(String member) {
    MasterState m = masters.get(member);
    if (m == null || !m.alive) {
      throw new RefusedException("dm-master " + member + " is not running");
    }
    m.evicted = true;
    if (member.equals(leader)) {
      leader = null;
    }
    settle();
  }

  // ---------------------------------------------------------------- test hooks

  /** Registers an upstream source; it is bound to the first free worker. */
  public synchronized void addSource(String source) {
    if (!sources.contains(source)) {
      sources.add(source);
    }
    settle();
  }

  /**
   * The member's process hangs: it stops answering its peers (not alive) although its pod keeps
   * running, until the pod is replaced (a new pod UID) or {@code hung} is false again.
   */
  public synchronized void hang(String member, boolean hung) {
    MasterState m = masters.get(member);
    if (m == null) {
      throw new IllegalArgumentException("dm-master " + member + " is not a member");
    }
    m.hung = hung;
    m.alive = m.podRunning && !hung;
    settle();
  }

  /**
   * The worker's process stops (or, with {@code stopped} false, runs again): DM reports it {@code
   * offline} although its pod keeps running, until the pod is replaced (a new pod UID).
   */
  public synchronized void stopWorker(String worker, boolean stopped) {
    WorkerState w = workers.get(worker);
    if (w == null) {
      throw new IllegalArgumentException("dm-worker " + worker + " is not registered");
    }
    w.stopped = stopped;
    w.online = !stopped && w.podRunning;
    settle();
  }

  /** Unregisters a source; its worker becomes free. */
  public synchronized void removeSource(String source) {
    sources.remove(source);
    workers.values().stream().filter(w -> source.equals(w.source)).forEach(w -> w.source = "");
    settle();
  }

  /** Makes an alive member the leader (as an election it won would). */
  public synchronized void electLeader(String member) {
    MasterState m = masters.get(member);
    if (m == null || !m.alive) {
      throw new IllegalArgumentException("dm-master " + member + " is not an alive member");
    }
    leader = member;
    settle();
  }

  /** Whether the cluster has a leader (cluster-wide calls need one). */
  public synchronized boolean hasLeader() {
    return leader != null;
  }

  private void requireLeader() {
    if (leader == null) {
      throw new RefusedException("fail to get leader: no dm-master leader elected");
    }
  }

  // ---------------------------------------------------------------- internals

  private void settle() {
    long alive = masters.values().stream().filter(m -> m.alive).count();
    boolean quorum = alive * 2 > masters.size();
    MasterState current = leader == null ? null : masters.get(leader);
    if (!quorum || current == null || !current.alive || current.evicted) {
      leader = null;
      if (quorum) {
        leader = masters.entrySet().stream()
            .filter(e -> e.getValue().alive && !e.getValue().evicted)
            .map(Map.Entry::getKey).findFirst().orElse(null);
      }
    }
    for (WorkerState w : workers.values()) {
      if (!w.online) {
        w.source = "";
      }
    }
    for (String source : sources) {
      boolean bound = workers.values().stream().anyMatch(w -> source.equals(w.source));
      if (!bound) {
        workers.values().stream().filter(w -> w.online && w.source.isEmpty()).findFirst()
            .ifPresent(w -> w.source = source);
      }
    }
  }

  private static String stage(WorkerState w) {
    if (!w.online) {
      return "offline";
    }
    return w.source.isEmpty() ? "free" : "bound";
  }

  private String host(String pod, String component) {
    return pod + "." + key.name() + "-" + component + "-peer." + key.namespace() + ".svc";
  }
}
