package io.tidb.operator.webhook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the chart runs the webhook with, from its values.yaml: the JVM options, the memory limit
 * as the JVM would see it in a container ({@code -XX:MaxRAM}), and the container's environment.
 */
record ChartWebhook(String jvmOptions, long memoryLimitMiB, List<String> env) {

  private static final Pattern QUANTITY = Pattern.compile("(\\d+)(Mi|Gi)");

  static ChartWebhook read(Path values) throws IOException {
    JsonNode webhook = new ObjectMapper(new YAMLFactory()).readTree(values.toFile()).path("webhook");
    List<String> env = new ArrayList<>();
    for (JsonNode variable : webhook.path("env")) {
      if (variable.has("value")) {
        env.add(variable.path("name").asText() + "=" + variable.path("value").asText());
      }
    }
    return new ChartWebhook(
        webhook.path("jvmOptions").asText(),
        mebibytes(webhook.path("resources").path("limits").path("memory").asText()),
        List.copyOf(env));
  }

  /** A memory quantity in Mi or Gi, in MiB. */
  static long mebibytes(String quantity) {
    Matcher m = QUANTITY.matcher(quantity);
    if (!m.matches()) {
      throw new IllegalArgumentException("webhook.resources.limits.memory: \"" + quantity + "\": expected <n>Mi or <n>Gi");
    }
    long n = Long.parseLong(m.group(1));
    return m.group(2).equals("Gi") ? n * 1024 : n;
  }

  /** The server JVM's options: the container limit, then the chart's options. */
  String jvmArgs() {
    return "-XX:MaxRAM=" + memoryLimitMiB + "m " + jvmOptions;
  }
}
