package io.tidb.operator.api.validation.cluster;

import io.tidb.operator.api.validation.Violation;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.ServiceRef;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
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

  @Test
  void updateIsCheckedOnDefaultedObjects() {
    TidbCluster old = TestClusters.basic();
    TidbCluster updated = ApiObjects.deepCopy(old);
    updated.getSpec().getTikv().setRequests(null);
    assertEquals(List.of("spec.tikv.requests.storage: Required value: the data volume size is required"),
        rules.validateUpdate(old, updated).stream().map(Violation::message).toList());
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
