package io.tidb.operator.api.validation.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Garbage that arrives as JSON/YAML (as the webhook and the controller see it) becomes violations. */
class MalformedInputTest {

  private static final String GARBAGE = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbCluster
      metadata:
        name: garbage
        annotations:
          tikv.tidb.pingcap.com/delete-slots: "[1,"
      spec:
        version: v8.5.0
        pdAddresses: ["::not a url::"]
        pd:
          requests: {storage: "10 GB"}
          config: 17
          service: {loadBalancerSourceRanges: ["10.0.0.300/8"]}
        tikv:
          requests: {storage: "1..5Gi"}
          evictLeaderTimeout: "1 hour"
          config: "[storage\\nreserve-space = "
        tidb:
          limits: {cpu: "two"}
          storageVolumes: [{name: slow, storageSize: "big"}]
        tiflash:
          storageClaims: [{resources: {requests: {storage: "x"}}}]
      """;

  @Test
  void everyMalformedValueIsAViolation() {
    TidbCluster tc = TestClusters.parse(GARBAGE);
    List<String> messages = new TidbClusterAdmissionRules().validateCreate(tc).stream().map(Violation::message).toList();
    assertEquals(List.of(
        "metadata.annotations[tikv.tidb.pingcap.com/delete-slots]: Invalid value: \"[1,\": must be a JSON array of 32-bit integers, e.g. [1,3]",
        "spec.pd.requests.storage: Invalid value: \"10 GB\": must be a Kubernetes quantity such as 500m, 4Gi or 100G",
        "spec.pd.config: Invalid value: \"17\": config must be a map or a TOML string, got number",
        "spec.tikv.requests.storage: Invalid value: \"1..5Gi\": must be a Kubernetes quantity such as 500m, 4Gi or 100G",
        "spec.tikv.config: Invalid value: \"[storage\nreserve-space = \": config is not valid TOML: "
            + "Newline not permitted here",
        "spec.tidb.limits.cpu: Invalid value: \"two\": must be a Kubernetes quantity such as 500m, 4Gi or 100G",
        "spec.pd.service.loadBalancerSourceRanges[0]: Invalid value: \"10.0.0.300/8\": must be a CIDR such as 10.0.0.0/8 or fd00::/8",
        "spec.tikv.evictLeaderTimeout: Invalid value: \"1 hour\": must be a duration such as 90s, 10m or 1h30m: "
            + "unknown unit \" hour\" in duration \"1 hour\"",
        "spec.tidb.storageVolumes[0].storageSize: Invalid value: \"big\": must be a Kubernetes quantity such as 10Gi",
        "spec.tiflash.storageClaims[0].resources.requests.storage: Invalid value: \"x\": must be a Kubernetes quantity such as 100Gi",
        "spec.pdAddresses[0]: Invalid value: \"::not a url::\": must be an http or https URL with a host, e.g. http://pd.example:2379"),
        messages);
  }

  @Test
  void genericLoadingGivesATidbCluster() {
    KubernetesResource resource = ApiObjects.parse(TestClusters.BASIC, KubernetesResource.class);
    assertInstanceOf(TidbCluster.class, resource);
  }
}
