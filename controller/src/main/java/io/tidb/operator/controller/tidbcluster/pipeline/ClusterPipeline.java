package io.tidb.operator.controller.tidbcluster.pipeline;

import io.tidb.operator.controller.runtime.StepFailedException;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link ComponentStep}s of one reconcile in order. The first step whose prerequisite is
 * unmet, or whose apply reports "still converging", ends the run; a step with an operation in
 * progress lets the run go on and makes it end as converging (rescheduled soon); exceptions propagate (they are
 * real errors, retried with backoff by the caller's framework).
 */
public final class ClusterPipeline {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterPipeline.class);

  private final List<ComponentStep> steps;

  public ClusterPipeline(List<ComponentStep> steps) {
    this.steps = List.copyOf(steps);
  }

  /** The step tag of a converged run that asked for a recheck ({@link ClusterContext#recheckWithin}). */
  static final String RECHECK_STEP = "recheck";

  public List<ComponentStep> steps() {
    return steps;
  }

  /**
   * Runs the steps.
   *
   * @throws StepFailedException naming the step, when a step throws
   */
  public WorkOutcome run(ClusterContext ctx) throws StepFailedException {
    WorkOutcome inProgress = null;
    for (int i = 0; i < steps.size(); i++) {
      ComponentStep step = steps.get(i);
      if (!step.enabled(ctx.cluster())) {
        continue;
      }
      try {
        var waiting = step.waitingFor(ctx);
        if (waiting.isPresent()) {
          // Not observed this run: it still reports for readiness (from the status it has), so
          // a component waiting on another is never left out of Ready.
          step.notReached(ctx);
          return stop(ctx, i, StepResult.converging(waiting.get()));
        }
        step.observe(ctx);
        if (ctx.paused()) {
          continue;
        }
        StepResult result = step.apply(ctx);
        if (result instanceof StepResult.Converging) {
          return stop(ctx, i, result);
        }
        if (result instanceof StepResult.InProgress p && inProgress == null) {
          inProgress = WorkOutcome.converging(step.name(), p.reason());
        }
      } catch (Exception e) {
        throw new StepFailedException(step.name(), e);
      }
    }
    if (ctx.paused()) {
      return WorkOutcome.paused();
    }
    if (inProgress != null) {
      LOG.info(
          "in progress namespace={} cluster={} step={} doing=\"{}\"",
          ctx.cluster().getMetadata().getNamespace(),
          ctx.cluster().getMetadata().getName(),
          inProgress.step(),
          inProgress.waitingFor().orElse(""));
      return inProgress;
    }
    return ctx.recheckAfter()
        .map(after -> WorkOutcome.convergedRecheckAfter(RECHECK_STEP, after))
        .orElse(WorkOutcome.converged());
  }

  /** Ends the run at step {@code at}; the steps not reached still report for readiness. */
  private WorkOutcome stop(ClusterContext ctx, int at, StepResult result) {
    ComponentStep step = steps.get(at);
    for (ComponentStep later : steps.subList(at + 1, steps.size())) {
      if (later.enabled(ctx.cluster())) {
        later.notReached(ctx);
      }
    }
    LOG.info(
        "converging namespace={} cluster={} step={} waiting=\"{}\"",
        ctx.cluster().getMetadata().getNamespace(),
        ctx.cluster().getMetadata().getName(),
        step.name(),
        ((StepResult.Converging) result).reason());
    return WorkOutcome.converging(step.name(), ((StepResult.Converging) result).reason());
  }
}
