package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorStatus;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import io.tidb.operator.controller.runtime.ApplyOutcome;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TidbMonitor controller's work on a valid, defaulted monitor: find the referenced clusters
 * (a missing one is a condition and an Event), generate the Prometheus configuration, apply every
 * object the monitor owns, and report the StatefulSets in status and in {@code Ready}.
 */
public final class TidbMonitorWork implements ReconcileWork<TidbMonitor, TidbMonitorStatus> {

  /**
   * Kinds the operator creates and owns for a TidbMonitor, read from informers. Its Secrets are
   * read and applied by name ({@link ObjectsByName}): the operator never lists or watches Secrets.
   */
  public static final List<Class<? extends HasMetadata>> OWNED_KINDS =
      List.of(
          StatefulSet.class,
          Service.class,
          ConfigMap.class,
          ServiceAccount.class,
          Role.class,
          RoleBinding.class,
          Ingress.class);

  private static final Logger LOG = LoggerFactory.getLogger(TidbMonitorWork.class);

  public static final String CLUSTERS_FOUND = "ClustersFound";
  public static final String READY = "Ready";
  public static final String DASHBOARD_LINKED = "DashboardLinked";

  private final Function<Function<ResourceID, Optional<TidbCluster>>, MonitorReads> readsFactory;
  private final ObjectsByName byName;
  private final ClusterScopedRbac clusterScoped;
  private final MonitorVolumes volumes;
  private final DashboardLinks dashboard;
  private volatile MonitorReads reads;

  /**
   * @param readsFactory the reads, given the lookup of TidbClusters in this controller's cache
   * @param byName writes the monitor's Secrets
   * @param clusterScoped applies the RBAC of {@code clusterScoped} monitors
   * @param volumes the data claims and their volumes, for {@code spec.pvReclaimPolicy}
   * @param dashboard points the clusters' TiDB Dashboard at the monitor
   */
  public TidbMonitorWork(
      Function<Function<ResourceID, Optional<TidbCluster>>, MonitorReads> readsFactory,
      ObjectsByName byName,
      ClusterScopedRbac clusterScoped,
      MonitorVolumes volumes,
      DashboardLinks dashboard) {
    this.readsFactory = readsFactory;
    this.byName = byName;
    this.clusterScoped = clusterScoped;
    this.volumes = volumes;
    this.dashboard = dashboard;
  }

  /** Started on the first TidbMonitor: a namespace without one lists and watches none of them. */
  @Override
  public boolean ownedInformersOnFirstResource() {
    return true;
  }

  @Override
  public List<EventSource<?, TidbMonitor>> eventSources(EventSourceContext<TidbMonitor> context) {
    List<EventSource<?, TidbMonitor>> sources =
        new ArrayList<>(OwnedEventSources.owned(context, OWNED_KINDS,
            MonitorLabels.COMPONENT + "=" + MonitorLabels.COMPONENT_VALUE));
    InformerEventSource<TidbCluster, TidbMonitor> clusters = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(TidbCluster.class, TidbMonitor.class)
            .withName("monitored-tidbclusters")
            .withItemStore(OwnedEventSources.itemStore(context))
            .withSecondaryToPrimaryMapper(tc -> monitorsOf(tc, context.getPrimaryCache().list().toList()))
            .build(),
        context);
    sources.add(clusters);
    reads = readsFactory.apply(clusters::get);
    return sources;
  }

  /** The monitors (from the cache) whose spec.clusters name this cluster. */
  static Set<ResourceID> monitorsOf(TidbCluster tc, List<TidbMonitor> monitors) {
    String ns = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    return monitors.stream()
        .filter(tm -> tm.getSpec() != null && tm.getSpec().getClusters() != null)
        .filter(tm -> tm.getSpec().getClusters().stream().anyMatch(ref -> refers(ref, tm, ns, name)))
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  private static boolean refers(TidbClusterRef ref, TidbMonitor tm, String ns, String name) {
    String refNs = ref.getNamespace() == null || ref.getNamespace().isEmpty()
        ? tm.getMetadata().getNamespace() : ref.getNamespace();
    return name.equals(ref.getName()) && ns.equals(refNs);
  }

  @Override
  public WorkOutcome work(ResourceContext<TidbMonitor, TidbMonitorStatus> ctx) {
    return work(ctx, reads);
  }

  /** One reconcile with the given reads (tests pass in-memory ones). */
  public WorkOutcome work(ResourceContext<TidbMonitor, TidbMonitorStatus> ctx, MonitorReads reads) {
    TidbMonitor tm = ctx.resource();
    TidbMonitorSpec spec = tm.getSpec();
    TidbMonitorStatus status = ctx.status();
    MonitoredClusters clusters = MonitoredClusters.find(tm, reads);
    List<String> problems = new ArrayList<>();

    String clustersMessage = clusters.missing().isEmpty()
        ? "monitoring " + String.join(", ", clusters.keys())
        : String.join(", ", clusters.missing()) + " not found; monitoring "
            + (clusters.keys().isEmpty() ? "none yet" : String.join(", ", clusters.keys()))
            + "; the configuration follows when it is created";
    boolean reportMissing = !clusters.missing().isEmpty()
        && !Conditions.find(status.getConditions(), CLUSTERS_FOUND)
            .map(c -> clustersMessage.equals(c.getMessage())).orElse(false);
    status.setConditions(Conditions.set(status.getConditions(), CLUSTERS_FOUND,
        clusters.missing().isEmpty() ? Conditions.TRUE : Conditions.FALSE,
        clusters.missing().isEmpty() ? "Found" : "ClusterNotFound",
        clustersMessage, ctx.generation(), ctx.now()));
    if (reportMissing) {
      ctx.events().warning(ctx.stored(), "ClusterNotFound", clustersMessage);
    }
    if (!clusters.missing().isEmpty()) {
      problems.add(String.join(", ", clusters.missing()) + " not found");
    }
    status.setClusters(clusters.keys().isEmpty() ? null : clusters.keys());

    Map<String, String> tlsAssets = tlsAssets(clusters, reads, problems);
    RemoteWriteSecrets.Copied remoteWrite = RemoteWriteSecrets.copy(
        tm, reads, PrometheusConfigGenerator.readsUsernameFile(spec), problems);
    tlsAssets.putAll(remoteWrite.assets());
    String prometheusYaml = PrometheusConfigYaml.render(
        PrometheusConfigGenerator.generate(tm, clusters.tidb(), clusters.dm(), remoteWrite));
    prometheusYaml = externalConfig(tm, reads, problems).orElse(prometheusYaml);

    ctx.apply(MonitorObjects.serviceAccount(tm));
    if (Boolean.TRUE.equals(spec.getClusterScoped())) {
      clusterScoped.apply(tm).ifPresent(problems::add);
    } else {
      ctx.apply(MonitorObjects.role(tm));
      ctx.apply(MonitorObjects.roleBinding(tm));
    }
    ApplyOutcome config = ctx.apply(MonitorObjects.prometheusConfigMap(tm, prometheusYaml));
    if (config == ApplyOutcome.UPDATED) {
      ctx.events().normal(ctx.stored(), "ConfigChanged", "Prometheus configuration "
          + MonitorNames.monitor(tm) + " changed"
          + (spec.getPrometheusReloader() == null
              ? "; the pods restart to load it" : "; the config reloader loads it"));
    }
    if (spec.getGrafana() != null) {
      ctx.apply(MonitorObjects.grafanaConfigMap(tm));
      applyByName(ctx, MonitorObjects.grafanaSecret(tm));
    }
    applyByName(ctx, MonitorObjects.tlsAssets(tm, tlsAssets));
    MonitorObjects.services(tm).forEach(ctx::apply);
    String digest = MonitorObjects.digest(prometheusYaml);
    MonitoredCluster firstDm = clusters.dm().isEmpty() ? null : clusters.dm().get(0);
    List<StatefulSet> wanted = new ArrayList<>();
    for (int shard = 0; shard < MonitorNames.shards(spec); shard++) {
      StatefulSet sts = MonitorStatefulSet.build(
          tm, shard, clusters.firstTidbCluster().orElse(null), firstDm, digest);
      ctx.apply(sts);
      wanted.add(sts);
    }
    MonitorObjects.ingresses(tm).forEach(ctx::apply);
    careDataVolumes(ctx, wanted);
    linkDashboards(ctx, clusters);

    List<Optional<StatefulSet>> actual = wanted.stream()
        .map(s -> ctx.owned().get(StatefulSet.class, s.getMetadata().getName())).toList();
    status.setStatefulSet(actual.get(0).map(StatefulSet::getStatus).orElse(null));
    boolean running = actual.stream().allMatch(s -> s.map(x -> ready(x, MonitorNames.replicas(spec))).orElse(false));
    String phase = running ? "Running" : "Pending";
    status.setPrometheus(phase);
    status.setGrafana(spec.getGrafana() == null ? null : phase);
    if (!running) {
      problems.add(notReady(actual, wanted));
    }
    status.setConditions(Conditions.set(status.getConditions(), READY,
        problems.isEmpty() ? Conditions.TRUE : Conditions.FALSE,
        problems.isEmpty() ? "Ready" : notReadyReason(clusters, running),
        problems.isEmpty() ? "Prometheus" + (spec.getGrafana() == null ? "" : " and Grafana")
            + " running for " + String.join(", ", clusters.keys()) : String.join("; ", problems),
        ctx.generation(), ctx.now()));
    return running ? WorkOutcome.converged() : WorkOutcome.converging("statefulset", problems.get(problems.size() - 1));
  }

  /**
   * {@code spec.pvReclaimPolicy} on the volumes bound to the data claims ({@code
   * tidbmonitor-<statefulset>-<ordinal>}), as upstream; a claim not bound yet is cared for on a
   * later reconcile.
   */
  private void careDataVolumes(ResourceContext<TidbMonitor, TidbMonitorStatus> ctx, List<StatefulSet> wanted) {
    TidbMonitor tm = ctx.resource();
    String policy = tm.getSpec().getPvReclaimPolicy();
    if (policy == null || MonitorStatefulSet.claims(tm.getSpec()) == null) {
      return;
    }
    for (StatefulSet sts : wanted) {
      for (int ordinal = 0; ordinal < sts.getSpec().getReplicas(); ordinal++) {
        String claim = MonitorNames.DATA_VOLUME + "-" + sts.getMetadata().getName() + "-" + ordinal;
        Optional<String> bound = volumes.claim(ctx.namespace(), claim)
            .map(c -> c.getSpec() == null ? null : c.getSpec().getVolumeName())
            .filter(v -> !v.isEmpty());
        Optional<PersistentVolume> pv = bound.flatMap(volumes::volume).filter(v -> v.getSpec() != null);
        if (pv.isEmpty() || policy.equals(pv.get().getSpec().getPersistentVolumeReclaimPolicy())) {
          continue;
        }
        String was = pv.get().getSpec().getPersistentVolumeReclaimPolicy();
        volumes.setReclaimPolicy(bound.get(), policy);
        LOG.info("persistent volume reclaim policy set namespace={} monitor={} claim={} volume={}"
            + " policy={} was={}", ctx.namespace(), ctx.name(), claim, bound.get(), policy, was);
        ctx.events().normal(ctx.stored(), "ReclaimPolicySet", "PersistentVolume " + bound.get()
            + " of claim " + claim + ": reclaim policy " + policy + " (was " + was + ")");
      }
    }
  }

  /** {@link DashboardLinks} for the referenced TidbClusters, reported in {@code DashboardLinked}. */
  private void linkDashboards(ResourceContext<TidbMonitor, TidbMonitorStatus> ctx, MonitoredClusters clusters) {
    List<TidbCluster> linked = clusters.tidbClusters().stream().filter(DashboardLinks::applies).toList();
    TidbMonitorStatus status = ctx.status();
    if (linked.isEmpty()) {
      status.setConditions(Conditions.remove(status.getConditions(), DASHBOARD_LINKED));
      return;
    }
    List<String> failures = dashboard.publish(ctx.resource(), linked, ctx.now());
    String names = linked.stream()
        .map(tc -> tc.getMetadata().getNamespace() + "/" + tc.getMetadata().getName())
        .collect(Collectors.joining(", "));
    status.setConditions(Conditions.set(status.getConditions(), DASHBOARD_LINKED,
        failures.isEmpty() ? Conditions.TRUE : Conditions.FALSE,
        failures.isEmpty() ? "Linked" : "PdUnreachable",
        failures.isEmpty() ? "TiDB Dashboard of " + names + " reads metrics from this monitor"
            : String.join("; ", failures) + "; retried on the next reconcile",
        ctx.generation(), ctx.now()));
  }

  /** As {@link ResourceContext#apply}, with the same Events, for an object without an informer. */
  private void applyByName(ResourceContext<TidbMonitor, TidbMonitorStatus> ctx, HasMetadata desired) {
    ApplyOutcome outcome = byName.apply(desired);
    if (outcome == ApplyOutcome.UNCHANGED) {
      return;
    }
    String verb = outcome == ApplyOutcome.CREATED ? "create" : "update";
    ctx.events().normal(ctx.stored(), outcome == ApplyOutcome.CREATED ? "SuccessfulCreate" : "SuccessfulUpdate",
        verb + " " + desired.getKind() + " " + desired.getMetadata().getName() + " in TidbMonitor "
            + ctx.name() + " successful");
  }

  /** The first reason, in the order a user fixes them: clusters, pods, then inputs of the config. */
  static String notReadyReason(MonitoredClusters clusters, boolean running) {
    if (!clusters.missing().isEmpty()) {
      return "ClusterNotFound";
    }
    return running ? "ConfigIncomplete" : "StatefulSetNotReady";
  }

  static boolean ready(StatefulSet sts, int replicas) {
    StatefulSetStatus s = sts.getStatus();
    if (s == null) {
      return replicas == 0;
    }
    boolean observed = s.getObservedGeneration() != null
        && Objects.equals(s.getObservedGeneration(), sts.getMetadata().getGeneration());
    int ready = s.getReadyReplicas() == null ? 0 : s.getReadyReplicas();
    boolean current = s.getUpdateRevision() == null || s.getUpdateRevision().equals(s.getCurrentRevision());
    return observed && current && ready >= replicas;
  }

  private static String notReady(List<Optional<StatefulSet>> actual, List<StatefulSet> wanted) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      String name = wanted.get(i).getMetadata().getName();
      int want = wanted.get(i).getSpec().getReplicas();
      int ready = actual.get(i).map(StatefulSet::getStatus).map(StatefulSetStatus::getReadyReplicas)
          .orElse(0);
      out.add("StatefulSet " + name + " has " + ready + " of " + want + " pods ready");
    }
    return String.join(", ", out);
  }

  /** The client certificates of the TLS clusters, copied under their asset keys. */
  static Map<String, String> tlsAssets(MonitoredClusters clusters, MonitorReads reads, List<String> problems) {
    Map<String, String> data = new LinkedHashMap<>();
    copy(clusters.tidb(), false, reads, data, problems);
    copy(clusters.dm(), true, reads, data, problems);
    return data;
  }

  private static void copy(List<MonitoredCluster> clusters, boolean dm, MonitorReads reads,
      Map<String, String> data, List<String> problems) {
    for (MonitoredCluster c : clusters) {
      if (!c.tls()) {
        continue;
      }
      String secretName = PrometheusConfigGenerator.clientSecretName(c, dm);
      Optional<Secret> secret = reads.secret(c.namespace(), secretName);
      if (secret.isEmpty() || secret.get().getData() == null) {
        problems.add("client certificate Secret " + c.namespace() + "/" + secretName + " of TLS cluster "
            + c.key() + " not found");
        continue;
      }
      for (String key : List.of("ca.crt", "tls.crt", "tls.key")) {
        String value = secret.get().getData().get(key);
        if (value != null) {
          data.put(PrometheusConfigGenerator.tlsAssetKey(c.namespace(), secretName, key), value);
        }
      }
    }
  }

  /** prometheus.config.configMapRef: its key prometheus-config replaces the generated file. */
  static Optional<String> externalConfig(TidbMonitor tm, MonitorReads reads, List<String> problems) {
    var config = tm.getSpec().getPrometheus().getConfig();
    if (config == null || config.getConfigMapRef() == null || config.getConfigMapRef().getName() == null
        || config.getConfigMapRef().getName().isEmpty()) {
      return Optional.empty();
    }
    String ns = config.getConfigMapRef().getNamespace() == null
        ? tm.getMetadata().getNamespace() : config.getConfigMapRef().getNamespace();
    Optional<ConfigMap> cm = reads.configMap(ns, config.getConfigMapRef().getName());
    if (cm.isEmpty()) {
      problems.add("ConfigMap " + ns + "/" + config.getConfigMapRef().getName()
          + " (spec.prometheus.config.configMapRef) not found; using the generated configuration");
      return Optional.empty();
    }
    return Optional.ofNullable(cm.get().getData()).map(d -> d.get("prometheus-config"));
  }
}
