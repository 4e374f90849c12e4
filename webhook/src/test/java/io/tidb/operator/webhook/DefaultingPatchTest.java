package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.zjsonpatch.JsonPatch;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On every upstream example (common's {@code compat/} test resources), the CREATE patch that
 * {@code /mutate} answers, applied to the request's object as it was sent, gives the defaulted
 * object, and uses only add, replace and remove. "Gives" is compared as the API server stores it:
 * after the schema has pruned the fields the kind does not have (Restore's example {@code rt-ebs}
 * sets Backup's {@code backupMode}), which is what reading the patched object back as the kind
 * does; for every other example the patched object is the defaulted one exactly.
 */
class DefaultingPatchTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> OPERATIONS = Set.of("add", "replace", "remove");

  static Stream<Arguments> examples() {
    return Stream.of(
        Arguments.of("tidbcluster", "TidbCluster", new TidbClusterAdmissionRules(), true),
        Arguments.of("dmcluster", "DMCluster", new DmClusterAdmissionRules(), true),
        Arguments.of("tidbmonitor", "TidbMonitor", new TidbMonitorAdmissionRules(), true),
        Arguments.of("backup", "Backup", new BackupAdmissionRules(), true),
        Arguments.of("restore", "Restore", new RestoreAdmissionRules(), true),
        Arguments.of("backupschedule", "BackupSchedule", new BackupScheduleAdmissionRules(), true),
        Arguments.of("tidbinitializer", "TidbInitializer", new TidbInitializerAdmissionRules(), false));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("examples")
  <T extends HasMetadata> void thePatchTurnsTheSentObjectIntoTheDefaultedOne(
      String dir, String kind, AdmissionRules<T> rules, boolean somePatched) throws IOException {
    AdmissionReviewCodec codec = new AdmissionReviewCodec();
    AdmissionRulesRegistry registry = new AdmissionRulesRegistry().register(rules);
    AdmissionService service = new AdmissionService(registry, codec);
    AdmissionRulesRegistry.Served served = registry.servedAs(rules);
    int patched = 0;
    int pruned = 0;
    List<String> checked = new ArrayList<>();
    for (JsonNode object : documents(dir, kind)) {
      String name = object.at("/metadata/name").asText();
      Mutated mutated = patchGivesDefaulted(codec, service, served, rules, object);
      if (mutated == Mutated.REFUSED) {
        continue;
      }
      checked.add(name);
      if (mutated != Mutated.NO_PATCH) {
        patched++;
        pruned += mutated == Mutated.AFTER_PRUNING ? 1 : 0;
      }
    }
    assertFalse(checked.isEmpty(), "no " + kind + " example was allowed");
    assertEquals(somePatched, patched > 0, kind + " examples patched: " + patched + " of " + checked);
    assertTrue(pruned <= (kind.equals("Restore") ? 1 : 0), kind + ": " + pruned + " compared after pruning");
  }

  /**
   * Objects whose defaults go into empty strings, list entries and each form of a configuration
   * ({@code src/test/resources/defaulting-edge-cases.yaml}): each is patched into its defaulted form.
   */
  @Test
  void thePatchFillsEmptyStringsListEntriesAndConfigurations() throws IOException {
    AdmissionReviewCodec codec = new AdmissionReviewCodec();
    List<AdmissionRules<? extends HasMetadata>> all =
        List.of(new TidbClusterAdmissionRules(), new TidbMonitorAdmissionRules());
    AdmissionRulesRegistry registry = new AdmissionRulesRegistry();
    all.forEach(registry::register);
    AdmissionService service = new AdmissionService(registry, codec);
    Path file = ProjectDirectory.root().resolve("webhook/src/test/resources/defaulting-edge-cases.yaml");
    int patched = 0;
    for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll()) {
      ((ObjectNode) doc.get("metadata")).put("namespace", "default");
      AdmissionRules<? extends HasMetadata> rules = all.stream()
          .filter(r -> r.resourceType().getSimpleName().equals(doc.path("kind").asText()))
          .findFirst().orElseThrow();
      assertEquals(List.of(), violations(rules, doc), doc.at("/metadata/name").asText());
      Mutated mutated = patchGivesDefaulted(codec, service, registry.servedAs(rules), rules, doc);
      assertEquals(Mutated.AS_IS, mutated, doc.at("/metadata/name").asText());
      patched++;
    }
    assertEquals(4, patched);
  }

  private static <T extends HasMetadata> List<?> violations(AdmissionRules<T> rules, JsonNode doc) {
    return rules.validateCreate(ApiObjects.fromTree(doc, rules.resourceType()));
  }

  /** What {@code /mutate} answered and how its patch was found to give the defaulted object. */
  private enum Mutated {
    REFUSED,
    NO_PATCH,
    /** The patch applied to the object as sent gives the defaulted object exactly. */
    AS_IS,
    /** It does after the schema's pruning (reading the patched object back as the kind). */
    AFTER_PRUNING
  }

  /**
   * What {@code /mutate} answered for {@code object}; fails when its patch does not give the
   * defaulted object, or has an operation other than add, replace and remove.
   */
  private static <T extends HasMetadata> Mutated patchGivesDefaulted(
      AdmissionReviewCodec codec, AdmissionService service, AdmissionRulesRegistry.Served served,
      AdmissionRules<T> rules, JsonNode object) throws IOException {
    String name = object.at("/metadata/name").asText();
    AdmissionResponse response = service.handle(AdmissionOperation.MUTATE,
        codec.parse(JSON.writeValueAsBytes(createReview(served, object)))).review().getResponse();
    if (!response.getAllowed()) {
      return Mutated.REFUSED;
    }
    if (response.getPatch() == null) {
      return Mutated.NO_PATCH;
    }
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.getPatch()));
    for (JsonNode operation : patch) {
      assertTrue(OPERATIONS.contains(operation.path("op").asText()), name + ": " + operation);
      assertFalse(operation.has("from"), name + ": " + operation);
    }
    JsonNode expected = codec.nonNullMapper().valueToTree(
        rules.withDefaults(ApiObjects.fromTree(object, rules.resourceType())));
    JsonNode result = JsonPatch.apply(patch, object);
    boolean asIs = expected.equals(result);
    if (!asIs) {
      result = codec.nonNullMapper().valueToTree(ApiObjects.fromTree(result, rules.resourceType()));
    }
    assertEquals(expected, result, name + " patched with " + patch);
    return asIs ? Mutated.AS_IS : Mutated.AFTER_PRUNING;
  }

  private static List<JsonNode> documents(String dir, String kind) throws IOException {
    Path examples = ProjectDirectory.root().resolve("common/src/test/resources/compat").resolve(dir);
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(examples)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll()) {
          if (doc != null && kind.equals(doc.path("kind").asText())) {
            ObjectNode metadata = (ObjectNode) doc.get("metadata");
            if (!metadata.has("namespace")) {
              metadata.put("namespace", "default");
            }
            out.add(doc);
          }
        }
      }
    }
    assertFalse(out.isEmpty(), "no " + kind + " example in " + examples);
    return out;
  }

  private static JsonNode createReview(AdmissionRulesRegistry.Served served, JsonNode object) {
    ObjectNode request = JSON.createObjectNode()
        .put("uid", "0d3a5c8e-0000-4c1e-9a70-000000000000")
        .put("operation", "CREATE")
        .put("namespace", object.at("/metadata/namespace").asText())
        .put("name", object.at("/metadata/name").asText());
    request.putObject("kind").put("group", served.group()).put("version", served.version()).put("kind", served.kind());
    request.putObject("resource").put("group", served.group()).put("version", served.version())
        .put("resource", served.resource());
    request.set("object", object);
    ObjectNode review = JSON.createObjectNode()
        .put("apiVersion", AdmissionReviewCodec.API_VERSION).put("kind", AdmissionReviewCodec.KIND);
    review.set("request", request);
    return review;
  }
}
