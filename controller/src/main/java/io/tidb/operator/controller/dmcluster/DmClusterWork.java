package io.tidb.operator.controller.dmcluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmClusterStatus;
import io.tidb.operator.api.v1alpha1.dm.DmMemberStatus;
import io.tidb.operator.api.v1alpha1.dm.MasterFailureMember;
import io.tidb.operator.api.v1alpha1.dm.MasterMember;
import io.tidb.operator.api.v1alpha1.dm.MasterStatus;
import io.tidb.operator.api.v1alpha1.dm.WorkerSpec;
import io.tidb.operator.api.v1alpha1.dm.WorkerStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import io.tidb.operator.controller.tidbcluster.member.ComponentPhase;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.member.VolumeActions;
import io.tidb.operator.controller.tidbcluster.member.VolumeCare;
import io.tidb.operator.controller.tidbcluster.pipeline.CheckedVolumes;
import io.tidb.operator.controller.tidbcluster.pipeline.Deletions;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsProblem;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException;
import io.tidb.operator.dmapi.DmApiException;
import io.tidb.operator.dmapi.DmLeaderInfo;
import io.tidb.operator.dmapi.DmMasterClient;
import io.tidb.operator.dmapi.DmMasterInfo;
import io.tidb.operator.dmapi.DmWorkerInfo;
import io.tidb.operator.pd.ComponentHttp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DMCluster controller's work on a valid, defaulted cluster: apply the {@code <dc>-dm-discovery}
 * objects and dm-master's and dm-worker's Services, ConfigMaps and StatefulSets, read the members,
 * the leader and the workers from the dm-master API (over mutual TLS with {@code tlsCluster}), make
 * at most one DM API change a reconcile ({@link MasterPlan}, {@link WorkerPlan}), fail members over
 * ({@link MasterFailover}, {@link WorkerFailover}), look after the data claims ({@link DmVolumes}),
 * and report status and {@code Ready}. When the API does not answer nothing destructive happens:
 * replicas and revisions are held; while the TLS client Secret is unusable nothing is applied.
 */
public final class DmClusterWork implements ReconcileWork<DmCluster, DmClusterStatus> {

  /** Kinds the operator creates and owns for a DMCluster. */
  public static final List<Class<? extends HasMetadata>> OWNED_KINDS =
      List.of(StatefulSet.class, Service.class, ConfigMap.class, Deployment.class, ServiceAccount.class,
          Role.class, RoleBinding.class);

  /** Informers are limited to DM objects: {@code app.kubernetes.io/name=dm-cluster}. */
  public static final String SELECTOR = Labels.NAME + "=" + DmLabels.NAME_VALUE;

  public static final String SCALE_IN_REFUSED = "ScaleInRefused";

  private static final Logger LOG = LoggerFactory.getLogger(DmClusterWork.class);

  private final DmMasterEndpoints endpoints;
  private final DmMasterTransport transport;
  private final String discoveryImage;
  private final DmFailoverSettings failover;
  private final Function<String, Deletions> deletions;
  private final VolumeClaims.Source claims;

  /**
   * @param transport how dm-master is reached: plain, or with {@code tlsCluster} over mutual TLS
   * @param discoveryImage the operator's own image, run as {@code <dc>-dm-discovery}
   * @param deletions pod deletions in a namespace (failover)
   * @param claims data claims of a reconcile (failover, deferred deletion, enablePVReclaim), read
   *     from the claim informer {@link #eventSources} registers
   */
  public DmClusterWork(DmMasterEndpoints endpoints, DmMasterTransport transport, DmFailoverSettings failover,
      String discoveryImage, Function<String, Deletions> deletions, VolumeClaims.Source claims) {
    this.endpoints = endpoints;
    this.transport = transport;
    this.discoveryImage = discoveryImage;
    this.failover = failover;
    this.deletions = deletions;
    this.claims = claims;
  }

  /** Started on the first DmCluster: a namespace without one lists and watches none of them. */
  @Override
  public boolean ownedInformersOnFirstResource() {
    return true;
  }

  @Override
  public List<EventSource<?, DmCluster>> eventSources(EventSourceContext<DmCluster> context) {
    List<EventSource<?, DmCluster>> sources =
        new ArrayList<>(OwnedEventSources.owned(context, OWNED_KINDS, SELECTOR));
    sources.add(OwnedEventSources.indexedByStatefulSet(new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Pod.class, DmCluster.class)
            .withName("dm-pods")
            .withLabelSelector(OwnedEventSources.SELECTOR + "," + SELECTOR)
            .withItemStore(OwnedEventSources.itemStore(context))
            .withSecondaryToPrimaryMapper(DmClusterWork::clusterOfPod)
            .build(),
        context)));
    sources.add(OwnedEventSources.claims(context, SELECTOR, DmLabels::instanceOf));
    return sources;
  }

  /** The DMCluster of a pod: its StatefulSet's name without the component suffix. */
  static Set<ResourceID> clusterOfPod(Pod pod) {
    return OwnedEventSources.statefulSetOf(pod)
        .flatMap(DmClusterWork::clusterOfStatefulSet)
        .map(dc -> Set.of(new ResourceID(dc, pod.getMetadata().getNamespace())))
        .orElse(Set.of());
  }

  static Optional<String> clusterOfStatefulSet(String sts) {
    for (String suffix : List.of("-dm-master", "-dm-worker")) {
      if (sts.endsWith(suffix) && sts.length() > suffix.length()) {
        return Optional.of(sts.substring(0, sts.length() - suffix.length()));
      }
    }
    return Optional.empty();
  }

  @Override
  public WorkOutcome work(ResourceContext<DmCluster, DmClusterStatus> ctx) {
    DmCluster dc = ctx.resource();
    DmClusterStatus status = ctx.status();
    if (Boolean.TRUE.equals(dc.getSpec().getPaused())) {
      setReady(ctx, DmReadyCondition.evaluate(true, 0, Optional.empty(), Map.of(), null,
          Optional.empty(), Optional.empty(), Map.of(), true));
      return WorkOutcome.paused();
    }
    List<String> waiting = new ArrayList<>();
    String ns = ctx.namespace();
    String name = ctx.name();
    boolean tls = DmConfigFiles.tls(dc);
    ComponentHttp client;
    try {
      client = transport.of(dc);
    } catch (ClusterTlsUnavailableException e) {
      return ClusterTlsProblem.hold(ctx, DmClusterController.STATUS, e);
    }
    DmMasterClient api = endpoints.serviceClient(client, ns, name, tls);

    // ------------------------------------------------------------ discovery
    ctx.apply(DmDiscoveryObjects.serviceAccount(dc));
    ctx.apply(DmDiscoveryObjects.role(dc));
    ctx.apply(DmDiscoveryObjects.roleBinding(dc));
    ctx.apply(DmDiscoveryObjects.deployment(dc, discoveryImage));
    ctx.apply(DmDiscoveryObjects.service(dc));

    // ------------------------------------------------------------ dm-master
    ctx.apply(DmObjects.masterService(dc));
    ctx.apply(DmObjects.masterPeerService(dc));
    ctx.apply(DmObjects.masterConfigMap(dc));
    String masterSet = DmNames.master(name);
    Optional<StatefulSet> masterSts = ctx.owned().get(StatefulSet.class, masterSet);
    Optional<Rollout> masterRollout = masterSts.map(s -> Rollout.of(s, ctx.owned().podsOf(masterSet)));
    List<DmMasterInfo> masters = List.of();
    Optional<String> leader = Optional.empty();
    boolean synced = false;
    if (masterSts.isPresent()) {
      try {
        masters = api.masters();
        DmLeaderInfo l = api.leader();
        leader = l.name().isEmpty() ? Optional.empty() : Optional.of(l.name());
        synced = true;
      } catch (DmApiException e) {
        LOG.info("dm-master API failed namespace={} name={} error=\"{}\"", ns, name, e.getMessage());
      }
    }
    Map<String, Boolean> health = new LinkedHashMap<>();
    masters.forEach(m -> health.put(m.name(), m.alive()));
    MasterStatus master = status.getMaster() == null ? new MasterStatus() : status.getMaster();
    Map<String, MasterMember> masterMembers = synced
        ? DmMemberStatuses.masters(masters, master.getMembers(), ctx.now()) : master.getMembers();
    if (synced) {
      master.setMembers(masterMembers.isEmpty() ? null : masterMembers);
      master.setLeader(leader.map(masterMembers::get).orElse(null));
    }
    int masterSpec = dc.getSpec().getMaster() == null ? 0 : dc.getSpec().getMaster().getReplicas();
    if (masterSts.isPresent()) {
      MasterFailover fo = MasterFailover.decide(failover.enabled(), synced,
          masterMembers == null ? Map.of() : masterMembers, master.getFailureMembers(), masterSet,
          masterSpec + MasterFailover.replicasAdded(master.getFailureMembers()),
          dc.getSpec().getMaster().getMaxFailoverCount(), failover.masterPeriod(), ctx.now());
      failOver(ctx, fo, master, api, masters, masterSet).ifPresent(waiting::add);
    }
    int masterWanted = masterSpec + MasterFailover.replicasAdded(master.getFailureMembers());
    MasterStep step = MasterPlan.decide(masterWanted, masterRollout, synced, health, leader);
    StatefulSetPlan plan = volumes(ctx, DmLabels.MASTER, masterSet, masterRollout,
        act(ctx, step, api, client, tls, masterRollout), waiting);
    ctx.apply(DmObjects.masterStatefulSet(dc, plan));
    step.waitingFor().ifPresent(waiting::add);
    if (!synced && masterSts.isPresent()) {
      waiting.add("the dm-master API to answer");
    }
    describe(master, synced, masterWanted, masterSts, "dm-master");
    status.setMaster(master);

    // ------------------------------------------------------------ dm-worker
    WorkerSpec workerSpec = dc.getSpec().getWorker();
    Optional<StatefulSet> workerSts = Optional.empty();
    Map<String, io.tidb.operator.api.v1alpha1.dm.WorkerMember> workerMembers = Map.of();
    boolean workersSynced = false;
    int workerWanted = 0;
    if (workerSpec != null) {
      ctx.apply(DmObjects.workerPeerService(dc));
      ctx.apply(DmObjects.workerConfigMap(dc));
      String workerSet = DmNames.worker(name);
      workerSts = ctx.owned().get(StatefulSet.class, workerSet);
      Optional<Rollout> workerRollout = workerSts.map(s -> Rollout.of(s, ctx.owned().podsOf(workerSet)));
      List<DmWorkerInfo> workers = List.of();
      if (synced && workerSts.isPresent()) {
        try {
          workers = api.workers();
          workersSynced = true;
        } catch (DmApiException e) {
          LOG.info("dm-master API failed to list workers namespace={} name={} error=\"{}\"", ns, name, e.getMessage());
        }
      }
      Map<String, DmWorkerInfo> byName = new TreeMap<>();
      workers.forEach(w -> byName.put(w.name(), w));
      WorkerStatus worker = status.getWorker() == null ? new WorkerStatus() : status.getWorker();
      if (workersSynced) {
        worker.setMembers(emptyToNull(DmMemberStatuses.workers(workers, worker.getMembers(), ctx.now())));
      }
      workerWanted = failOverWorkers(ctx, workerSpec, worker, workerSet, workerRollout, workersSynced);
      WorkerPlan wplan = WorkerPlan.decide(workerWanted, workerRollout, workersSynced, byName);
      ctx.apply(DmObjects.workerStatefulSet(dc, volumes(ctx, DmLabels.WORKER, workerSet, workerRollout,
          new StatefulSetPlan(wplan.replicas(), 0), waiting)));
      wplan.waitingFor().ifPresent(waiting::add);
      reportRefusal(ctx, worker, wplan.refusal());
      if (workersSynced) {
        for (String offline : WorkerPlan.offlineToDelete(workerSet, wplan.replicas(), workers)) {
          try {
            api.deleteWorker(offline);
            ctx.events().normal(ctx.stored(), "DMWorkerDeleted",
                "offline dm-worker " + offline + " removed from the DM cluster after scale-in");
          } catch (DmApiException e) {
            waiting.add("dm-master to delete offline dm-worker " + offline);
          }
        }
      }
      workerMembers = worker.getMembers() == null ? Map.of() : worker.getMembers();
      describe(worker, workersSynced, workerWanted, workerSts, "dm-worker");
      status.setWorker(worker);
    } else {
      status.setWorker(null);
    }

    DmReadyCondition.Verdict ready = DmReadyCondition.evaluate(false, masterWanted, masterSts,
        masterMembers == null ? Map.of() : masterMembers, leader.orElse(null),
        workerSpec == null ? Optional.empty() : Optional.of(workerWanted), workerSts, workerMembers,
        synced && (workerSpec == null || workersSynced));
    setReady(ctx, ready);
    if (!waiting.isEmpty()) {
      return WorkOutcome.converging("dm", String.join("; ", waiting));
    }
    return "True".equals(ready.status()) ? WorkOutcome.converged()
        : WorkOutcome.converging("dm", ready.message());
  }

  /**
   * The component's data claims ({@link DmVolumes}): marks the claims a scale-in leaves, deletes a
   * marked claim before its ordinal comes back (holding the scale-out), with {@code
   * enablePVReclaim} deletes marked claims whose pods are gone, and sets {@code pvReclaimPolicy} on
   * the bound volumes. The plan to apply.
   */
  private StatefulSetPlan volumes(ResourceContext<DmCluster, DmClusterStatus> ctx, String component,
      String setName, Optional<Rollout> rollout, StatefulSetPlan plan, List<String> waiting) {
    DmCluster dc = ctx.resource();
    VolumeClaims vc = claims.of(ctx.namespace(), ctx.owned());
    boolean reclaim = Boolean.TRUE.equals(dc.getSpec().getEnablePVReclaim());
    Map<String, String> labels = DmLabels.component(DmLabels.instanceOf(dc), component);
    // While the replicas change, the claims of the ordinals that come and go are marked (once) or
    // deleted: read from the API server, as a cache that has not seen a claim yet would leave it
    // unmarked, or let a new member start on a removed member's data.
    boolean scaling = rollout.isPresent() && rollout.get().replicas() != plan.replicas();
    List<PersistentVolumeClaim> list = scaling ? vc.currentList(labels) : vc.list(labels);
    DmVolumes v = DmVolumes.decide(component, setName, list, rollout, plan.replicas(), reclaim, component);
    for (String claim : v.mark()) {
      vc.annotate(claim, VolumeActions.DEFER_DELETING, Conditions.timestamp(ctx.now()));
      ctx.events().normal(ctx.stored(), "VolumeDeferDeleting",
          "volume claim " + claim + " of a removed " + component + " member kept, marked for deferred deletion");
    }
    v.delete().ifPresent(d -> {
      d.perform(vc);
      ctx.events().normal(ctx.stored(), "VolumeClaimDeleted", v.message().orElse(d.claim()));
    });
    v.reclaim().ifPresent(r -> {
      r.perform(vc);
      ctx.events().normal(ctx.stored(), "VolumeClaimDeleted", v.message().orElse(r.claim()));
    });
    String policy = dc.getSpec().getPvReclaimPolicy();
    for (PersistentVolumeClaim pvc : list) {
      Optional<String> cared = VolumeCare.volumeToCareFor(pvc, reclaim);
      if (policy == null || policy.isEmpty() || cared.isEmpty()) {
        continue;
      }
      String volume = cared.get();
      CheckedVolumes.Check check =
          new CheckedVolumes.Check(pvc.getMetadata().getUid(), policy, Map.of(), Map.of());
      if (vc.checkedVolumes().upToDate(volume, check, ctx.now())) {
        continue;
      }
      Optional<PersistentVolume> pv = vc.volume(volume);
      DmVolumes.policyToSet(pvc, pv, policy, reclaim).ifPresent(name -> {
        vc.setReclaimPolicy(name, policy);
        LOG.info("persistent volume reclaim policy set namespace={} name={} claim={} volume={} policy={}",
            ctx.namespace(), ctx.name(), pvc.getMetadata().getName(), name, policy);
      });
      if (pv.isPresent()) {
        vc.checkedVolumes().checked(volume, check, ctx.now());
      }
    }
    if (v.replicas() == plan.replicas()) {
      return plan;
    }
    v.message().ifPresent(waiting::add);
    return StatefulSetPlan.holding(v.replicas());
  }

  /**
   * dm-worker failover ({@link WorkerFailover}): records offline workers, recovers; Events for
   * both. The StatefulSet's desired replicas.
   */
  private int failOverWorkers(ResourceContext<DmCluster, DmClusterStatus> ctx, WorkerSpec spec,
      WorkerStatus worker, String workerSet, Optional<Rollout> rollout, boolean synced) {
    int specReplicas = spec.getReplicas() == null ? 0 : spec.getReplicas();
    Set<String> ready = new java.util.TreeSet<>();
    boolean allStarted = false;
    if (rollout.isPresent()) {
      Rollout r = rollout.get();
      for (int i = 0; i < r.replicas(); i++) {
        r.pod(i).filter(p -> p.ready()).ifPresent(p -> ready.add(p.name()));
      }
      int desired = WorkerFailover.desiredReplicas(specReplicas, worker.getFailureMembers());
      allStarted = r.replicas() == desired && ctx.owned().podsOf(workerSet).size() == desired;
    }
    Map<String, io.tidb.operator.api.v1alpha1.dm.WorkerMember> members =
        worker.getMembers() == null ? Map.of() : worker.getMembers();
    boolean allOnline = members.size() == WorkerFailover.desiredReplicas(specReplicas, worker.getFailureMembers())
        && members.values().stream().noneMatch(m -> DmWorkerInfo.OFFLINE.equals(m.getStage()));
    WorkerFailover.Result result = WorkerFailover.decide(new WorkerFailover.Facts(workerSet, members,
        worker.getFailureMembers(), worker.getFailoverUID(), specReplicas, spec.getMaxFailoverCount(),
        Boolean.TRUE.equals(spec.getRecoverFailover()),
        spec.getFailover() == null ? null : spec.getFailover().getRecoverByUID(), ready, failover.enabled(),
        synced && allStarted && !allOnline, failover.workerPeriod(), ctx.now(),
        java.util.UUID.randomUUID().toString()));
    worker.setFailureMembers(result.records());
    worker.setFailoverUID(result.failoverUid());
    for (String pod : result.recorded()) {
      ctx.events().warning(ctx.stored(), "DMWorkerUnhealthy", "dm-worker " + pod
          + " has been offline for longer than the failover period (" + failover.workerPeriod().toSeconds()
          + " s): adding a replacement pod");
    }
    if (result.recovered()) {
      ctx.events().normal(ctx.stored(), "DMWorkerFailoverRecovered",
          "dm-worker failover records cleared (recoverFailover or failover.recoverByUID): the replacement"
              + " pods are scaled in like any scale-in");
    }
    return WorkerFailover.desiredReplicas(specReplicas, result.records());
  }

  private static <K, V> Map<K, V> emptyToNull(Map<K, V> map) {
    return map == null || map.isEmpty() ? null : map;
  }

  /** Carries out a failover decision; what the cluster now waits for, if anything. */
  private Optional<String> failOver(ResourceContext<DmCluster, DmClusterStatus> ctx, MasterFailover fo,
      MasterStatus master, DmMasterClient api, List<DmMasterInfo> masters, String masterSet) {
    switch (fo.action()) {
      case RECOVER -> {
        master.setFailureMembers(null);
        ctx.events().normal(ctx.stored(), "DMMasterFailoverRecovered",
            "every dm-master member is healthy: the failover replicas go");
        return Optional.empty();
      }
      case MARK -> {
        String claim = DmLabels.MASTER + "-" + fo.pod();
        MasterFailureMember f = new MasterFailureMember();
        f.setPodName(fo.pod());
        f.setMemberID(masters.stream().filter(m -> m.name().equals(fo.pod())).map(DmMasterInfo::memberId)
            .findFirst().orElse(null));
        // Recorded once: from the API server, not a cache that may trail it.
        f.setPvcUID(claims.of(ctx.namespace(), ctx.owned()).current(claim)
            .map(c -> c.getMetadata().getUid()).orElse(null));
        f.setMemberDeleted(false);
        f.setCreatedAt(ctx.now().toString());
        Map<String, MasterFailureMember> failures =
            new TreeMap<>(master.getFailureMembers() == null ? Map.of() : master.getFailureMembers());
        failures.put(fo.pod(), f);
        master.setFailureMembers(failures);
        ctx.events().warning(ctx.stored(), "DMMasterMemberUnhealthy", fo.reason() + ": failing it over");
        return Optional.of("dm-master failover of " + fo.pod());
      }
      case DELETE -> {
        MasterFailureMember f = master.getFailureMembers().get(fo.pod());
        try {
          if (masters.stream().anyMatch(m -> m.name().equals(fo.pod()))) {
            api.deleteMaster(fo.pod());
          }
          Optional<Pod> pod = ctx.owned().podsOf(masterSet).stream()
              .filter(p -> p.getMetadata().getName().equals(fo.pod())).findFirst();
          if (pod.isPresent()) {
            deletions.apply(ctx.namespace()).deletePod(fo.pod(), pod.get().getMetadata().getUid());
          }
          if (f.getPvcUID() != null) {
            claims.of(ctx.namespace(), ctx.owned()).delete(DmLabels.MASTER + "-" + fo.pod(), f.getPvcUID());
          }
        } catch (DmApiException | java.io.IOException e) {
          ctx.events().warning(ctx.stored(), "DMMasterActionFailed",
              "failover of " + fo.pod() + " failed: " + e.getMessage());
          return Optional.of("dm-master failover of " + fo.pod());
        }
        MasterFailureMember done = new MasterFailureMember();
        done.setPodName(f.getPodName());
        done.setMemberID(f.getMemberID());
        done.setPvcUID(f.getPvcUID());
        done.setCreatedAt(f.getCreatedAt());
        done.setMemberDeleted(true);
        Map<String, MasterFailureMember> failures = new TreeMap<>(master.getFailureMembers());
        failures.put(fo.pod(), done);
        master.setFailureMembers(failures);
        ctx.events().warning(ctx.stored(), "DMMasterMemberFailedOver", "dm-master member " + fo.pod()
            + " deleted with its pod and data claim; a replacement replica is added");
        return Optional.of("dm-master failover replacement of " + fo.pod());
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /** Makes the step's DM API call; the StatefulSet plan to apply afterwards. */
  private StatefulSetPlan act(ResourceContext<DmCluster, DmClusterStatus> ctx, MasterStep step,
      DmMasterClient api, ComponentHttp client, boolean tls, Optional<Rollout> rollout) {
    StatefulSetPlan hold = rollout.map(r -> StatefulSetPlan.holding(r.replicas())).orElse(step.plan());
    try {
      switch (step.action()) {
        case EVICT_LEADER -> {
          endpoints.memberClient(client, ctx.namespace(), ctx.name(), step.member(), tls).evictLeader();
          ctx.events().normal(ctx.stored(), "DMMasterLeaderEvicted",
              "dm-master " + step.member() + " handed over leadership: " + step.waitingFor().orElse(""));
          return step.plan();
        }
        case DELETE_MEMBER -> {
          api.deleteMaster(step.member());
          boolean gone = api.masters().stream().noneMatch(m -> m.name().equals(step.member()));
          if (!gone) {
            return hold;
          }
          ctx.events().normal(ctx.stored(), "DMMasterMemberDeleted",
              "dm-master member " + step.member() + " deleted before scale-in");
          return step.plan();
        }
        default -> {
          return step.plan();
        }
      }
    } catch (DmApiException e) {
      ctx.events().warning(ctx.stored(), "DMMasterActionFailed",
          step.action() + " " + step.member() + " failed: " + e.getMessage());
      return hold;
    }
  }

  private static void reportRefusal(ResourceContext<DmCluster, DmClusterStatus> ctx, WorkerStatus worker,
      Optional<String> refusal) {
    Optional<io.fabric8.kubernetes.api.model.Condition> before =
        Conditions.find(worker.getConditions(), SCALE_IN_REFUSED);
    if (refusal.isPresent()) {
      boolean same = before.filter(c -> refusal.get().equals(c.getMessage())).isPresent();
      worker.setConditions(Conditions.set(worker.getConditions(), SCALE_IN_REFUSED, Conditions.TRUE,
          "WorkerBound", refusal.get(), ctx.generation(), ctx.now()));
      if (!same) {
        ctx.events().warning(ctx.stored(), "DMWorkerScaleInRefused", refusal.get());
      }
    } else if (before.isPresent()) {
      List<io.fabric8.kubernetes.api.model.Condition> rest = Conditions.remove(worker.getConditions(), SCALE_IN_REFUSED);
      worker.setConditions(rest == null || rest.isEmpty() ? null : rest);
    }
  }

  private static void describe(DmMemberStatus s, boolean synced, int wanted, Optional<StatefulSet> sts,
      String container) {
    s.setSynced(synced);
    s.setPhase(ComponentPhase.of(wanted, sts).value());
    s.setStatefulSet(sts.map(StatefulSet::getStatus).orElse(null));
    s.setImage(sts.flatMap(set -> set.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> container.equals(c.getName())).findFirst()).map(c -> c.getImage()).orElse(null));
  }

  private static void setReady(ResourceContext<DmCluster, DmClusterStatus> ctx, DmReadyCondition.Verdict v) {
    ctx.status().setConditions(Conditions.set(ctx.status().getConditions(), DmReadyCondition.TYPE,
        v.status(), v.reason(), v.message(), ctx.generation(), ctx.now()));
  }
}
