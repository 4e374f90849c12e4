package io.tidb.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The upstream examples copied into test resources, one entry per document of a kind. */
public final class CompatExamples {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private CompatExamples() {}

  /** A TidbCluster document from an example file. */
  public record Example(String file, int index, JsonNode tree) {
    @Override
    public String toString() {
      return file + "#" + index;
    }
  }

  public static List<Example> all() {
    return ofKind("compat/tidbcluster", "TidbCluster");
  }

  /** Every document of {@code kind} in the example files of a resource directory. */
  public static List<Example> ofKind(String resourceDir, String kind) {
    List<Example> out = new ArrayList<>();
    Path dir = resourceDir(resourceDir);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        int index = 0;
        for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll()) {
          if (doc != null && kind.equals(doc.path("kind").asText())) {
            out.add(new Example(file.getFileName().toString(), index, doc));
          }
          index++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** For {@code @MethodSource}. */
  public static Stream<Arguments> arguments() {
    return all().stream().map(Arguments::of);
  }

  public static JsonNode readYaml(String resource) {
    try {
      return YAML.readTree(resourceDir(resource).toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Path resourceDir(String resource) {
    URL url = CompatExamples.class.getClassLoader().getResource(resource);
    if (url == null) {
      throw new IllegalStateException("test resource missing: " + resource);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
