package io.tidb.operator.api.validation.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnmanagedComponentRulesTest {

  private final TidbClusterAdmissionRules rules = new TidbClusterAdmissionRules();

  private static final String EVERY_COMPONENT = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbCluster
      metadata: {name: every}
      spec:
        version: v8.5.0
        pd: {baseImage: pingcap/pd, replicas: 1, requests: {storage: 1Gi}}
        pdms: [{name: tso, baseImage: pingcap/pd, replicas: 1}]
        tikv: {baseImage: pingcap/tikv, replicas: 1, requests: {storage: 1Gi}}
        tidb: {baseImage: pingcap/tidb, replicas: 1}
        tiflash: {baseImage: pingcap/tiflash, replicas: 1, storageClaims: [{resources: {requests: {storage: 1Gi}}}]}
        ticdc: {baseImage: pingcap/ticdc, replicas: 1}
        tiproxy: {baseImage: pingcap/tiproxy, replicas: 1}
        pump: {baseImage: pingcap/tidb-binlog, replicas: 1, requests: {storage: 1Gi}}
        tici:
          meta: {replicas: 1}
          worker: {replicas: 1}
          s3: {endpoint: "http://127.0.0.1:9000", bucket: b}
      """;

  @Test
  void everyUnmanagedComponentIsRefusedOnCreateAndUpdateWithItsFieldAndReason() {
    TidbCluster tc = TestClusters.parse(EVERY_COMPONENT);
    List<String> expected = List.of(
        "spec.pdms: Forbidden: PD microservices (tso, scheduling) are not managed by this operator;"
            + " remove spec.pdms and run PD in its classic mode",
        "spec.tici: Forbidden: TiCI is not managed by this operator (upstream marks it experimental"
            + " and it needs an external object store and TiCDC); remove spec.tici");
    assertEquals(expected, messages(rules.validateCreate(tc)));
    assertEquals(expected, messages(rules.validateUpdate(tc, tc)));
  }

  @Test
  void storedClustersAreNotRefusedSoTheManagedComponentsKeepBeingHealed() {
    TidbCluster tc = TestClusters.parse(EVERY_COMPONENT);
    assertEquals(List.of(), rules.validateStored(tc));
    assertEquals(2, UnmanagedComponentRules.violations(tc.getSpec()).size());
  }

  @Test
  void aClusterOfManagedComponentsOnlyIsNotRefused() {
    assertEquals(List.of(), UnmanagedComponentRules.violations(TestClusters.basic().getSpec()));
    assertEquals(List.of(), UnmanagedComponentRules.violations(null));
  }

  @Test
  void tiproxyAndPumpAreManagedAndNoLongerRefused() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().setTiproxy(TestClusters.parse(EVERY_COMPONENT).getSpec().getTiproxy());
    tc.getSpec().setPump(TestClusters.parse(EVERY_COMPONENT).getSpec().getPump());
    assertEquals(List.of(), UnmanagedComponentRules.violations(tc.getSpec()));
    assertEquals(List.of(), messages(rules.validateCreate(tc)));
  }

  @Test
  void anEmptyPdmsListIsNoComponent() {
    TidbCluster tc = TestClusters.basic();
    tc.getSpec().setPdms(List.of());
    assertEquals(List.of(), UnmanagedComponentRules.violations(tc.getSpec()));
  }

  private static List<String> messages(List<Violation> violations) {
    return violations.stream().map(Violation::message).toList();
  }
}
