package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.KubeTime;
import io.tidb.operator.api.v1alpha1.cluster.ComponentStatus;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolumeStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.pipeline.CheckedVolumes;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims.Expansion;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims.VolumeWrite;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the operator does to a member component's volumes in every reconcile, after its
 * StatefulSet was applied: resizes claims ({@link VolumeResizer} decides), labels them with the
 * member's PD member id or TiKV store id, and applies {@code spec.pvReclaimPolicy} and the labels
 * of {@link PvLabels} to the PersistentVolumes bound to them. Claims are read from the informer
 * (a stale claim only repeats an idempotent patch); volumes are read only when not found right
 * recently ({@link CheckedVolumes}). Reports {@code status.<component>.volumes}, the {@code
 * VolumeResize} condition and Events.
 */
public final class VolumeCare {

  /** How young a claim is whose volume is patched without being read first. */
  static final Duration NEW_CLAIM = Duration.ofMinutes(10);

  /** Normal Event: claims were patched to a larger size. */
  public static final String RESIZING_EVENT = "VolumeResizing";

  /** Normal Event: every claim has the size the spec asks for. */
  public static final String RESIZED_EVENT = "VolumeResized";

  private static final Logger LOG = LoggerFactory.getLogger(VolumeCare.class);

  private VolumeCare() {}

  /**
   * What {@link MemberStep} passes in.
   *
   * @param displayName PD, TiKV, TiDB
   * @param actual the StatefulSet as it is (its claim templates name the claims)
   * @param desiredTemplates the claim templates the spec asks for (their sizes are the target)
   * @param rollout the StatefulSet and its pods
   * @param oneAtATime one pod's claims at a time
   * @param heldBy why no new resize may start now, or empty
   * @param idLabels the labels each pod's claims get, by pod name (member id, store id)
   */
  public record Request(
      String displayName,
      StatefulSet actual,
      List<PersistentVolumeClaim> desiredTemplates,
      Rollout rollout,
      boolean oneAtATime,
      Optional<String> heldBy,
      Map<String, Map<String, String>> idLabels) {}

  /**
   * Carries out the volume rule for one component.
   *
   * @return the resize in progress (for the step's result), or empty
   */
  public static Optional<String> sync(ClusterContext ctx, ComponentStatus status, Request r) {
    Map<String, Quantity> desired = new HashMap<>();
    if (r.desiredTemplates() != null) {
      for (PersistentVolumeClaim t : r.desiredTemplates()) {
        Quantity q = storageOf(t);
        if (q != null) {
          desired.put(t.getMetadata().getName(), q);
        }
      }
    }
    List<PersistentVolumeClaim> listed =
        ctx.claims().list(r.actual().getSpec().getSelector().getMatchLabels());
    Map<String, PersistentVolumeClaim> byName = new HashMap<>();
    listed.forEach(c -> byName.put(c.getMetadata().getName(), c));

    Map<String, Expansion> classes = new HashMap<>();
    List<VolumeResizer.Claim> claims = new ArrayList<>();
    List<PersistentVolumeClaim> templates = r.actual().getSpec().getVolumeClaimTemplates();
    for (int ordinal = 0; ordinal < r.rollout().replicas(); ordinal++) {
      String pod = r.rollout().podName(ordinal);
      for (PersistentVolumeClaim t : templates == null ? List.<PersistentVolumeClaim>of() : templates) {
        String volume = t.getMetadata().getName();
        PersistentVolumeClaim pvc = byName.get(volume + "-" + r.actual().getMetadata().getName() + "-" + ordinal);
        if (pvc == null || pvc.getMetadata().getDeletionTimestamp() != null) {
          continue;
        }
        pvc = label(ctx, pvc, r.idLabels().getOrDefault(pod, Map.of()));
        byName.put(pvc.getMetadata().getName(), pvc);
        Quantity want = desired.get(volume);
        if (want == null) {
          continue;
        }
        Quantity request = storageOf(pvc);
        Expansion expansion = null;
        if (request != null && VolumeResizer.compare(want, request) > 0) {
          String cls = pvc.getSpec().getStorageClassName();
          expansion = classes.computeIfAbsent(
              cls == null ? "" : cls, c -> ctx.claims().expansion(c.isEmpty() ? null : c));
        }
        VolumeResizer.Claim claim = VolumeResizer.claim(pvc, volume, ordinal, want, expansion);
        if (claim != null) {
          claims.add(claim);
        }
      }
    }
    VolumeResizer.Plan plan = VolumeResizer.decide(claims, r.oneAtATime(), r.heldBy());
    for (Map.Entry<String, Quantity> e : plan.resize().entrySet()) {
      ctx.claims().resize(e.getKey(), e.getValue());
    }
    if (!plan.resize().isEmpty()) {
      ctx.events().normal(ctx.cluster(), RESIZING_EVENT, r.displayName() + ": resizing volume"
          + " claim" + (plan.resize().size() == 1 ? " " : "s ")
          + String.join(", ", plan.resize().keySet()) + " to "
          + plan.resize().values().iterator().next());
    }
    report(ctx, status, r.displayName(), plan);
    // With the labels just written, so a volume is labelled in the same reconcile as its claim
    // (and read once for it, not again in the next one).
    carePersistentVolumes(ctx, listed.stream().map(c -> byName.get(c.getMetadata().getName())).toList());
    return plan.verdict() instanceof VolumeResizer.Verdict.InProgress p
        ? Optional.of(p.message())
        : Optional.empty();
  }

  private static void report(
      ClusterContext ctx, ComponentStatus status, String displayName, VolumeResizer.Plan plan) {
    TidbCluster tc = ctx.cluster();
    Map<String, StorageVolumeStatus> volumes = plan.volumes();
    status.setVolumes(volumes.isEmpty() ? null : new TreeMap<>(volumes));
    List<Condition> conditions = status.getConditions();
    Optional<Condition> before = Conditions.find(conditions, VolumeResizer.CONDITION);
    Long generation = tc.getMetadata().getGeneration();
    VolumeResizer.Verdict verdict = plan.verdict();
    if (verdict instanceof VolumeResizer.Verdict.InProgress p) {
      conditions = Conditions.set(conditions, VolumeResizer.CONDITION, Conditions.TRUE,
          MemberStep.IN_PROGRESS, p.message(), generation, ctx.now());
    } else if (verdict instanceof VolumeResizer.Verdict.Blocked b) {
      boolean reported = before
          .filter(c -> Conditions.FALSE.equals(c.getStatus()))
          .filter(c -> Objects.equals(b.message(), c.getMessage()))
          .isPresent();
      if (!reported) {
        ctx.events().warning(tc, b.reason(), displayName + ": " + b.message());
      }
      conditions = Conditions.set(conditions, VolumeResizer.CONDITION, Conditions.FALSE,
          b.reason(), b.message(), generation, ctx.now());
    } else {
      if (before.isPresent() && Conditions.TRUE.equals(before.get().getStatus())) {
        ctx.events().normal(tc, RESIZED_EVENT, displayName + ": every volume claim has the size"
            + " the spec asks for");
      }
      conditions = Conditions.remove(conditions, VolumeResizer.CONDITION);
    }
    status.setConditions(conditions);
  }

  /**
   * Merges {@code labels} into the claim; the claim as it now is (a copy when labels were
   * written: the cached object is never modified).
   */
  private static PersistentVolumeClaim label(
      ClusterContext ctx, PersistentVolumeClaim pvc, Map<String, String> labels) {
    Map<String, String> have = pvc.getMetadata().getLabels();
    Map<String, String> written = new TreeMap<>();
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (have == null || !e.getValue().equals(have.get(e.getKey()))) {
        ctx.claims().label(pvc.getMetadata().getName(), e.getKey(), e.getValue());
        written.put(e.getKey(), e.getValue());
      }
    }
    return written.isEmpty()
        ? pvc
        : new PersistentVolumeClaimBuilder(pvc).editMetadata().addToLabels(written).endMetadata()
            .build();
  }

  /**
   * The PersistentVolume whose reclaim policy must be set: the one bound to {@code pvc}, unless
   * the claim is being deleted, or it is a removed member's claim that {@code enablePVReclaim}
   * deletes together with its volume.
   */
  public static Optional<String> volumeToCareFor(PersistentVolumeClaim pvc, boolean enablePVReclaim) {
    if (pvc.getMetadata().getDeletionTimestamp() != null
        || (enablePVReclaim && VolumeActions.deferred(pvc))
        || pvc.getSpec() == null
        || pvc.getSpec().getVolumeName() == null
        || pvc.getSpec().getVolumeName().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(pvc.getSpec().getVolumeName());
  }

  /**
   * The PersistentVolumes bound to the claims: {@code spec.pvReclaimPolicy} (when set) and the
   * labels of {@link PvLabels}. A volume found right since its claim, the policy and the labels
   * it must carry last changed is not read again ({@link CheckedVolumes}) unless the operator's
   * volume cache shows it changed since ({@link #changedSinceRead}); one whose claim only
   * gained labels since it was found right gets those labels without being read again, and one
   * bound to a claim created minutes ago ({@link #newlyCreated}) is patched without a read.
   */
  private static void carePersistentVolumes(ClusterContext ctx, List<PersistentVolumeClaim> claims) {
    String configured = ctx.cluster().getSpec().getPvReclaimPolicy();
    String policy = configured == null || configured.isEmpty() ? null : configured;
    boolean reclaim = Boolean.TRUE.equals(ctx.cluster().getSpec().getEnablePVReclaim());
    CheckedVolumes checked = ctx.claims().checkedVolumes();
    if (checked.writesForbidden(ctx.now())) {
      return;
    }
    for (PersistentVolumeClaim pvc : claims) {
      Optional<String> name = volumeToCareFor(pvc, reclaim);
      if (name.isPresent() && careForVolume(ctx, pvc, name.get(), policy) == VolumeWrite.FORBIDDEN) {
        // The operator may not patch volumes: said once, and volumes are left alone for a while.
        checked.forbidden(ctx.now());
        return;
      }
    }
  }

  /**
   * Brings the volume {@code volume} bound to {@code pvc} to the reclaim policy ({@code policy},
   * or null when the spec sets none) and the labels the claim asks for; what was written, or
   * {@link VolumeWrite#WRITTEN} when nothing had to be.
   */
  private static VolumeWrite careForVolume(
      ClusterContext ctx, PersistentVolumeClaim pvc, String volume, String policy) {
    CheckedVolumes checked = ctx.claims().checkedVolumes();
    PvLabels.Meta wanted = PvLabels.wanted(pvc, ctx.namespace());
    CheckedVolumes.Check check = new CheckedVolumes.Check(
        pvc.getMetadata().getUid(), policy, wanted.labels(), wanted.annotations());
    boolean upToDate = checked.upToDate(volume, check, ctx.now());
    if (upToDate && !changedSinceRead(ctx, volume, wanted, policy)) {
      checked.readDueIn(volume, ctx.now()).ifPresent(ctx::recheckWithin);
      return VolumeWrite.WRITTEN;
    }
    Optional<CheckedVolumes.Check> last =
        upToDate ? Optional.empty() : checked.lastCheck(volume, check, ctx.now());
    if (last.isPresent()) {
      // Same claim and policy, found right a short while ago: only the claim's new labels are
      // missing, and they are written without reading the volume again. The policy goes with the
      // labels (the same request): a provisioner that rewrote the volume after it was first
      // patched is repaired here, as a read would have shown.
      PvLabels.Meta meta = PvLabels.missing(
          wanted, new PvLabels.Meta(last.get().labels(), last.get().annotations()));
      VolumeWrite write = meta.isEmpty()
          ? VolumeWrite.WRITTEN
          : ctx.claims().updateVolume(volume, meta.labels(), meta.annotations(), policy);
      if (write == VolumeWrite.WRITTEN) {
        // It carries what it carried and what was just written: a claim seen again without its
        // newest label (an older cached copy) then writes nothing.
        checked.relabelled(volume, new CheckedVolumes.Check(check.claimUid(), check.policy(),
            union(last.get().labels(), meta.labels()),
            union(last.get().annotations(), meta.annotations())));
      }
      return write;
    }
    if (newlyCreated(pvc, ctx.now()) && !checked.known(volume)) {
      if (pvc.getStatus() == null || !"Bound".equals(pvc.getStatus().getPhase())) {
        // Still being provisioned (the provisioner may write the volume again until the claim is
        // Bound): its update to Bound brings the next reconcile.
        return VolumeWrite.WRITTEN;
      }
      // Its volume was provisioned for it minutes ago and carries none of this yet: all of it in
      // one patch, without reading the volume first (a volume that is not there yet is left for
      // the next reconcile). Read once CheckedVolumes.UNREAD_TRUST later (the reconcile asks to
      // run again then): its provisioner may have rewritten it.
      VolumeWrite write =
          ctx.claims().updateVolume(volume, wanted.labels(), wanted.annotations(), policy);
      if (write == VolumeWrite.WRITTEN) {
        logPolicySet(ctx, pvc, volume, policy, "(newly provisioned)");
        checked.patchedUnread(volume, check, ctx.now());
        ctx.recheckWithin(CheckedVolumes.UNREAD_TRUST);
      }
      return write;
    }
    Optional<PersistentVolume> pv = ctx.claims().volume(volume);
    if (pv.isEmpty() || pv.get().getSpec() == null) {
      return VolumeWrite.MISSING;
    }
    PvLabels.Meta meta = PvLabels.missing(wanted, pv.get());
    String was = pv.get().getSpec().getPersistentVolumeReclaimPolicy();
    String setPolicy = policy != null && !policy.equals(was) ? policy : null;
    VolumeWrite write = meta.isEmpty() && setPolicy == null
        ? VolumeWrite.WRITTEN
        : ctx.claims().updateVolume(volume, meta.labels(), meta.annotations(), setPolicy);
    if (write == VolumeWrite.WRITTEN) {
      logPolicySet(ctx, pvc, volume, setPolicy, "was=" + was);
      checked.checked(volume, check, pv.get().getMetadata() == null
          ? null : pv.get().getMetadata().getResourceVersion(), ctx.now());
    }
    return write;
  }

  /**
   * Whether the operator's volume cache shows {@code volume}, found right by a read, changed since:
   * its reclaim policy is no longer {@code policy}, or it lacks labels or annotations of {@code
   * wanted}. Someone else wrote it (a provisioner, a person, another tool); it is then read and
   * repaired now rather than {@link CheckedVolumes#RECHECK} after its last read, as upstream's
   * volume informer repairs it at the next sync. Only a cached version other than the one read
   * is compared ({@link CheckedVolumes#changedSinceRead}): a cache that has not caught up with the
   * operator's own patch yet shows the version it read, or (for a volume patched and not read
   * since) one it is not compared with. Without the cache (no list and watch on volumes) nothing
   * is read here, and the recheck period bounds the repair.
   */
  private static boolean changedSinceRead(
      ClusterContext ctx, String volume, PvLabels.Meta wanted, String policy) {
    CheckedVolumes checked = ctx.claims().checkedVolumes();
    return ctx.claims().cachedVolume(volume)
        .filter(pv -> pv.getSpec() != null && pv.getMetadata() != null)
        .filter(pv -> checked.changedSinceRead(volume, pv.getMetadata().getResourceVersion()))
        .map(pv -> (policy != null && !policy.equals(pv.getSpec().getPersistentVolumeReclaimPolicy()))
            || !PvLabels.missing(wanted, pv).isEmpty())
        .orElse(false);
  }

  private static void logPolicySet(
      ClusterContext ctx, PersistentVolumeClaim pvc, String volume, String policy, String detail) {
    if (policy != null) {
      LOG.info("persistent volume reclaim policy set namespace={} cluster={} claim={} volume={}"
              + " policy={} {}", ctx.namespace(), ctx.name(), pvc.getMetadata().getName(), volume,
          policy, detail);
    }
  }

  /**
   * Whether {@code pvc} was created less than {@link #NEW_CLAIM} before {@code now}: the volume
   * it is bound to was provisioned for it and cannot carry the operator's labels yet (patching it
   * blindly is safe either way: the patch holds only what the volume must carry).
   */
  static boolean newlyCreated(PersistentVolumeClaim pvc, Instant now) {
    String created = pvc.getMetadata().getCreationTimestamp();
    if (created == null || created.isEmpty()) {
      return false;
    }
    try {
      return now.isBefore(KubeTime.parse(created).plus(NEW_CLAIM));
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static Map<String, String> union(Map<String, String> a, Map<String, String> b) {
    Map<String, String> u = new TreeMap<>(a);
    u.putAll(b);
    return u;
  }

  private static Quantity storageOf(PersistentVolumeClaim pvc) {
    return pvc.getSpec() == null
            || pvc.getSpec().getResources() == null
            || pvc.getSpec().getResources().getRequests() == null
        ? null
        : pvc.getSpec().getResources().getRequests().get("storage");
  }
}
