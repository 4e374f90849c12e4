package io.tidb.operator.api.validation.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.ServiceRef;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class TidbClusterAdmissionRulesTest {

  private final TidbClusterAdmissionRules rules = new TidbClusterAdmissionRules();

  @Test
  void servesTidbClusters() {
    assertEquals(TidbCluster.class, rules.resourceType());
  }

  @Test
  void createIsCheckedAfterDefaulting() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().getPd().setBaseImage(null); // the defaulter fills it in, so this is fine
    assertEquals(List.of(), rules.validateCreate(tc));
    assertEquals(List.of("spec.pd.baseImage: Required value: must not be empty"),
        TidbClusterValidator.validateCreate(tc).stream().map(Violation::message).toList());
  }

  /**
   * A cluster stored under an older operator may use the deprecated {@code image} field and no
   * version: refused on create today, but the controller keeps reconciling it, as upstream's
   * controller does (it runs only the always-checked rules).
   */
  @Test
  void storedObjectsAreCheckedWithoutTheCreateOnlyRules() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().setVersion(null);
    tc.getSpec().getPd().setBaseImage(null);
    tc.getSpec().getPd().setVersion(null);
    tc.getSpec().getPd().setImage("pingcap/pd:v6.5.0");
    List<String> onCreate = rules.validateCreate(tc).stream().map(Violation::message).toList();
    assertTrue(onCreate.stream().anyMatch(m -> m.startsWith("spec.pd.image: Forbidden")), onCreate.toString());
    assertEquals(List.of(), rules.validateStored(tc));
  }

  @Test
  void storedObjectsStillFailTheAlwaysCheckedRules() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().getPd().setImage("pingcap/pd:v6.5.0");
    tc.getSpec().getTikv().setEvictLeaderTimeout("5 minutes");
    List<String> stored = rules.validateStored(tc).stream().map(Violation::message).toList();
    assertEquals(1, stored.size(), stored.toString());
    assertTrue(stored.get(0).startsWith("spec.tikv.evictLeaderTimeout: Invalid value"), stored.toString());
  }

  @Test
  void updateIsCheckedOnDefaultedObjects() {
    TidbCluster old = TestClusters.basic();
    TidbCluster updated = ApiObjects.deepCopy(old);
    updated.getSpec().getTikv().setRequests(null);
    assertEquals(List.of("spec.tikv.requests.storage: Required value: the data volume size is required"),
        rules.validateUpdate(old, updated).stream().map(Violation::message).toList());
  }

  /** What the webhook calls on the object it owns: the same violations, the copy spared. */
  @Test
  void rulesOnObjectsDefaultedInPlaceAreTheRulesOnTheOriginals() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().setVersion(null);
    tc.getSpec().getPd().setBaseImage(null);
    tc.getSpec().getPd().setVersion(null);
    tc.getSpec().getPd().setImage("pingcap/pd:v6.5.0");
    tc.getSpec().getTikv().setEvictLeaderTimeout("5 minutes");
    List<Violation> onCreate = rules.validateCreate(tc);
    assertTrue(onCreate.size() >= 2, onCreate.toString());
    assertEquals(onCreate, rules.validateCreateDefaulted(rules.defaultInPlace(ApiObjects.deepCopy(tc))));

    TidbCluster old = TestClusters.basic();
    TidbCluster updated = ApiObjects.deepCopy(old);
    updated.getSpec().getTikv().setRequests(null);
    List<Violation> onUpdate = rules.validateUpdate(old, updated);
    assertEquals(1, onUpdate.size(), onUpdate.toString());
    assertEquals(onUpdate, rules.validateUpdateDefaulted(
        rules.defaultInPlace(ApiObjects.deepCopy(old)), rules.defaultInPlace(ApiObjects.deepCopy(updated))));
  }

  @Test
  void warnsAboutDeprecatedFields() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().getTidb().setImage("pingcap/tidb:v5.0.0");
    ServiceRef service = new ServiceRef();
    service.setName("pd");
    tc.getSpec().setServices(List.of(service));
    tc.getSpec().getPd().setEnableDashboardInternalProxy(true);
    assertEquals(List.of(
            "spec.tidb.image is deprecated; use spec.tidb.baseImage and spec.tidb.version (or spec.version)",
            "spec.services is deprecated; use the service field of each component, e.g. spec.tidb.service",
            "spec.pd.enableDashboardInternalProxy is deprecated; set dashboard.internal-proxy in spec.pd.config"),
        rules.warnings(tc));
    assertEquals(List.of(), rules.warnings(TestClusters.basic()));
  }

  @Test
  void defaultingIsTheDefaultersAndLeavesTheArgumentAlone() {
    TidbCluster tc = TestClusters.basic();
    var before = ApiObjects.toTree(tc);
    TidbCluster defaulted = rules.withDefaults(tc);
    assertEquals("IfNotPresent", defaulted.getSpec().getImagePullPolicy());
    assertEquals(before, ApiObjects.toTree(tc));
  }
}
