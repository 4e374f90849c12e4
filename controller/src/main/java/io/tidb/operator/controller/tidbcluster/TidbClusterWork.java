package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.validation.cluster.UnmanagedComponentRules;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterPipeline;
import io.tidb.operator.controller.tidbcluster.pipeline.Deletions;
import io.tidb.operator.controller.tidbcluster.pipeline.NodeLabels;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsProblem;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The TidbCluster controller's work on a valid, defaulted cluster: run the component pipeline
 * (discovery → PD → TiProxy → TiFlash → TiKV → Pump → TiDB → TiCDC), then fold the {@code Ready}
 * condition from what each component reported; a spec naming a component this operator does not
 * run holds {@code Ready} False ({@link UnmanagedComponentsVerdict}).
 */
public final class TidbClusterWork implements ReconcileWork<TidbCluster, TidbClusterStatus> {

  /** Kinds the operator creates and owns directly for a TidbCluster. */
  public static final List<Class<? extends HasMetadata>> OWNED_KINDS =
      List.of(
          StatefulSet.class,
          Service.class,
          ConfigMap.class,
          Deployment.class,
          ServiceAccount.class,
          Role.class,
          RoleBinding.class);

  /** The claims the TidbCluster informer keeps, besides {@code managed-by}: not DMClusters'. */
  static final String CLAIM_SELECTOR = Labels.NAME + "=" + Labels.NAME_VALUE;

  private final ClusterPipeline pipeline;
  private final Function<TidbCluster, ClusterApi> apis;
  private final VolumeClaims.Source claims;
  private final Function<String, Deletions> deletions;
  private final NodeLabels nodes;

  /**
   * @param apis each cluster's PD and TiDB API
   * @param claims the volume claims of a reconcile (read from the claim informer {@link
   *     #eventSources} registers)
   */
  public TidbClusterWork(
      ClusterPipeline pipeline,
      Function<TidbCluster, ClusterApi> apis,
      VolumeClaims.Source claims) {
    this(pipeline, apis, claims, ns -> Deletions.NONE);
  }

  /** @param deletions pod and StatefulSet deletions in a namespace */
  public TidbClusterWork(
      ClusterPipeline pipeline,
      Function<TidbCluster, ClusterApi> apis,
      VolumeClaims.Source claims,
      Function<String, Deletions> deletions) {
    this(pipeline, apis, claims, deletions, NodeLabels.NONE);
  }

  /** @param nodes the labels of Nodes (TiProxy's zone labels) */
  public TidbClusterWork(
      ClusterPipeline pipeline,
      Function<TidbCluster, ClusterApi> apis,
      VolumeClaims.Source claims,
      Function<String, Deletions> deletions,
      NodeLabels nodes) {
    this.pipeline = pipeline;
    this.apis = apis;
    this.claims = claims;
    this.deletions = deletions;
    this.nodes = nodes;
  }

  @Override
  public List<EventSource<?, TidbCluster>> eventSources(EventSourceContext<TidbCluster> context) {
    List<EventSource<?, TidbCluster>> sources =
        new ArrayList<>(OwnedEventSources.owned(context, OWNED_KINDS));
    sources.add(OwnedEventSources.pods(context, TidbClusterWork::clusterOfPod));
    sources.add(OwnedEventSources.claims(context, CLAIM_SELECTOR, Labels::instanceOf));
    return sources;
  }

  @Override
  public WorkOutcome work(ResourceContext<TidbCluster, TidbClusterStatus> resource)
      throws Exception {
    ClusterApi api;
    try {
      api = apis.apply(resource.resource());
    } catch (ClusterTlsUnavailableException e) {
      return ClusterTlsProblem.hold(resource, e);
    }
    ClusterContext ctx =
        new ClusterContext(
            resource,
            api,
            claims.of(resource.namespace(), resource.owned()),
            deletions.apply(resource.namespace()),
            nodes);
    WorkOutcome outcome = pipeline.run(ctx);
    ReadyCondition.Verdict ready =
        UnmanagedComponentsVerdict.of(resource.resource().getSpec())
            .orElseGet(() -> ReadyCondition.evaluate(ctx.status(), ctx.observedComponents()));
    warnOnNewReason(resource, ready);
    ctx.status()
        .setConditions(
            Conditions.set(
                ctx.status().getConditions(),
                ReadyCondition.TYPE,
                ready.status(),
                ready.reason(),
                ready.message(),
                resource.generation(),
                resource.now()));
    return outcome;
  }

  /** A Warning Event when the cluster becomes unready because of components it cannot run. */
  private static void warnOnNewReason(
      ResourceContext<TidbCluster, TidbClusterStatus> resource, ReadyCondition.Verdict ready) {
    if (!UnmanagedComponentRules.READY_REASON.equals(ready.reason())) {
      return;
    }
    boolean alreadyShown =
        Conditions.find(resource.status().getConditions(), ReadyCondition.TYPE)
            .filter(c -> ready.reason().equals(c.getReason()))
            .filter(c -> ready.message().equals(c.getMessage()))
            .isPresent();
    if (!alreadyShown) {
      resource.events().warning(resource.stored(), ready.reason(), ready.message());
    }
  }

  /**
   * The cluster a pod belongs to: its owner StatefulSet is named {@code <cluster>-<component>},
   * and the pod carries the component label.
   */
  static Set<ResourceID> clusterOfPod(Pod pod) {
    return OwnedEventSources.statefulSetOf(pod)
        .flatMap(sts -> clusterOfStatefulSet(sts, pod.getMetadata().getLabels()))
        .map(cluster -> Set.of(new ResourceID(cluster, pod.getMetadata().getNamespace())))
        .orElse(Set.of());
  }

  private static Optional<String> clusterOfStatefulSet(String sts, Map<String, String> labels) {
    String component = labels == null ? null : labels.get(Labels.COMPONENT);
    String suffix = "-" + component;
    if (component == null || !sts.endsWith(suffix) || sts.length() == suffix.length()) {
      return Optional.empty();
    }
    return Optional.of(sts.substring(0, sts.length() - suffix.length()));
  }
}
