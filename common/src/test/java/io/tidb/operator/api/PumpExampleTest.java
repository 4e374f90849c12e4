package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upstream's advanced example with its {@code spec.pump} section in use (the shared admission
 * benchmark's CREATE object, as the API server stored it): it loads with its Pump spec and is
 * admitted now that Pump is managed. (Round trips of the user manifests are {@link
 * CompatRoundTripTest}'s; this stored object carries server fields such as {@code managedFields}.)
 */
class PumpExampleTest {

  private static Example example() {
    List<Example> all = CompatExamples.ofKind("compat/tidbcluster-with-pump", "TidbCluster");
    assertEquals(1, all.size());
    return all.get(0);
  }

  @Test
  void isAdmittedOnCreateAndUpdate() {
    JsonNode tree = example().tree();
    TidbCluster tc = ApiObjects.fromTree(tree, TidbCluster.class);
    assertNotNull(tc.getSpec().getPump());
    assertEquals(tree.at("/spec/pump/requests/storage").asText(),
        tc.getSpec().getPump().getRequests().get("storage").toString());
    TidbClusterAdmissionRules rules = new TidbClusterAdmissionRules();
    assertEquals(List.of(), messages(rules.validateCreate(tc)));
    TidbCluster defaulted = rules.withDefaults(tc);
    assertEquals(List.of(), messages(rules.validateUpdate(defaulted, defaulted)));
    assertEquals("pingcap/tidb-binlog", defaulted.getSpec().getPump().getBaseImage());
  }

  private static List<String> messages(List<Violation> violations) {
    return violations.stream().map(Violation::message).toList();
  }
}
