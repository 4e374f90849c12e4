package io.tidb.operator.controller.monitor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/** Writes a {@link PrometheusConfig} as {@code prometheus.yml}, and alert rules, with Jackson YAML. Pure. */
public final class PrometheusConfigYaml {

  private static final ObjectMapper YAML =
      new ObjectMapper(
              YAMLFactory.builder()
                  .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                  .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                  .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                  .build())
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private PrometheusConfigYaml() {}

  public static String render(PrometheusConfig config) {
    return write(config, "the Prometheus configuration");
  }

  /** A rules file, as {@code promtool check rules} reads it. */
  public static String render(OperatorAlertRules.RulesFile rules) {
    return write(rules, "the alert rules");
  }

  private static String write(Object value, String what) {
    try {
      return YAML.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + what, e);
    }
  }
}
