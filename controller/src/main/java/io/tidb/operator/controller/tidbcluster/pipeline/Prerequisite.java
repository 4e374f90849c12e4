package io.tidb.operator.controller.tidbcluster.pipeline;

import java.util.Optional;

/**
 * What one component may ask of another before it runs: TiKV waits for PD's quorum, TiDB for an
 * Up TiKV store. The component that owns the rule provides it; the one that waits receives it at
 * registration (see {@code ClusterComponents}), so neither uses the other's classes.
 */
@FunctionalInterface
public interface Prerequisite {

  /** Nothing to wait for. */
  Prerequisite NONE = ctx -> Optional.empty();

  /** What is still missing, in plain words; empty when met. */
  Optional<String> unmet(ClusterContext ctx);
}
