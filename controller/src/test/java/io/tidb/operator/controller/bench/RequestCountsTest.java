package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.bench.RequestCounts.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestCountsTest {

  private static PrometheusText metrics(String... lines) {
    return PrometheusText.parse(String.join("\n", lines));
  }

  @Test
  void countsAreGroupedByVerbAndResourceAndOtherMetricsIgnored() {
    RequestCounts counts = RequestCounts.of(metrics(
        "# TYPE tidb_operator_kube_api_requests_total counter",
        "tidb_operator_kube_api_requests_total{resource=\"pods\",verb=\"get\"} 3.0",
        "tidb_operator_kube_api_requests_total{resource=\"statefulsets\",verb=\"patch\"} 5.0",
        "tidb_operator_kube_api_requests_total{resource=\"tidbclusters/status\",verb=\"patch\"} 2.0",
        "tidb_operator_reconciles_total{result=\"ok\"} 9.0"));
    assertEquals(
        Map.of(new Kind("get", "pods"), 3.0, new Kind("patch", "statefulsets"), 5.0,
            new Kind("patch", "tidbclusters/status"), 2.0),
        counts.byKind());
    assertEquals(10.0, counts.total());
    assertEquals(7.0, counts.writes());
    assertEquals(3.0, counts.reads());
  }

  @Test
  void aWindowHoldsOnlyTheKindsThatGrew() {
    RequestCounts before = RequestCounts.of(metrics(
        "tidb_operator_kube_api_requests_total{resource=\"pods\",verb=\"watch\"} 4.0",
        "tidb_operator_kube_api_requests_total{resource=\"events\",verb=\"create\"} 16.0"));
    RequestCounts after = RequestCounts.of(metrics(
        "tidb_operator_kube_api_requests_total{resource=\"pods\",verb=\"watch\"} 5.0",
        "tidb_operator_kube_api_requests_total{resource=\"events\",verb=\"create\"} 16.0",
        "tidb_operator_kube_api_requests_total{resource=\"leases\",verb=\"update\"} 2.0"));
    assertEquals(Map.of(new Kind("watch", "pods"), 1.0, new Kind("update", "leases"), 2.0),
        after.since(before).byKind());
  }

  @Test
  void theTableListsEveryKindOfEitherWindowSortedWithTotals() {
    RequestCounts converging = RequestCounts.of(metrics(
        "tidb_operator_kube_api_requests_total{resource=\"services\",verb=\"patch\"} 4.0",
        "tidb_operator_kube_api_requests_total{resource=\"pods\",verb=\"get\"} 1.0"));
    RequestCounts quiet = RequestCounts.of(metrics(
        "tidb_operator_kube_api_requests_total{resource=\"tidbclusters/status\",verb=\"patch\"} 1.0"));
    assertEquals(
        List.of(
            "| verb | resource | converging | quiet |",
            "|---|---|---|---|",
            "| get | pods | 1 | 0 |",
            "| patch | services | 4 | 0 |",
            "| patch | tidbclusters/status | 0 | 1 |",
            "| all | reads / writes | 1 / 4 | 0 / 1 |"),
        RequestCounts.table(converging, quiet));
  }
}
