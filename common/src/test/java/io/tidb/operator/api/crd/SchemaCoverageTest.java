package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Compares the property paths of our CRD with upstream's. A path counts as covered when our
 * schema has it or keeps unknown fields at or above it. What we lack must be exactly the
 * documented omissions, each named in docs/differences-from-upstream.md.
 */
class SchemaCoverageTest {

  /** Upstream paths we deliberately leave out; each is explained in docs/differences-from-upstream.md. */
  static final List<String> DOCUMENTED_OMISSIONS = List.of(
      "status.conditions[].lastUpdateTime",
      "status.tici",
      "status.ticiMeta",
      "status.ticiWorker");

  /** The generator leaves these to the API server, which always serves them. */
  private static final Set<String> IMPLICIT = Set.of("apiVersion", "kind", "metadata");

  static Map<String, Boolean> paths(JsonNode crd) {
    Map<String, Boolean> out = new LinkedHashMap<>();
    JsonNode schema = crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
    walk(schema, "", out);
    return out;
  }

  private static void walk(JsonNode schema, String path, Map<String, Boolean> out) {
    if (!path.isEmpty()) {
      out.put(path, schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false));
    }
    schema.path("properties").fields().forEachRemaining(
        e -> walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out));
    if (schema.path("additionalProperties").isObject()) {
      walk(schema.get("additionalProperties"), path + ".*", out);
    }
    if (schema.path("items").isObject()) {
      walk(schema.get("items"), path + "[]", out);
    }
  }

  static Set<String> lacking(JsonNode ours, JsonNode upstream) {
    Map<String, Boolean> have = paths(ours);
    List<String> preserved = have.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    Set<String> lack = new TreeSet<>();
    for (String path : paths(upstream).keySet()) {
      boolean covered = have.containsKey(path) || IMPLICIT.contains(path)
          || preserved.stream().anyMatch(p -> isAtOrBelow(path, p));
      if (!covered) {
        lack.add(path);
      }
    }
    return lack;
  }

  static boolean isAtOrBelow(String path, String prefix) {
    return path.equals(prefix) || path.startsWith(prefix + ".") || path.startsWith(prefix + "[");
  }

  @Test
  void weLackOnlyTheDocumentedOmissions() throws IOException {
    JsonNode ours = CompatExamples.readYaml(TidbClusterCrd.ENTRY.generatedResource());
    JsonNode upstream = CompatExamples.readYaml("compat/crds/pingcap.com_tidbclusters.yaml");
    Set<String> lack = lacking(ours, upstream);
    System.out.println("Upstream TidbCluster schema paths our CRD lacks (" + lack.size() + "):");
    lack.forEach(p -> System.out.println("  " + p));

    Set<String> unexplained = new TreeSet<>();
    for (String path : lack) {
      if (DOCUMENTED_OMISSIONS.stream().noneMatch(o -> isAtOrBelow(path, o))) {
        unexplained.add(path);
      }
    }
    assertEquals(Set.of(), unexplained, "upstream fields missing from our CRD and not documented");
    for (String omission : DOCUMENTED_OMISSIONS) {
      assertTrue(lack.stream().anyMatch(p -> isAtOrBelow(p, omission)),
          omission + " is listed as omitted but our CRD has it: drop it from the list and the docs");
    }

    String docs = Files.readString(repoFile("docs/differences-from-upstream.md"));
    for (String omission : DOCUMENTED_OMISSIONS) {
      assertTrue(docs.contains("`" + omission + "`"), "docs/differences-from-upstream.md must explain `" + omission + "`");
    }
  }

  @Test
  void coveragePathsSeePreservedSubtreesAsCovered() {
    assertTrue(isAtOrBelow("spec.pd.affinity.nodeAffinity", "spec.pd.affinity"));
    assertTrue(isAtOrBelow("spec.pd.initContainers[].name", "spec.pd.initContainers[]"));
    assertTrue(!isAtOrBelow("spec.pdms", "spec.pd"));
  }

  static Path repoFile(String relative) {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (dir != null) {
      Path candidate = dir.resolve(relative);
      if (Files.exists(candidate)) {
        return candidate;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException(relative + " not found above " + System.getProperty("user.dir"));
  }
}
