package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster stored under an older operator, the way upstream users wrote them: full {@code image}
 * fields beside {@code spec.version} (the CRD defaults {@code baseImage}, which then takes
 * precedence, exactly as in upstream, so the pods run {@code pingcap/<component>:<version>}). The
 * webhook refuses that on create today, but the controller runs only the stored-object rules, so it keeps reconciling such a cluster (as upstream does)
 * instead of marking it {@code Valid=False} and leaving it alone. Here it is stored directly,
 * without the webhook, as it would be after an operator upgrade.
 */
@WithLocalControlPlane
class StoredObjectRulesIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "stored-rules-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static TidbCluster legacy(String name) {
    TidbCluster tc = Fixtures.small(name, "InPlace");
    tc.getSpec().setVersion("v6.5.12");
    for (var c : List.<Object[]>of(
        new Object[] {tc.getSpec().getPd(), "pd"},
        new Object[] {tc.getSpec().getTikv(), "tikv"},
        new Object[] {tc.getSpec().getTidb(), "tidb"})) {
      MemberSpec m = (MemberSpec) c[0];
      m.setBaseImage(null);
      m.setVersion(null);
      m.setImage("pingcap/" + c[1] + ":v6.5.12");
    }
    return tc;
  }

  @Test
  void aClusterUsingTheDeprecatedImageFieldIsReconciledToReady() {
    TidbCluster stored = legacy("legacy");
    assertTrue(
        new TidbClusterAdmissionRules().validateCreate(stored).stream()
            .anyMatch(v -> v.message().startsWith("spec.pd.image: Forbidden")),
        "the create rules refuse it");

    h.create(stored);
    TidbCluster tc = h.awaitReady("legacy");

    var valid = Fixtures.condition(tc, "Valid").orElseThrow();
    assertEquals("True", valid.getStatus(), valid.getMessage());
    for (String c : List.of("pd", "tikv", "tidb")) {
      StatefulSet sts =
          h.admin.apps().statefulSets().inNamespace(h.namespace).withName("legacy-" + c).get();
      assertEquals(
          "pingcap/" + c + ":v6.5.12",
          sts.getSpec().getTemplate().getSpec().getContainers().stream()
              .filter(container -> c.equals(container.getName()))
              .findFirst()
              .orElseThrow()
              .getImage(),
          c + " runs the image the stored cluster names");
    }
    assertTrue(
        h.events("legacy").stream().noneMatch(e -> "FailedValidation".equals(e.getReason())),
        "no FailedValidation Warning");
  }
}
