package io.tidb.operator.controller.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The controller's Kubernetes API requests by verb and resource, from its counter
 * {@code tidb_operator_kube_api_requests_total{verb,resource}}.
 */
record RequestCounts(Map<Kind, Double> byKind) {

  static final String METRIC = "tidb_operator_kube_api_requests_total";
  private static final Set<String> WRITE_VERBS = Set.of("create", "update", "patch", "delete");

  /** A verb and a resource (with its subresource after a slash, e.g. {@code tidbclusters/status}). */
  record Kind(String verb, String resource) implements Comparable<Kind> {
    private static final Comparator<Kind> ORDER =
        Comparator.comparing(Kind::verb).thenComparing(Kind::resource);

    boolean isWrite() {
      return WRITE_VERBS.contains(verb);
    }

    @Override
    public int compareTo(Kind other) {
      return ORDER.compare(this, other);
    }
  }

  static RequestCounts of(PrometheusText metrics) {
    Map<Kind, Double> counts = new TreeMap<>();
    for (PrometheusText.Sample s : metrics.samples()) {
      if (s.name().equals(METRIC)) {
        Kind kind = new Kind(s.labels().getOrDefault("verb", "?"), s.labels().getOrDefault("resource", "?"));
        counts.merge(kind, s.value(), Double::sum);
      }
    }
    return new RequestCounts(counts);
  }

  /** The requests counted in {@code this} but not yet in {@code earlier}; kinds that did not grow are left out. */
  RequestCounts since(RequestCounts earlier) {
    Map<Kind, Double> delta = new TreeMap<>();
    byKind.forEach((kind, count) -> {
      double d = count - earlier.byKind.getOrDefault(kind, 0.0);
      if (d != 0) {
        delta.put(kind, d);
      }
    });
    return new RequestCounts(delta);
  }

  double total() {
    return byKind.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  double writes() {
    return byKind.entrySet().stream()
        .filter(e -> e.getKey().isWrite())
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  double reads() {
    return total() - writes();
  }

  /**
   * A Markdown table with one row per verb and resource seen in either window: its count while
   * converging and in the quiet window.
   */
  static List<String> table(RequestCounts converging, RequestCounts quiet) {
    Set<Kind> kinds = new TreeSet<>(converging.byKind.keySet());
    kinds.addAll(quiet.byKind.keySet());
    List<String> lines = new ArrayList<>();
    lines.add("| verb | resource | converging | quiet |");
    lines.add("|---|---|---|---|");
    for (Kind kind : kinds) {
      lines.add(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f |", kind.verb(), kind.resource(),
          converging.byKind.getOrDefault(kind, 0.0), quiet.byKind.getOrDefault(kind, 0.0)));
    }
    lines.add(String.format(Locale.ROOT, "| all | reads / writes | %.0f / %.0f | %.0f / %.0f |",
        converging.reads(), converging.writes(), quiet.reads(), quiet.writes()));
    return lines;
  }
}
