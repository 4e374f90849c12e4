package io.tidb.operator.api.validation.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class DmClusterValidatorTest {

  private static DmCluster dc(String specYaml) {
    return dc("{}", specYaml);
  }

  private static DmCluster dc(String annotations, String specYaml) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: DMCluster
        metadata: {name: dm, namespace: ns, annotations: %s}
        spec:
        """.formatted(annotations) + specYaml.indent(2), DmCluster.class);
  }

  private static List<String> messages(DmCluster dc) {
    return new DmClusterAdmissionRules().validateCreate(dc).stream().map(Violation::message).toList();
  }

  @Test
  void aMinimalClusterIsValid() {
    assertEquals(List.of(), messages(dc("""
        version: v8.5.7
        master: {replicas: 3, storageSize: 10Gi}
        worker: {replicas: 2}
        """)));
  }

  @Test
  void everyViolationIsListedAtOnceWithFieldValueAndRule() {
    DmCluster bad = dc("{dm-master.tidb.pingcap.com/delete-slots: 'one', dm-worker.tidb.pingcap.com/delete-slots: '[1]'}", """
        version: v1.0.7
        discovery:
          env: [{name: "1BAD", value: x}]
        master:
          replicas: 1
          requests: {cpu: lots}
          additionalContainers: [{name: sidecar}, {name: dm-master}]
          config: "not = [toml"
        worker:
          replicas: 1
          storageSize: huge
        """);
    assertEquals(List.of(
        "metadata.annotations[dm-master.tidb.pingcap.com/delete-slots]: Invalid value: \"one\": must be a JSON array of 32-bit integers, e.g. [1,3]",
        "spec.version: Invalid value: \"v1.0.7\": DM 1.x is not supported; use v2.0.0 or later",
        "spec.discovery.env[0].name: Invalid value: \"1BAD\": must consist of letters, digits, '_', '-' or '.' and must not start with a digit, e.g. MY_ENV.NAME",
        "spec.master.requests.cpu: Invalid value: \"lots\": must be a Kubernetes quantity such as 500m, 4Gi or 100G",
        "spec.master.additionalContainers[0].image: Required value: an additional container needs an image (only one named like the main container is merged into it)",
        "spec.master.config: Invalid value: \"not = [toml\": config is not valid TOML: Unknown token",
        "spec.master.storageSize: Required value: dm-master keeps its data on a volume: set a size such as 10Gi",
        "spec.worker.storageSize: Invalid value: \"huge\": must be a Kubernetes quantity such as 10Gi"),
        messages(bad));
  }

  @Test
  void masterWithoutMembersNeedsNoStorage() {
    assertEquals(List.of(), messages(dc("master: {replicas: 0}\n")));
  }

  @Test
  void versionsOfTwoOrLaterAndNonSemverTagsPass() {
    assertFalse(DmClusterValidator.majorBelowTwo("v2.0.0"));
    assertFalse(DmClusterValidator.majorBelowTwo("v8.5.7"));
    assertFalse(DmClusterValidator.majorBelowTwo("nightly"));
    assertFalse(DmClusterValidator.majorBelowTwo("latest"));
    assertTrue(DmClusterValidator.majorBelowTwo("v1.0.7"));
    assertTrue(DmClusterValidator.majorBelowTwo("1"));
    assertTrue(DmClusterValidator.majorBelowTwo("v0.9.0-rc.1"));
  }

  @Test
  void theDeprecatedDiscoveryAddressWarns() {
    assertEquals(List.of("spec.discovery.address is deprecated; the DMCluster runs its own discovery service"),
        new DmClusterAdmissionRules().warnings(dc("discovery: {address: 'http://d:10261'}\nmaster: {replicas: 0}\n")));
  }
}
