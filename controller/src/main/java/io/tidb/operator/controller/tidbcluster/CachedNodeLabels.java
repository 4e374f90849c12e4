package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.controller.tidbcluster.pipeline.NodeLabels;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link NodeLabels} remembered per Node name for {@link #TTL}: TiProxy's zone labels are set on
 * every reconcile, from the Node of each healthy TiProxy pod, and a Node's zone hardly ever
 * changes, so asking the API server once per Node and TTL (instead of once per pod and
 * reconcile) keeps a settled cluster's reconciles free of reads. A pod moved to another Node asks
 * about that Node at once; a relabelled Node's new zone is seen within the TTL. Shared by the
 * controller's workers.
 */
final class CachedNodeLabels implements NodeLabels {

  /** How long a Node's labels are used before they are read again. */
  static final Duration TTL = Duration.ofMinutes(10);

  private record Entry(Optional<Map<String, String>> labels, Instant readAt) {}

  private final NodeLabels source;
  private final Clock clock;
  private final Map<String, Entry> nodes = new ConcurrentHashMap<>();

  CachedNodeLabels(NodeLabels source, Clock clock) {
    this.source = source;
    this.clock = clock;
  }

  @Override
  public Optional<Map<String, String>> of(String name) {
    Instant now = clock.instant();
    Entry e = nodes.get(name);
    if (e != null && now.isBefore(e.readAt().plus(TTL))) {
      return e.labels();
    }
    Optional<Map<String, String>> labels = source.of(name).map(Map::copyOf);
    nodes.values().removeIf(old -> !now.isBefore(old.readAt().plus(TTL)));
    nodes.put(name, new Entry(labels, now));
    return labels;
  }
}
