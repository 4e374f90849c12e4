package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects one reconcile created or changed, told in one Normal Event per verb instead of one
 * per object: {@code SuccessfulCreate} "create Service basic-pd, ConfigMap basic-pd-3a6f and
 * StatefulSet basic-pd in TidbCluster basic successful". A single object reads exactly as
 * upstream's per-object Event; a cluster's bring-up writes a handful of Events instead of one per
 * object (issue 19: API requests per converged cluster). Not shared between threads.
 */
public final class WrittenObjects {

  static final String CREATE_REASON = "SuccessfulCreate";
  static final String UPDATE_REASON = "SuccessfulUpdate";

  private final Map<ApplyOutcome, List<String>> written = new LinkedHashMap<>();

  /** Notes that {@code desired} was written with {@code outcome}; an unchanged object is not. */
  public void add(ApplyOutcome outcome, HasMetadata desired) {
    if (outcome == ApplyOutcome.CREATED || outcome == ApplyOutcome.UPDATED) {
      written.computeIfAbsent(outcome, o -> new ArrayList<>())
          .add(desired.getKind() + " " + desired.getMetadata().getName());
    }
  }

  /** Records the Events about {@code about} for what was noted since the last call, and forgets it. */
  public void record(EventRecorder events, HasMetadata about) {
    written.forEach((outcome, objects) -> events.normal(about,
        outcome == ApplyOutcome.CREATED ? CREATE_REASON : UPDATE_REASON,
        message(outcome == ApplyOutcome.CREATED ? "create" : "update", objects, about)));
    written.clear();
  }

  static String message(String verb, List<String> objects, HasMetadata about) {
    String listed = objects.size() == 1
        ? objects.get(0)
        : String.join(", ", objects.subList(0, objects.size() - 1)) + " and " + objects.get(objects.size() - 1);
    return verb + " " + listed + " in " + about.getKind() + " " + about.getMetadata().getName()
        + " successful";
  }
}
