package io.tidb.operator.pdsim;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The state of one simulated PD cluster: members and the leader, stores and their state machine
 * (Up → Offline → Tombstone), region and leader counts, schedulers and replication config.
 *
 * <p>State changes either programmatically (unit tests: {@link #addMember}, {@link #addStore},
 * ...) or from the pods of a Kubernetes cluster ({@link #syncPods}). Time advances in
 * {@linkplain #step() steps}: each step promotes new stores to Serving, drains Offline stores
 * towards Tombstone and moves leaders away from stores that cannot hold them. Every state
 * transition is journaled ({@link #journal()}). All methods are thread-safe.
 */
public final class SimulatedPdCluster {

  private EtcdGateway etcd;

  /** Schedulers PD enables by default (v8.5). */
  static final List<String> DEFAULT_SCHEDULERS = List.of(
      "balance-region-scheduler", "balance-leader-scheduler", "balance-hot-region-scheduler",
      "evict-slow-store-scheduler");
  static final String EVICT_LEADER_SCHEDULER = "evict-leader-scheduler";

  private final ClusterKey key;
  private final SimulationSettings settings;
  private final Clock clock;
  private final Random random;

  private long clusterId;
  private final Map<String, Member> members = new LinkedHashMap<>();
  /** Members deleted through the API, by name, with the UID of the pod that ran them. */
  private final Map<String, String> removedMemberPods = new HashMap<>();
  private String leader;

  private final TreeMap<Long, Store> stores = new TreeMap<>();
  private long nextStoreId = 1;
  private boolean bootstrapped;
  private int regions;

  private SimulatedReplicationConfig replication = SimulatedReplicationConfig.defaults();
  private final Set<String> schedulers = new LinkedHashSet<>(DEFAULT_SCHEDULERS);
  private final TreeSet<Long> evictLeaderStores = new TreeSet<>();
  private final StateJournal journal = new StateJournal();

  public SimulatedPdCluster(ClusterKey key) {
    this(key, SimulationSettings.defaults(), Clock.systemUTC(), new Random());
  }

  public SimulatedPdCluster(
      ClusterKey key, SimulationSettings settings, Clock clock, Random random) {
    this.key = key;
    this.settings = settings;
    this.clock = clock;
    this.random = random;
  }

  public ClusterKey key() {
    return key;
  }

  public SimulationSettings settings() {
    return settings;
  }

  /** The etcd PD embeds (its JSON gateway, the binlog registry), created on first use. */
  synchronized EtcdGateway etcd() {
    if (etcd == null) {
      etcd = new EtcdGateway(clusterId(), clock());
    }
    return etcd;
  }

  Clock clock() {
    return clock;
  }

  // ---------------------------------------------------------------- members and leader

  /** Adds a healthy member with a random id; the first member fixes the cluster id. */
  public synchronized SimulatedMember addMember(String name) {
    return addMember(name, newMemberId());
  }

  /** Adds a healthy member with the given (unsigned 64-bit) id. */
  public synchronized SimulatedMember addMember(String name, long memberId) {
    if (members.containsKey(name)) {
      throw new IllegalArgumentException("member " + name + " already exists in " + key);
    }
    if (memberId == 0 || members.values().stream().anyMatch(m -> m.id == memberId)) {
      throw new IllegalArgumentException(
          "memberId: invalid value " + Long.toUnsignedString(memberId)
              + ": must be non-zero and unique in " + key);
    }
    if (clusterId == 0) {
      clusterId = (clock.instant().getEpochSecond() << 32) | (random.nextInt() & 0xffffffffL);
    }
    Member member = new Member(name, memberId);
    members.put(name, member);
    electLeader();
    recordTransitions();
    return view(member);
  }

  /** Marks a member (un)healthy, as if its process stopped or started; re-elects if needed. */
  public synchronized void setMemberHealthy(String name, boolean healthy) {
    requireMember(name).healthy = healthy;
    electLeader();
    recordTransitions();
  }

  /** Whether {@code /pd/api/v2/ready} on this member answers 200 (true) or 500 (false). */
  public synchronized void setMemberRegionsLoaded(String name, boolean loaded) {
    requireMember(name).regionsLoaded = loaded;
  }

  /** Removes a member as {@code DELETE /members/name/{name}} does; false if there is none. */
  public synchronized boolean deleteMemberByName(String name) {
    Member member = members.remove(name);
    if (member == null) {
      return false;
    }
    forget(member);
    recordTransitions();
    return true;
  }

  /** Removes a member as {@code DELETE /members/id/{id}} does; false if there is none. */
  public synchronized boolean deleteMemberById(long memberId) {
    Optional<Member> member =
        members.values().stream().filter(m -> m.id == memberId).findFirst();
    member.ifPresent(m -> {
      members.remove(m.name);
      forget(m);
    });
    recordTransitions();
    return member.isPresent();
  }

  private void forget(Member member) {
    if (member.podUid != null) {
      removedMemberPods.put(member.name, member.podUid);
    }
    if (member.name.equals(leader)) {
      leader = null;
    }
    electLeader();
  }

  /** Moves leadership as {@code POST /leader/transfer/{name}} does. */
  public synchronized void transferLeader(String name) {
    Member target = members.get(name);
    if (target == null) {
      throw new SimulatedPdException(500, "no valid pd to transfer etcd leader");
    }
    if (!target.healthy || leader == null) {
      throw new SimulatedPdException(
          500, "[PD:etcd:ErrEtcdMoveLeader]etcd move leader error: member " + name
              + " is not reachable");
    }
    leader = name;
    recordTransitions();
  }

  /** Members in etcd's order (by member id, unsigned). */
  public synchronized List<SimulatedMember> members() {
    return members.values().stream()
        .sorted((a, b) -> Long.compareUnsigned(a.id, b.id))
        .map(this::view)
        .toList();
  }

  public synchronized Optional<SimulatedMember> member(String name) {
    return Optional.ofNullable(members.get(name)).map(this::view);
  }

  public synchronized Optional<SimulatedMember> leader() {
    return Optional.ofNullable(leader).map(members::get).map(this::view);
  }

  /** More than half of the members are healthy. */
  public synchronized boolean hasQuorum() {
    long healthy = members.values().stream().filter(m -> m.healthy).count();
    return healthy * 2 > members.size();
  }

  /** Whether any member answers at all (otherwise the PD service has no endpoint). */
  public synchronized boolean isReachable() {
    return members.values().stream().anyMatch(m -> m.healthy);
  }

  /** The cluster id (unsigned 64-bit), 0 until the first member exists. */
  public synchronized long clusterId() {
    return clusterId;
  }

  public synchronized void setClusterId(long id) {
    this.clusterId = id;
  }

  private void electLeader() {
    if (!hasQuorum()) {
      leader = null;
      return;
    }
    Member current = leader == null ? null : members.get(leader);
    if (current == null || !current.healthy) {
      leader = members.values().stream()
          .filter(m -> m.healthy)
          .map(m -> m.name)
          .findFirst()
          .orElse(null);
    }
  }

  private long newMemberId() {
    long id;
    do {
      id = random.nextLong();
    } while (id == 0 || containsMemberId(id));
    return id;
  }

  private boolean containsMemberId(long id) {
    return members.values().stream().anyMatch(m -> m.id == id);
  }

  private Member requireMember(String name) {
    Member member = members.get(name);
    if (member == null) {
      throw new IllegalArgumentException("no member " + name + " in " + key);
    }
    return member;
  }

  // ---------------------------------------------------------------- stores

  /** Registers a TiKV store for a pod; the first one bootstraps the cluster. Needs a leader. */
  public synchronized SimulatedStore addStore(String podName) {
    Store store = join(podName, StoreEngine.TIKV, null);
    recordTransitions();
    return view(store);
  }

  /** Registers a TiFlash store (label engine=tiflash); needs a bootstrapped cluster. */
  public synchronized SimulatedStore addTiFlashStore(String podName) {
    Store store = join(podName, StoreEngine.TIFLASH, null);
    recordTransitions();
    return view(store);
  }

  private Store join(String podName, StoreEngine engine, String podUid) {
    if (leader == null) {
      throw new IllegalStateException(
          "store for pod " + podName + " cannot join " + key + ": PD has no leader (no quorum)");
    }
    if (engine == StoreEngine.TIFLASH && !bootstrapped) {
      throw new IllegalStateException(
          "TiFlash store for pod " + podName + " cannot join " + key
              + ": the cluster is not bootstrapped by TiKV yet");
    }
    if (liveStore(engine, podName).isPresent()) {
      throw new IllegalArgumentException(
          "pod " + podName + " already has a store in " + key);
    }
    Instant now = clock.instant();
    Store store = new Store(nextStoreId++, podName, engine, now);
    store.podUid = podUid;
    if (engine == StoreEngine.TIFLASH) {
      store.labels.put("engine", "tiflash");
    }
    stores.put(store.id, store);
    if (!bootstrapped) {
      bootstrapped = true;
      regions = settings.regionCount();
      store.leaderCount = regions;
    }
    distributeRegions();
    return store;
  }

  /** Whether TiKV has bootstrapped the Raft cluster (the first store joined). */
  public synchronized boolean isBootstrapped() {
    return bootstrapped;
  }

  /** Stores by id, Tombstones included. */
  public synchronized List<SimulatedStore> stores() {
    return stores.values().stream().map(this::view).toList();
  }

  public synchronized Optional<SimulatedStore> store(long id) {
    return Optional.ofNullable(stores.get(id)).map(this::view);
  }

  /** The live (not Tombstone) store of a pod. */
  public synchronized Optional<SimulatedStore> storeOfPod(String podName) {
    return stores.values().stream()
        .filter(s -> s.podName.equals(podName) && s.state != SimulatedStoreState.TOMBSTONE)
        .findFirst()
        .map(this::view);
  }

  /** Starts or stops a store's server: a stopped store stops heartbeating and loses leaders. */
  public synchronized void setStoreHeartbeating(long id, boolean heartbeating) {
    heartbeat(requireStore(id), heartbeating);
    recordTransitions();
  }

  private void heartbeat(Store store, boolean heartbeating) {
    Instant now = clock.instant();
    if (heartbeating && !store.heartbeating) {
      store.startTime = now;
    }
    if (!heartbeating && store.heartbeating) {
      store.lastHeartbeat = now;
    }
    store.heartbeating = heartbeating;
  }

  /** {@code DELETE /store/{id}[?force]}: Up → Offline, with PD's checks. */
  public synchronized void deleteStore(long id, boolean force) {
    Store store = storeNotRemoved(id);
    if (store.physicallyDestroyed && !force) {
      throw destroyed(id);
    }
    if (store.state == SimulatedStoreState.OFFLINE) {
      store.physicallyDestroyed |= force;
      return;
    }
    if (!force && store.engine == StoreEngine.TIKV) {
      checkRemovable(store);
    }
    store.state = SimulatedStoreState.OFFLINE;
    store.nodeState = NodeState.REMOVING;
    store.physicallyDestroyed = force;
    store.drainStepsLeft = settings.drainSteps();
    store.regionsAtRemoval = store.regionCount;
    recordTransitions();
  }

  private void checkRemovable(Store store) {
    List<Store> remaining = tikvStores(s -> s.state == SimulatedStoreState.UP && s != store);
    if (remaining.size() < replication.maxReplicas()) {
      throw new SimulatedPdException(400, String.format(
          "[PD:core:ErrStoresNotEnough]can not remove store %d since the number of up stores "
              + "would be %d while need %d",
          store.id, remaining.size(), replication.maxReplicas()));
    }
    if (remaining.stream().allMatch(s -> evictLeaderStores.contains(s.id))) {
      throw new SimulatedPdException(400, String.format(
          "[PD:core:ErrNoStoreForRegionLeader]can not remove store %d since there are no extra "
              + "up store to store the leader", store.id));
    }
  }

  /** The store whose state a request may change: 404 if unknown, 410 once it is a Tombstone. */
  private Store storeNotRemoved(long id) {
    requireBootstrapped();
    Store store = stores.get(id);
    if (store == null) {
      throw SimulatedPdException.storeNotFound(id, 404);
    }
    if (store.state == SimulatedStoreState.TOMBSTONE) {
      throw new SimulatedPdException(
          410, "[PD:core:ErrStoreRemoved]store " + id + " has been removed");
    }
    return store;
  }

  private static SimulatedPdException destroyed(long id) {
    return new SimulatedPdException(
        400, "[PD:core:ErrStoreDestroyed]store " + id + " has been physically destroyed");
  }

  /** {@code POST /store/{id}/state?state=Up|Offline} (case-insensitive). */
  public synchronized void setStoreState(long id, String state) {
    switch (state.toLowerCase(Locale.ROOT)) {
      case "offline" -> deleteStore(id, false);
      case "up" -> {
        Store store = storeNotRemoved(id);
        if (store.physicallyDestroyed) {
          throw destroyed(id);
        }
        if (store.state == SimulatedStoreState.OFFLINE) {
          store.state = SimulatedStoreState.UP;
          store.nodeState = NodeState.SERVING;
          distributeRegions();
          recordTransitions();
        }
      }
      default -> throw new SimulatedPdException(400, "invalid state " + state);
    }
  }

  /**
   * {@code POST /store/{id}/label}: merges labels (keys match case-insensitively), or replaces
   * them all with {@code force}.
   */
  public synchronized void setStoreLabels(long id, Map<String, String> labels, boolean force) {
    requireBootstrapped();
    Store store = stores.get(id);
    if (store == null) {
      throw new SimulatedPdException(
          500, "[PD:cluster:ErrInvalidStoreID]invalid store id " + id + ", not found");
    }
    if (force) {
      store.labels.clear();
    }
    labels.forEach((label, value) -> {
      String existing = store.labels.keySet().stream()
          .filter(k -> k.equalsIgnoreCase(label))
          .findFirst()
          .orElse(label);
      store.labels.put(existing, value);
    });
  }

  private Store requireStore(long id) {
    Store store = stores.get(id);
    if (store == null) {
      throw new IllegalArgumentException("no store " + id + " in " + key);
    }
    return store;
  }

  void requireBootstrapped() {
    if (!bootstrapped) {
      throw SimulatedPdException.notBootstrapped();
    }
  }

  private Optional<Store> liveStore(StoreEngine engine, String podName) {
    return stores.values().stream()
        .filter(s -> s.engine == engine && s.podName.equals(podName)
            && s.state != SimulatedStoreState.TOMBSTONE)
        .findFirst();
  }

  private List<Store> tikvStores(Predicate<Store> filter) {
    return stores.values().stream()
        .filter(s -> s.engine == StoreEngine.TIKV)
        .filter(filter)
        .toList();
  }

  // ---------------------------------------------------------------- schedulers

  /**
   * Adds a store to the evict-leader scheduler: true when this created the scheduler, false when
   * it already existed (PD then answers "applied to the store").
   */
  public synchronized boolean addEvictLeader(long storeId) {
    requireBootstrapped();
    boolean existed = !evictLeaderStores.isEmpty();
    if (!stores.containsKey(storeId)) {
      String inner = "[PD:core:ErrStoreNotFound]store " + storeId + " not found";
      if (existed) {
        StringBuilder quoted = new StringBuilder();
        GoJson.quote(inner, quoted);
        inner = quoted + "\n";
      }
      throw new SimulatedPdException(500, inner);
    }
    evictLeaderStores.add(storeId);
    recordTransitions();
    return !existed;
  }

  /** Removes one store from the evict-leader scheduler; false if it was not there. */
  public synchronized boolean removeEvictLeader(long storeId) {
    boolean removed = evictLeaderStores.remove(storeId);
    recordTransitions();
    return removed;
  }

  /** Store ids in the evict-leader scheduler's config. */
  public synchronized SortedSet<Long> evictLeaderStoreIds() {
    return new TreeSet<>(evictLeaderStores);
  }

  /** Enabled scheduler names; the evict-leader scheduler appears once, without store suffix. */
  public synchronized List<String> schedulers() {
    List<String> names = new ArrayList<>(schedulers);
    if (!evictLeaderStores.isEmpty()) {
      names.add(EVICT_LEADER_SCHEDULER);
    }
    return names;
  }

  /** Adds a scheduler other than evict-leader; false if it is already enabled. */
  public synchronized boolean addScheduler(String name) {
    return schedulers.add(name);
  }

  /** Removes a whole scheduler (evict-leader included); false if it is not enabled. */
  public synchronized boolean removeScheduler(String name) {
    if (name.equals(EVICT_LEADER_SCHEDULER)) {
      boolean existed = !evictLeaderStores.isEmpty();
      evictLeaderStores.clear();
      recordTransitions();
      return existed;
    }
    return schedulers.remove(name);
  }

  // ---------------------------------------------------------------- configuration

  /**
   * The TiFlash replica count of each table that has one, as TiDB records {@code ALTER TABLE ...
   * SET TIFLASH REPLICA n} in PD: a placement rule of group {@code tiflash} per table.
   */
  private final Map<Long, Integer> tiflashReplicas = new TreeMap<>();

  /** Sets (or, with 0, removes) table {@code tableId}'s TiFlash replica rule. */
  public synchronized void setTiflashReplicas(long tableId, int count) {
    if (count <= 0) {
      tiflashReplicas.remove(tableId);
    } else {
      tiflashReplicas.put(tableId, count);
    }
  }

  /** Each table with a TiFlash replica rule and its count, by table id. */
  public synchronized Map<Long, Integer> tiflashReplicas() {
    return Map.copyOf(tiflashReplicas);
  }

  public synchronized SimulatedReplicationConfig replication() {
    return replication;
  }

  /** Sets the replication config directly (no PD checks), e.g. from a test. */
  public synchronized void setReplication(SimulatedReplicationConfig config) {
    replication = config;
    distributeRegions();
    recordTransitions();
  }

  /** Applies {@code POST /config/replicate} with PD's checks. */
  public synchronized void updateReplication(SimulatedReplicationConfig config) {
    if ((replication.enablePlacementRules() || config.enablePlacementRules()) && !bootstrapped) {
      throw SimulatedPdException.notBootstrapped();
    }
    if (!config.isolationLevel().isEmpty()
        && !config.locationLabels().contains(config.isolationLevel())) {
      throw new SimulatedPdException(500, "isolation-level must be one of location-labels or empty");
    }
    setReplication(config);
  }

  // ---------------------------------------------------------------- time

  /**
   * Advances the simulation: new heartbeating stores become Serving, Offline stores move a share
   * of their regions away (becoming Tombstone after {@code drainSteps} steps, provided enough up
   * stores remain for the replicas), and leaders move away from stores that cannot hold them and
   * are balanced among the rest, {@code leaderMovesPerStep} at a time.
   */
  public synchronized void step() {
    for (Store store : stores.values()) {
      if (store.state == SimulatedStoreState.UP && store.heartbeating
          && store.nodeState == NodeState.PREPARING) {
        store.nodeState = NodeState.SERVING;
      }
    }
    for (Store store : List.copyOf(stores.values())) {
      if (store.state == SimulatedStoreState.OFFLINE) {
        drain(store);
      }
    }
    moveLeaders();
    distributeRegions();
    recordTransitions();
  }

  private void drain(Store store) {
    if (store.engine == StoreEngine.TIKV) {
      long receivers = tikvStores(s -> s.state == SimulatedStoreState.UP && s.heartbeating).size();
      if (receivers < replication.maxReplicas()) {
        return;
      }
    }
    store.drainStepsLeft--;
    if (store.drainStepsLeft <= 0) {
      bury(store);
    } else {
      store.regionCount = store.regionsAtRemoval * store.drainStepsLeft / settings.drainSteps();
    }
  }

  private void bury(Store store) {
    store.state = SimulatedStoreState.TOMBSTONE;
    store.nodeState = NodeState.REMOVED;
    store.regionCount = 0;
    List<Store> receivers = leaderReceivers();
    while (store.leaderCount > 0 && !receivers.isEmpty()) {
      Store target = receivers.stream().min(Comparator.comparingInt(s -> s.leaderCount)).get();
      target.leaderCount++;
      store.leaderCount--;
    }
    store.leaderCount = 0;
    distributeRegions();
  }

  private List<Store> leaderReceivers() {
    return tikvStores(s -> s.state == SimulatedStoreState.UP && s.heartbeating
        && !evictLeaderStores.contains(s.id));
  }

  private void moveLeaders() {
    List<Store> receivers = leaderReceivers();
    for (Store source : stores.values()) {
      if (source.leaderCount == 0 || receivers.contains(source)) {
        continue;
      }
      for (int moved = 0; moved < settings.leaderMovesPerStep() && source.leaderCount > 0;
          moved++) {
        Optional<Store> target = receivers.stream()
            .filter(s -> s.leaderCount < s.regionCount)
            .min(Comparator.comparingInt(s -> s.leaderCount));
        if (target.isEmpty()) {
          break;
        }
        target.get().leaderCount++;
        source.leaderCount--;
      }
    }
    for (int moved = 0; moved < settings.leaderMovesPerStep() && receivers.size() > 1; moved++) {
      Store most = receivers.stream().max(Comparator.comparingInt(s -> s.leaderCount)).get();
      Store least = receivers.stream().min(Comparator.comparingInt(s -> s.leaderCount)).get();
      if (most.leaderCount - least.leaderCount <= 1 || least.leaderCount >= least.regionCount) {
        break;
      }
      most.leaderCount--;
      least.leaderCount++;
    }
  }

  /** Spreads region replicas evenly over the Up TiKV stores, minus what Offline ones still hold. */
  private void distributeRegions() {
    List<Store> up = tikvStores(s -> s.state == SimulatedStoreState.UP);
    if (up.isEmpty()) {
      return;
    }
    int replicas = Math.min(replication.maxReplicas(), up.size());
    int held = tikvStores(s -> s.state == SimulatedStoreState.OFFLINE).stream()
        .mapToInt(s -> s.regionCount)
        .sum();
    int total = Math.max(0, regions * replicas - held);
    for (int i = 0; i < up.size(); i++) {
      int share = total / up.size() + (i < total % up.size() ? 1 : 0);
      up.get(i).regionCount = Math.min(regions, share);
    }
  }

  // ---------------------------------------------------------------- Kubernetes pods

  /**
   * Brings members and stores in line with the pods of this cluster: a running PD pod is a
   * healthy member (a pod that is already being deleted does not join) (a member deleted through the API stays deleted while the same pod runs), a
   * PD pod that is gone or not running makes its member unhealthy; a running TiKV/TiFlash pod
   * heartbeats as a store (joining once PD has a leader), a pod that is gone or not running stops
   * heartbeating, and an Offline store whose pod is gone becomes Tombstone.
   */
  public synchronized void syncPods(ClusterPods pods) {
    syncMembers(pods.pd());
    syncStores(StoreEngine.TIKV, pods.tikv());
    syncStores(StoreEngine.TIFLASH, pods.tiflash());
    recordTransitions();
  }

  private void syncMembers(List<PodInstance> pods) {
    Map<String, PodInstance> byName = byName(pods);
    removedMemberPods.entrySet().removeIf(removed -> {
      PodInstance pod = byName.get(removed.getKey());
      return pod == null || !pod.uid().equals(removed.getValue());
    });
    for (PodInstance pod : pods) {
      Member member = members.get(pod.name());
      if (member == null) {
        // A pod being deleted does not join: its process is stopping.
        if (!pod.running() || pod.terminating() || removedMemberPods.containsKey(pod.name())) {
          continue;
        }
        addMember(pod.name());
        member = members.get(pod.name());
      }
      member.podUid = pod.uid();
      member.healthy = pod.running();
    }
    for (Member member : members.values()) {
      if (!byName.containsKey(member.name)) {
        member.healthy = false;
      }
    }
    electLeader();
  }

  private void syncStores(StoreEngine engine, List<PodInstance> pods) {
    Map<String, PodInstance> byName = byName(pods);
    for (Store store : List.copyOf(stores.values())) {
      if (store.engine != engine) {
        continue;
      }
      PodInstance pod = byName.get(store.podName);
      if (store.state == SimulatedStoreState.TOMBSTONE) {
        // Being deleted counts as removed: the StatefulSet has let go of it.
        if (store.podUid != null
            && (pod == null || !pod.uid().equals(store.podUid) || pod.terminating())) {
          store.podRemoved = true;
        }
        continue;
      }
      if (pod == null) {
        heartbeat(store, false);
        if (store.state == SimulatedStoreState.OFFLINE) {
          bury(store);
          store.podRemoved = store.podUid != null;
        }
        continue;
      }
      store.podUid = pod.uid();
      heartbeat(store, pod.running());
    }
    for (PodInstance pod : pods) {
      boolean removedHere = stores.values().stream().anyMatch(
          s -> s.state == SimulatedStoreState.TOMBSTONE && pod.uid().equals(s.podUid));
      if (!pod.running() || removedHere || liveStore(engine, pod.name()).isPresent()
          || leader == null || (engine == StoreEngine.TIFLASH && !bootstrapped)) {
        continue;
      }
      join(pod.name(), engine, pod.uid());
    }
    distributeRegions();
  }

  private static Map<String, PodInstance> byName(List<PodInstance> pods) {
    Map<String, PodInstance> byName = new HashMap<>();
    pods.forEach(p -> byName.put(p.name(), p));
    return byName;
  }

  // ---------------------------------------------------------------- journal

  /** Every state transition so far, oldest first ({@link JournalEntry}). */
  public synchronized List<JournalEntry> journal() {
    return journal.entries();
  }

  /** Journals what changed since the last call; every public mutator ends with it. */
  private void recordTransitions() {
    Map<String, Boolean> health = new LinkedHashMap<>();
    members.values().forEach(m -> health.put(m.name, m.healthy));
    Map<Long, StateJournal.StoreMark> marks = new TreeMap<>();
    stores.values().forEach(s -> marks.put(s.id, new StateJournal.StoreMark(
        s.engine, s.podName, s.state, s.heartbeating, s.podUid != null, s.podRemoved)));
    journal.record(new StateJournal.Snapshot(health, leader, replication.maxReplicas(), marks,
        List.copyOf(evictLeaderStores)), clock.instant());
  }

  // ---------------------------------------------------------------- views

  private SimulatedMember view(Member member) {
    // A member's host is its own TidbCluster's (a heterogeneous cluster's PD pods joined this
    // PD cluster keep their names): <tc>-pd-<n>.<tc>-pd-peer.<ns>.svc.
    int suffix = member.name.lastIndexOf("-pd-");
    String owner = suffix > 0 ? member.name.substring(0, suffix) : key.name();
    String host = member.name + "." + owner + "-pd-peer." + key.namespace() + ".svc";
    return new SimulatedMember(member.name, member.id, "http://" + host + ":2379",
        "http://" + host + ":2380", member.healthy, member.regionsLoaded);
  }

  private SimulatedStore view(Store store) {
    Instant now = clock.instant();
    Instant lastHeartbeat = store.heartbeating ? now : store.lastHeartbeat;
    return new SimulatedStore(
        store.id, store.podName, store.engine,
        store.engine.address(key, store.podName),
        store.engine.peerAddress(key, store.podName),
        store.engine.statusAddress(key, store.podName),
        Collections.unmodifiableMap(new LinkedHashMap<>(store.labels)),
        store.state, store.nodeState, stateName(store, Duration.between(lastHeartbeat, now)),
        store.physicallyDestroyed, store.heartbeating, store.leaderCount, store.regionCount,
        store.startTime, lastHeartbeat);
  }

  private String stateName(Store store, Duration sinceHeartbeat) {
    if (store.state != SimulatedStoreState.UP) {
      return store.state.displayName();
    }
    if (sinceHeartbeat.compareTo(settings.downAfter()) > 0) {
      return "Down";
    }
    if (sinceHeartbeat.compareTo(settings.disconnectedAfter()) > 0) {
      return "Disconnected";
    }
    return "Up";
  }

  private static final class Member {
    final String name;
    final long id;
    boolean healthy = true;
    boolean regionsLoaded = true;
    String podUid;

    Member(String name, long id) {
      this.name = name;
      this.id = id;
    }
  }

  private static final class Store {
    final long id;
    final String podName;
    final StoreEngine engine;
    final Map<String, String> labels = new LinkedHashMap<>();
    SimulatedStoreState state = SimulatedStoreState.UP;
    NodeState nodeState = NodeState.PREPARING;
    boolean physicallyDestroyed;
    boolean heartbeating = true;
    Instant startTime;
    Instant lastHeartbeat;
    int leaderCount;
    int regionCount;
    int regionsAtRemoval;
    int drainStepsLeft;
    String podUid;
    /** Once Tombstone: its pod (same UID) is gone or being deleted. */
    boolean podRemoved;

    Store(long id, String podName, StoreEngine engine, Instant now) {
      this.id = id;
      this.podName = podName;
      this.engine = engine;
      this.startTime = now;
      this.lastHeartbeat = now;
    }
  }
}
