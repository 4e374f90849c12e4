package io.tidb.operator.controller.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, enough to sum a metric by label. */
record PrometheusText(List<Sample> samples) {

  record Sample(String name, Map<String, String> labels, double value) {}

  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.find()) {
        continue;
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
    }
    return new PrometheusText(samples);
  }

  /** Sum of {@code name}'s samples whose labels include every entry of {@code match}. */
  double sum(String name, Map<String, String> match) {
    return samples.stream()
        .filter(s -> s.name().equals(name))
        .filter(s -> match.entrySet().stream()
            .allMatch(e -> e.getValue().equals(s.labels().get(e.getKey()))))
        .mapToDouble(Sample::value)
        .sum();
  }

  double sum(String name) {
    return sum(name, Map.of());
  }

  /** {@code name}'s samples summed by the value of {@code label}, largest sum first. */
  Map<String, Double> sumBy(String name, String label) {
    Map<String, Double> sums = new java.util.TreeMap<>();
    samples.stream()
        .filter(s -> s.name().equals(name) && s.labels().containsKey(label))
        .forEach(s -> sums.merge(s.labels().get(label), s.value(), Double::sum));
    Map<String, Double> sorted = new LinkedHashMap<>();
    sums.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }
}
