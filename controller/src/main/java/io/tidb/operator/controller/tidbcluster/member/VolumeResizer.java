package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolumeStatus;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims.Expansion;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The volume resize rule, a pure function of what is observed: the claims of a component's
 * members compared with the sizes its spec asks for. A larger size expands the existing claims
 * when their StorageClass allows it (the StatefulSet's claim templates are immutable and are
 * kept); PD and TiKV one pod at a time (the next pod's claims only when the previous ones have
 * reached the size, or wait only for the node to grow the file system), TiDB all at once. A
 * claim larger than the spec (shrinking) and a StorageClass without expansion are reported,
 * nothing else.
 */
public final class VolumeResizer {

  /** Component condition of a volume resize: {@code True} while resizing, {@code False} blocked. */
  public static final String CONDITION = "VolumeResize";

  /** Reason of a blocked resize: a claim is larger than the spec wants. */
  public static final String SHRINK_NOT_SUPPORTED = "VolumeShrinkNotSupported";

  /** Reason of a blocked resize: the claim's StorageClass does not allow expansion. */
  public static final String EXPANSION_NOT_SUPPORTED = "VolumeExpansionNotSupported";

  /** Condition of a claim whose volume grew and waits for the node to grow its file system. */
  public static final String FILE_SYSTEM_RESIZE_PENDING = "FileSystemResizePending";

  private VolumeResizer() {}

  /** Where one claim stands. */
  public enum State {
    /** Request and capacity have the desired size. */
    RESIZED,
    /** The request has the desired size; the capacity does not yet. */
    RESIZING,
    /** Larger size wanted and the StorageClass allows expansion. */
    NEEDS_RESIZE,
    /** Not bound yet: it cannot be resized, and gets the size when it is provisioned. */
    UNBOUND,
    /** The claim requests more than the spec: Kubernetes cannot shrink a claim. */
    SHRINK,
    /** Larger size wanted, but the StorageClass does not allow expansion. */
    NOT_EXPANDABLE
  }

  /**
   * One claim of a member as the rule sees it.
   *
   * @param name the claim, {@code <volume>-<statefulset>-<ordinal>}
   * @param volume the claim template's name ({@code tikv}, {@code tidb-slowlog})
   * @param ordinal the member's ordinal
   * @param desired the size the spec asks for
   * @param request the claim's {@code spec.resources.requests.storage}
   * @param capacity the claim's {@code status.capacity.storage}, null when unknown
   * @param bound {@code status.phase} is Bound
   * @param fileSystemResizePending the claim has condition {@code FileSystemResizePending=True}
   * @param expansion what the claim's StorageClass allows
   */
  public record Claim(
      String name,
      String volume,
      int ordinal,
      Quantity desired,
      Quantity request,
      Quantity capacity,
      boolean bound,
      boolean fileSystemResizePending,
      Expansion expansion) {

    public State state() {
      int cmp = compare(desired, request);
      if (cmp < 0) {
        return State.SHRINK;
      }
      if (cmp == 0) {
        boolean grown = capacity != null && compare(capacity, request) >= 0;
        return grown || fileSystemResizePending || !bound ? State.RESIZED : State.RESIZING;
      }
      if (!bound) {
        return State.UNBOUND;
      }
      return expansion != null && expansion.allowed() ? State.NEEDS_RESIZE : State.NOT_EXPANDABLE;
    }
  }

  /** What one reconcile does about volumes. */
  public sealed interface Verdict {
    /** Every claim has the size the spec asks for: the condition goes. */
    record Done() implements Verdict {}

    /** Claims are being resized or wait their turn: {@code VolumeResize=True/InProgress}. */
    record InProgress(String message) implements Verdict {}

    /** Some claim cannot be resized: {@code VolumeResize=False}, a Warning, nothing else. */
    record Blocked(String reason, String message) implements Verdict {}
  }

  /**
   * The decision.
   *
   * @param resize the claims to patch in this reconcile, with their new size
   * @param verdict the condition to report
   * @param volumes {@code status.<component>.volumes}
   */
  public record Plan(
      Map<String, Quantity> resize, Verdict verdict, Map<String, StorageVolumeStatus> volumes) {}

  /**
   * Decides the next resize step.
   *
   * @param claims the members' claims (ordinals below the replica count), in any order
   * @param oneAtATime PD and TiKV: one pod's claims at a time; TiDB: all at once
   * @param heldBy why no new resize may start now (a scale-in or an upgrade of this component, or
   *     a pod not Ready), or empty; resizes already sent are still waited for
   */
  public static Plan decide(List<Claim> claims, boolean oneAtATime, Optional<String> heldBy) {
    List<Claim> sorted = new ArrayList<>(claims);
    sorted.sort(
        java.util.Comparator.comparingInt(Claim::ordinal).thenComparing(Claim::name));
    List<Claim> resizing = byState(sorted, State.RESIZING);
    List<Claim> pending = byState(sorted, State.NEEDS_RESIZE);
    Map<String, Quantity> resize = new LinkedHashMap<>();
    String progress = null;
    if (!resizing.isEmpty() && (oneAtATime || pending.isEmpty() || heldBy.isPresent())) {
      Claim first = resizing.get(0);
      progress =
          (resizing.size() == 1
                  ? "waiting for volume claim " + first.name() + " to grow to " + first.request()
                      + " (capacity " + describe(first.capacity()) + ")"
                  : "waiting for " + resizing.size() + " volume claims ("
                      + names(resizing) + ") to grow to their new size")
              + done(sorted, oneAtATime);
    } else if (!pending.isEmpty() && heldBy.isPresent()) {
      progress =
          "resizing " + pending.size() + " volume claim" + (pending.size() == 1 ? "" : "s")
              + " waits: " + heldBy.get();
    } else if (!pending.isEmpty()) {
      List<Claim> now =
          oneAtATime
              ? pending.stream().filter(c -> c.ordinal() == pending.get(0).ordinal()).toList()
              : pending;
      for (Claim c : now) {
        resize.put(c.name(), c.desired());
      }
      progress =
          "resizing volume claim" + (now.size() == 1 ? " " : "s ") + names(now) + " from "
              + now.get(0).request() + " to " + now.get(0).desired()
              + done(sorted, oneAtATime);
      if (!resizing.isEmpty()) {
        progress += "; " + resizing.size() + " more still growing";
      }
    }
    Optional<Verdict.Blocked> blocked = blocked(sorted);
    Verdict verdict;
    if (blocked.isPresent()) {
      verdict =
          progress == null
              ? blocked.get()
              : new Verdict.Blocked(blocked.get().reason(), blocked.get().message() + "; " + progress);
    } else if (progress != null) {
      verdict = new Verdict.InProgress(progress);
    } else {
      verdict = new Verdict.Done();
    }
    return new Plan(resize, verdict, volumes(sorted));
  }

  private static String done(List<Claim> claims, boolean oneAtATime) {
    if (!oneAtATime) {
      return "";
    }
    Map<Integer, Boolean> pods = new TreeMap<>();
    for (Claim c : claims) {
      boolean ok = c.state() == State.RESIZED;
      pods.merge(c.ordinal(), ok, Boolean::logicalAnd);
    }
    long finished = pods.values().stream().filter(b -> b).count();
    return " (" + finished + " of " + pods.size() + " pods done)";
  }

  private static Optional<Verdict.Blocked> blocked(List<Claim> claims) {
    List<String> parts = new ArrayList<>();
    boolean shrink = false;
    Map<String, List<Claim>> shrinking = group(claims, State.SHRINK);
    for (Map.Entry<String, List<Claim>> e : shrinking.entrySet()) {
      Claim c = e.getValue().get(0);
      shrink = true;
      parts.add(
          "volume " + e.getKey() + ": " + count(e.getValue()) + " (" + names(e.getValue())
              + ") request" + (e.getValue().size() == 1 ? "s " : " ") + c.request()
              + ", more than the desired " + c.desired()
              + "; volume shrinking is not supported, set the size back");
    }
    Map<String, List<Claim>> fixed = group(claims, State.NOT_EXPANDABLE);
    for (Map.Entry<String, List<Claim>> e : fixed.entrySet()) {
      Claim c = e.getValue().get(0);
      parts.add(
          "volume " + e.getKey() + ": cannot expand " + count(e.getValue()) + " ("
              + names(e.getValue()) + ") from " + c.request() + " to " + c.desired() + ": "
              + (c.expansion() == null ? "StorageClass unknown" : c.expansion().why()));
    }
    if (parts.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Verdict.Blocked(
            shrink ? SHRINK_NOT_SUPPORTED : EXPANSION_NOT_SUPPORTED, String.join("; ", parts)));
  }

  private static Map<String, List<Claim>> group(List<Claim> claims, State state) {
    return claims.stream()
        .filter(c -> c.state() == state)
        .collect(Collectors.groupingBy(Claim::volume, TreeMap::new, Collectors.toList()));
  }

  private static String count(List<Claim> claims) {
    return claims.size() == 1 ? "1 claim" : claims.size() + " claims";
  }

  /**
   * {@code status.<component>.volumes}, as upstream counts them: of the bound claims with a known
   * capacity, those at (or above) the desired size are resized, the others current, with the
   * smallest capacity seen as the current capacity.
   */
  static Map<String, StorageVolumeStatus> volumes(List<Claim> claims) {
    Map<String, StorageVolumeStatus> out = new TreeMap<>();
    for (Claim c : claims) {
      if (!c.bound() || c.capacity() == null) {
        continue;
      }
      StorageVolumeStatus s =
          out.computeIfAbsent(
              c.volume(),
              v -> {
                StorageVolumeStatus n = new StorageVolumeStatus();
                n.setName(v);
                n.setBoundCount(0);
                n.setCurrentCount(0);
                n.setResizedCount(0);
                n.setResizedCapacity(c.desired());
                n.setCurrentCapacity(c.desired());
                return n;
              });
      s.setBoundCount(s.getBoundCount() + 1);
      if (compare(c.capacity(), c.desired()) >= 0) {
        s.setResizedCount(s.getResizedCount() + 1);
      } else {
        s.setCurrentCount(s.getCurrentCount() + 1);
        if (compare(c.capacity(), s.getCurrentCapacity()) < 0) {
          s.setCurrentCapacity(c.capacity());
        }
      }
    }
    for (StorageVolumeStatus s : out.values()) {
      if (s.getCurrentCount() == 0) {
        s.setCurrentCount(s.getResizedCount());
      }
    }
    return out;
  }

  /**
   * The rule's view of one claim; {@code null} when the claim has no storage request.
   *
   * @param ordinal the member's ordinal
   * @param volume the claim template's name
   */
  public static Claim claim(
      PersistentVolumeClaim pvc, String volume, int ordinal, Quantity desired, Expansion expansion) {
    Quantity request =
        pvc.getSpec() == null
                || pvc.getSpec().getResources() == null
                || pvc.getSpec().getResources().getRequests() == null
            ? null
            : pvc.getSpec().getResources().getRequests().get("storage");
    if (request == null) {
      return null;
    }
    Quantity capacity =
        pvc.getStatus() == null || pvc.getStatus().getCapacity() == null
            ? null
            : pvc.getStatus().getCapacity().get("storage");
    boolean bound = pvc.getStatus() != null && "Bound".equals(pvc.getStatus().getPhase());
    boolean fsPending =
        pvc.getStatus() != null
            && pvc.getStatus().getConditions() != null
            && pvc.getStatus().getConditions().stream()
                .anyMatch(
                    c -> FILE_SYSTEM_RESIZE_PENDING.equals(c.getType())
                        && "True".equals(c.getStatus()));
    return new Claim(
        pvc.getMetadata().getName(), volume, ordinal, desired, request, capacity, bound, fsPending,
        expansion);
  }

  private static List<Claim> byState(List<Claim> claims, State state) {
    return claims.stream().filter(c -> c.state() == state).toList();
  }

  private static String names(List<Claim> claims) {
    return claims.stream().map(Claim::name).collect(Collectors.joining(", "));
  }

  private static String describe(Quantity q) {
    return q == null ? "unknown" : q.toString();
  }

  static int compare(Quantity a, Quantity b) {
    BigDecimal x = Quantity.getAmountInBytes(a);
    BigDecimal y = Quantity.getAmountInBytes(b);
    return x.compareTo(y);
  }
}
