package io.tidb.operator.controller.tidbcluster.member;

import java.util.Optional;

/**
 * The rolling upgrade of TiDB, TiCDC, TiProxy, Pump and TiFlash: one pod per pass from the
 * highest ordinal down, as a plain StatefulSet rolling update goes. A pod that is missing or
 * terminating is waited for; an upgraded pod must be Ready, and then pass the component's own
 * check (its status port answers, its capture answers, it stayed Ready long enough, its pump is
 * online, its store is Up), before the next pod is released; the next pod not yet upgraded is
 * rolled once the partition has passed it. Pure.
 */
public final class HighestFirstRoll {

  private HighestFirstRoll() {}

  /** What an upgraded, Ready pod must still show; empty when it serves. */
  @FunctionalInterface
  public interface UpgradedPodCheck {
    /**
     * @param progress {@code "1 of 3 done"}, for the message
     * @return the wait message, e.g. {@code waiting for the upgraded pump of p to be online (1 of 3 done)}
     */
    Optional<String> waitingFor(ObservedPod pod, String progress);
  }

  public static MemberDecision decide(Rollout r, UpgradedPodCheck serving) {
    String progress = r.updatedCount() + " of " + r.replicas() + " done";
    for (int i = r.replicas() - 1; i >= 0; i--) {
      Optional<ObservedPod> pod = r.pod(i);
      if (pod.isEmpty() || pod.get().terminating()) {
        return MemberDecision.waitFor(
            "waiting for pod " + r.podName(i) + " to be recreated (" + progress + ")");
      }
      ObservedPod p = pod.get();
      if (r.isUpdated(p)) {
        if (!p.ready()) {
          return MemberDecision.waitFor(
              "waiting for upgraded pod " + p.name() + " to be Ready (" + progress + ")");
        }
        Optional<String> waiting = serving.waitingFor(p, progress);
        if (waiting.isPresent()) {
          return MemberDecision.waitFor(waiting.get());
        }
        continue;
      }
      if (i >= r.partition()) {
        return MemberDecision.waitFor(
            "waiting for the StatefulSet controller to replace pod " + p.name() + " ("
                + progress + ")");
      }
      return new MemberDecision.Roll(i, "upgrading " + p.name() + " (" + progress + ")");
    }
    return MemberDecision.IDLE;
  }
}
