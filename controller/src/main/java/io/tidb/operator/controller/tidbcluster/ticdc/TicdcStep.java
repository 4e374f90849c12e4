package io.tidb.operator.controller.tidbcluster.ticdc;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.TicdcCapture;
import io.tidb.operator.api.v1alpha1.cluster.TicdcStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.DesiredMembers;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * TiCDC: waits for PD's quorum and an Up TiKV store; then the peer Service, ConfigMap and
 * StatefulSet; {@code status.ticdc.captures} from each pod's {@code GET :8301/status}. Before a
 * pod is restarted by an upgrade or removed by a scale-in, its capture is shut down gracefully
 * ({@link TicdcGracefulShutdown}: owner resign, drain, hand-over), bounded by {@code
 * spec.ticdc.gracefulShutdownTimeout} (default 10 minutes) counted from the component condition
 * {@code GracefulShutdown}. An upgrade skips the graceful shutdown when the version the capture
 * reports cannot hand its tables over to the wanted one ({@link TicdcVersionCheck}). It runs last, so it is upgraded after every other component.
 */
public final class TicdcStep extends MemberStep<TicdcStatus> {

  /** Upstream's reason when a TiCDC capture is not ready. */
  public static final String TICDC_CAPTURE_NOT_READY = "TiCDCCaptureNotReady";

  /** Component condition of a graceful shutdown in progress; its transition time is the start. */
  static final String SHUTDOWN_CONDITION = "GracefulShutdown";

  static final String DRAINING = "Draining";
  static final String TIMED_OUT = "TimedOut";

  /** Upstream's default {@code gracefulShutdownTimeout}. */
  static final Duration DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT = Duration.ofMinutes(10);

  /** @param before what PD and TiKV must offer before TiCDC starts */
  public TicdcStep(Prerequisite before) {
    super(before);
  }

  @Override
  protected Component component() {
    return TicdcObjects.COMPONENT;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getTicdc();
  }

  @Override
  protected String displayName() {
    return "TiCDC";
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> status.getTicdc() != null
            && Boolean.TRUE.equals(status.getTicdc().getSynced())
            && DesiredMembers.exactly(status.getTicdc().getCaptures(), desired,
                c -> Boolean.TRUE.equals(c.getReady())),
        TICDC_CAPTURE_NOT_READY,
        "TiCDC capture(s) are not ready");
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    return List.of(TicdcObjects.peerService(tc));
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return TicdcObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return TicdcObjects.statefulSet(tc, cm, plan);
  }

  /** Upstream scales TiCDC one pod at a time. */
  @Override
  protected int scaleOutStep(TidbCluster tc) {
    return 1;
  }

  @Override
  protected TicdcStatus statusOf(TidbClusterStatus status) {
    if (status.getTicdc() == null) {
      status.setTicdc(new TicdcStatus());
    }
    return status.getTicdc();
  }

  /** Each pod's capture, from its {@code /status}; a pod that does not answer has none. */
  @Override
  protected void observeMembers(ClusterContext ctx, TicdcStatus status, Optional<StatefulSet> sts) {
    Map<String, TicdcCapture> captures = new TreeMap<>();
    int replicas = sts.map(s -> s.getSpec().getReplicas() == null ? 0 : s.getSpec().getReplicas())
        .orElse(0);
    for (int i = 0; i < replicas; i++) {
      String pod = Names.pod(ctx.name(), TicdcObjects.COMPONENT, i);
      try {
        ClusterApi.TicdcCaptureStatus s = ctx.api().ticdcStatus(pod);
        TicdcCapture c = new TicdcCapture();
        c.setPodName(pod);
        c.setId(s.id());
        c.setVersion(s.version());
        c.setIsOwner(s.owner());
        c.setReady(true);
        captures.put(pod, c);
      } catch (IOException e) {
        // no capture for this pod: it is not ready
      }
    }
    status.setCaptures(captures.isEmpty() ? null : captures);
    status.setSynced(true);
  }

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted) {
    int last = rollout.replicas() - 1;
    return gracefulShutdown(ctx, rollout, last, Optional.empty())
        .orElse(TicdcUpgrade.scaleIn(rollout.replicas(), wanted));
  }

  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) {
    Set<String> captured = new TreeSet<>();
    TicdcStatus status = ctx.status().getTicdc();
    if (status != null && status.getCaptures() != null) {
      status.getCaptures().values().stream()
          .filter(c -> Boolean.TRUE.equals(c.getReady()))
          .forEach(c -> captured.add(c.getPodName()));
    }
    MemberDecision d = TicdcUpgrade.decide(rollout, captured);
    if (!(d instanceof MemberDecision.Roll roll)) {
      return d;
    }
    int next = roll.partition() - 1;
    String pod = rollout.podName(roll.partition());
    Optional<TicdcVersionCheck.Verdict> verdict = podVersion(status, pod)
        .map(v -> TicdcVersionCheck.decide(v, TicdcVersionCheck.tag(TicdcObjects.image(ctx.cluster()))));
    if (verdict.isPresent() && !verdict.get().graceful()) {
      ctx.events().normal(ctx.cluster(), "TiCDCGracefulShutdownSkipped",
          "TiCDC: " + pod + " is replaced without a graceful shutdown: " + verdict.get().why());
      return d;
    }
    return gracefulShutdown(ctx, rollout, roll.partition(),
            next >= 0 ? Optional.of(rollout.podName(next)) : Optional.empty())
        .orElse(d);
  }

  /** The version the capture of {@code pod} reported this reconcile, if it answered. */
  private static Optional<String> podVersion(TicdcStatus status, String pod) {
    return Optional.ofNullable(status)
        .map(TicdcStatus::getCaptures)
        .map(c -> c.get(pod))
        .filter(c -> Boolean.TRUE.equals(c.getReady()))
        .map(TicdcCapture::getVersion)
        .filter(v -> !v.isEmpty());
  }

  /** No operation in progress: the graceful shutdown record goes. */
  @Override
  protected MemberDecision idle(ClusterContext ctx, Rollout rollout) throws IOException {
    TicdcStatus status = statusOf(ctx.status());
    status.setConditions(Conditions.remove(status.getConditions(), SHUTDOWN_CONDITION));
    return super.idle(ctx, rollout);
  }

  /**
   * The next graceful-shutdown step for the pod of {@code ordinal}, or empty when it may be
   * restarted or removed now (done, or {@code gracefulShutdownTimeout} has passed).
   *
   * @param next the pod an upgrade replaces after this one
   */
  private Optional<MemberDecision> gracefulShutdown(
      ClusterContext ctx, Rollout rollout, int ordinal, Optional<String> next) {
    String pod = rollout.podName(ordinal);
    if (rollout.pod(ordinal).isEmpty()) {
      return Optional.empty();
    }
    Duration timeout = timeout(ctx.cluster());
    Instant began = began(ctx, pod, timeout);
    if (!ctx.now().isBefore(began.plus(timeout))) {
      timedOut(ctx, pod, timeout);
      return Optional.empty();
    }
    String host = Names.podHost(pod, Names.peerService(ctx.name(), TicdcObjects.COMPONENT),
        ctx.namespace(), MemberPods.clusterDomain(ctx.cluster()));
    try {
      Optional<List<ClusterApi.TicdcCapture>> captures = ctx.api().ticdcCaptures(pod);
      TicdcGracefulShutdown.Next step = TicdcGracefulShutdown.begin(pod, host, captures);
      if (step instanceof TicdcGracefulShutdown.Next.Drain drain) {
        step = TicdcGracefulShutdown.afterDrain(pod,
            ctx.api().drainTicdcCapture(pod, drain.captureId()));
      }
      if (step instanceof TicdcGracefulShutdown.Next.Step s) {
        return Optional.of(s.decision());
      }
      if (next.isEmpty()) {
        return Optional.empty();
      }
      Optional<String> owner = captures.orElse(List.of()).stream()
          .filter(ClusterApi.TicdcCapture::owner)
          .map(c -> c.address().contains(".") ? c.address().substring(0, c.address().indexOf('.'))
              : c.address())
          .findFirst();
      boolean healthy = owner.isPresent() && ctx.api().ticdcHealthy(owner.get());
      return TicdcGracefulShutdown.handOver(pod, next, owner, healthy);
    } catch (IOException e) {
      return Optional.of(MemberDecision.waitFor(
          "the TiCDC server of " + pod + " does not answer (" + e.getMessage() + "); its"
              + " graceful shutdown is retried until gracefulShutdownTimeout ("
              + timeout.toSeconds() + " s) has passed"));
    }
  }

  /** When the graceful shutdown of {@code pod} began: recorded in the component condition. */
  private Instant began(ClusterContext ctx, String pod, Duration timeout) {
    TicdcStatus status = statusOf(ctx.status());
    Optional<Condition> c = Conditions.find(status.getConditions(), SHUTDOWN_CONDITION)
        .filter(x -> x.getMessage() != null && x.getMessage().startsWith(pod + ":"));
    if (c.isPresent() && c.get().getLastTransitionTime() != null) {
      return Instant.parse(c.get().getLastTransitionTime());
    }
    List<Condition> without = Conditions.remove(status.getConditions(), SHUTDOWN_CONDITION);
    status.setConditions(Conditions.set(without, SHUTDOWN_CONDITION, Conditions.TRUE, DRAINING,
        pod + ": moving its TiCDC tables to other captures before the pod is restarted or"
            + " removed (gives up after gracefulShutdownTimeout " + timeout.toSeconds() + " s)",
        ctx.cluster().getMetadata().getGeneration(), ctx.now()));
    ctx.events().normal(ctx.cluster(), "TiCDCGracefulShutdown",
        "TiCDC: shutting down the capture of " + pod + " gracefully (owner resign, drain)");
    return ctx.now();
  }

  private void timedOut(ClusterContext ctx, String pod, Duration timeout) {
    TicdcStatus status = statusOf(ctx.status());
    Condition c = Conditions.find(status.getConditions(), SHUTDOWN_CONDITION).orElseThrow();
    if (TIMED_OUT.equals(c.getReason())) {
      return;
    }
    status.setConditions(Conditions.set(status.getConditions(), SHUTDOWN_CONDITION,
        Conditions.TRUE, TIMED_OUT,
        pod + ": gracefulShutdownTimeout (" + timeout.toSeconds() + " s) passed; the pod goes"
            + " without a complete drain",
        ctx.cluster().getMetadata().getGeneration(), ctx.now()));
    ctx.events().warning(ctx.cluster(), "TiCDCGracefulShutdownTimeout",
        "TiCDC: the capture of " + pod + " was not drained within gracefulShutdownTimeout ("
            + timeout.toSeconds() + " s); going on without it");
  }

  private static Duration timeout(TidbCluster tc) {
    String text = tc.getSpec().getTicdc().getGracefulShutdownTimeout();
    if (text == null || text.isBlank()) {
      return DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT;
    }
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      return DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT;
    }
  }
}
