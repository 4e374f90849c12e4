package io.tidb.operator.controller.monitor;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Alert rules the operator adds beside the initializer's (upstream's {@code tidb-monitor-initializer}
 * rules stay as they are): they use only what every scrape job of {@link PrometheusConfigGenerator}
 * has — {@code up}, {@code process_start_time_seconds} and the labels {@code kubernetes_namespace},
 * {@code cluster}, {@code component}, {@code instance} — so they hold for every TiDB version. A
 * member down for five minutes, PD without a quorum, a member restarting over and over. Written to
 * the Prometheus ConfigMap as {@value #FILE_NAME} when the monitor loads alert rules at all ({@code
 * alertmanagerURL} or {@code enableAlertRules}, upstream's condition), and checked by {@code
 * promtool check rules} and {@code promtool test rules}. Pure.
 */
public final class OperatorAlertRules {

  public static final String FILE_NAME = "tidb-operator.rules.yml";

  /** Where Prometheus reads it: the ConfigMap's mount. */
  public static final String PATH = "/etc/prometheus/config/" + FILE_NAME;

  static final String MEMBERS = "pd|tso|scheduling|tikv|tidb|tiflash|ticdc|tiproxy|pump|dm-master|dm-worker";
  private static final String WHERE = "{{ $labels.component }} {{ $labels.instance }} of "
      + "{{ $labels.kubernetes_namespace }}/{{ $labels.cluster }}";

  /** A rules file: {@code groups}. */
  public record RulesFile(@JsonProperty("groups") List<Group> groups) {}

  public record Group(@JsonProperty("name") String name, @JsonProperty("rules") List<Alert> rules) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"alert", "expr", "for", "labels", "annotations"})
  public record Alert(
      @JsonProperty("alert") String alert,
      @JsonProperty("expr") String expr,
      @JsonProperty("for") String forDuration,
      @JsonProperty("labels") Map<String, String> labels,
      @JsonProperty("annotations") Map<String, String> annotations) {}

  /** {@link #rules()} as the ConfigMap holds it, rendered once: the rules never change. */
  private static final String YAML = PrometheusConfigYaml.render(rules());

  private OperatorAlertRules() {}

  /** The rules file's text. */
  public static String yaml() {
    return YAML;
  }

  public static RulesFile rules() {
    return new RulesFile(List.of(new Group("tidb-operator", List.of(
        new Alert("TidbClusterMemberDown",
            "up{component=~\"" + MEMBERS + "\"} == 0",
            "5m",
            Map.of("severity", "critical"),
            annotations(WHERE + " is down",
                "Prometheus has not reached it for 5 minutes. Check the pod, its events and its logs;"
                    + " the TidbCluster status says whether the operator is failing it over.")),
        new Alert("TidbClusterPdQuorumLost",
            "sum by (kubernetes_namespace, cluster) (up{component=\"pd\"}) * 2"
                + " <= count by (kubernetes_namespace, cluster) (up{component=\"pd\"})",
            "1m",
            Map.of("severity", "critical"),
            annotations("PD of {{ $labels.kubernetes_namespace }}/{{ $labels.cluster }} has no quorum",
                "Half or more of the PD members are down: the cluster cannot elect a PD leader, so"
                    + " no region can change leader and new connections fail. Bring PD members back"
                    + " before anything else.")),
        new Alert("TidbClusterMemberRestarting",
            "changes(process_start_time_seconds{component=~\"" + MEMBERS + "\"}[15m]) > 2",
            null,
            Map.of("severity", "warning"),
            annotations(WHERE + " restarted {{ $value }} times in 15 minutes",
                "Look for OOM kills and crash loops in the pod's events and previous logs."))))));
  }

  private static Map<String, String> annotations(String summary, String description) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("summary", summary);
    out.put("description", description);
    return out;
  }
}
