package io.tidb.operator.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the chart runs a JVM container with ({@code controller} or {@code webhook} of values.yaml):
 * its {@code jvmOptions} after {@code -XX:MaxRAM} set to its {@code resources.limits.memory}, which
 * is what the JVM sizes itself by inside a container with that limit, and the container's
 * environment: {@code MALLOC_ARENA_MAX} from {@code mallocArenaMax}, then the {@code env} values.
 * The benchmarks start the controller and the webhook with them.
 *
 * @param jvmArgs {@code -XX:MaxRAM=<limit>} then the chart's options, in order
 * @param env {@code MALLOC_ARENA_MAX=<mallocArenaMax>} when it is above 0, then {@code NAME=value}
 *     of each {@code env} entry with a literal value, in the order the container gets them
 */
public record ChartJvmOptions(List<String> jvmArgs, List<String> env) {

  private static final Pattern JVM_SIZE = Pattern.compile("(\\d+)([kKmMgG]?)");
  private static final Pattern QUANTITY = Pattern.compile("(\\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?");

  public ChartJvmOptions {
    jvmArgs = List.copyOf(jvmArgs);
    env = List.copyOf(env);
  }

  /** {@code component}'s options in the text of a values.yaml. */
  public static ChartJvmOptions fromValues(String valuesYaml, String component) throws IOException {
    JsonNode values = new ObjectMapper(new YAMLFactory()).readTree(valuesYaml).path(component);
    JsonNode limit = values.path("resources").path("limits").path("memory");
    if (!limit.isTextual() && !limit.isNumber()) {
      throw new IllegalArgumentException(component + ".resources.limits.memory: Required value: a memory limit such as 768Mi");
    }
    List<String> options = new ArrayList<>();
    options.add("-XX:MaxRAM=" + maxRam(component, limit.asText()));
    options.addAll(split(values.path("jvmOptions").asText("")));
    List<String> env = new ArrayList<>();
    int arenas = values.path("mallocArenaMax").asInt(0);
    if (arenas > 0) {
      env.add("MALLOC_ARENA_MAX=" + arenas);
    }
    for (JsonNode variable : values.path("env")) {
      if (variable.has("value")) {
        env.add(variable.path("name").asText() + "=" + variable.path("value").asText());
      }
    }
    return new ChartJvmOptions(options, env);
  }

  /** {@code component}'s options in the project's own chart. */
  public static ChartJvmOptions ofProjectChart(String component) throws IOException {
    return fromValues(Files.readString(ProjectDirectory.root().resolve("charts/tidb-operator/values.yaml")), component);
  }

  /**
   * {@code NAME=value} variables (as in {@link #env()}) by name, in order, for a {@link
   * ProcessBuilder}'s environment; a later variable of the same name wins, as in a container.
   */
  public static Map<String, String> environment(List<String> variables) {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String variable : variables) {
      int eq = variable.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("environment variable: Invalid value: \"" + variable
            + "\": NAME=value");
      }
      environment.put(variable.substring(0, eq), variable.substring(eq + 1));
    }
    return environment;
  }

  /** Whitespace-separated options, as a shell would split JAVA_TOOL_OPTIONS without quotes. */
  public static List<String> split(String options) {
    return Arrays.stream(options.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
  }

  /** A Kubernetes memory quantity as a {@code -XX:MaxRAM} value: {@code 768Mi} is {@code 768m}. */
  static String maxRam(String component, String quantity) {
    Matcher m = QUANTITY.matcher(quantity.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(component + ".resources.limits.memory: Unsupported value: \""
          + quantity + "\": an integer with an optional suffix Ki, Mi, Gi, Ti, k, M, G or T");
    }
    long bytes = Long.parseLong(m.group(1)) * multiplier(m.group(2) == null ? "" : m.group(2));
    if (bytes % (1L << 30) == 0) {
      return bytes / (1L << 30) + "g";
    }
    if (bytes % (1L << 20) == 0) {
      return bytes / (1L << 20) + "m";
    }
    if (bytes % (1L << 10) == 0) {
      return bytes / (1L << 10) + "k";
    }
    return Long.toString(bytes);
  }

  /** The {@code -XX:MaxRAM} of JVM options in MiB (the last one wins, as in the JVM), if any. */
  public static OptionalDouble maxRamMiB(List<String> jvmOptions) {
    OptionalDouble result = OptionalDouble.empty();
    for (String option : jvmOptions) {
      if (option.startsWith("-XX:MaxRAM=")) {
        Matcher m = JVM_SIZE.matcher(option.substring("-XX:MaxRAM=".length()));
        if (!m.matches()) {
          throw new IllegalArgumentException("--jvm-args: Unsupported value: \"" + option
              + "\": -XX:MaxRAM=<integer>[k|m|g]");
        }
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "k" -> 1L << 10;
          case "m" -> 1L << 20;
          case "g" -> 1L << 30;
          default -> 1L;
        };
        result = OptionalDouble.of(Long.parseLong(m.group(1)) * unit / (double) (1L << 20));
      }
    }
    return result;
  }

  private static long multiplier(String suffix) {
    return switch (suffix) {
      case "Ki" -> 1L << 10;
      case "Mi" -> 1L << 20;
      case "Gi" -> 1L << 30;
      case "Ti" -> 1L << 40;
      case "k" -> 1_000L;
      case "M" -> 1_000_000L;
      case "G" -> 1_000_000_000L;
      case "T" -> 1_000_000_000_000L;
      default -> 1L;
    };
  }
}
