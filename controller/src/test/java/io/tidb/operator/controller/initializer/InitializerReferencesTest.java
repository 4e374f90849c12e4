package io.tidb.operator.controller.initializer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerSpec;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InitializerReferencesTest {

  private static final TidbInitializerSpec SPEC = ApiObjects.parse(
      "--- {image: x, cluster: {name: demo}, passwordSecret: pw, initSqlConfigMap: sql}", TidbInitializerSpec.class);

  @Test
  void everyMissingObjectIsReportedAtOnce() {
    List<String> messages = InitializerReferences.check("ns", SPEC, Optional.empty(), Optional.empty(), Optional.empty())
        .stream().map(Violation::message).toList();
    assertEquals(List.of(
        "spec.cluster.name: Invalid value: \"demo\": no TidbCluster demo in namespace ns",
        "spec.passwordSecret: Invalid value: \"pw\": no Secret pw in namespace ns",
        "spec.initSqlConfigMap: Invalid value: \"sql\": no ConfigMap sql in namespace ns"), messages);
  }

  @Test
  void missingKeysAreNamedWithTheKeysThatExistButNoValues() {
    TidbCluster noTidb = ApiObjects.parse("--- {metadata: {name: demo}, spec: {pd: {replicas: 1}}}", TidbCluster.class);
    List<String> messages = InitializerReferences.check("ns", SPEC, Optional.of(noTidb),
            Optional.of(new SecretBuilder().addToData("admin", "c2VjcmV0").build()),
            Optional.of(new ConfigMapBuilder().addToData("sql", "select 1").build()))
        .stream().map(Violation::message).toList();
    assertEquals(List.of(
        "spec.cluster.name: Invalid value: \"demo\": TidbCluster demo has no spec.tidb: there is no TiDB to initialise",
        "spec.passwordSecret: Invalid value: \"pw\": Secret pw has no key \"root\" (root's password); keys: [admin]",
        "spec.initSqlConfigMap: Invalid value: \"sql\": ConfigMap sql has no key \"init-sql\" (the SQL to run); keys: [sql]"),
        messages);
  }

  @Test
  void completeReferencesPassAndTheOtherKeysAreUsers() {
    TidbCluster tc = ApiObjects.parse("--- {metadata: {name: demo}, spec: {tidb: {replicas: 1}}}", TidbCluster.class);
    var secret = Optional.of(new SecretBuilder().addToData("root", "cg==").addToData("dev", "ZA==").addToData("app", "YQ==").build());
    assertEquals(List.of(), InitializerReferences.check("ns", SPEC, Optional.of(tc), secret,
        Optional.of(new ConfigMapBuilder().addToData("init-sql", "select 1").build())));
    assertEquals(List.of("app", "dev"), InitializerReferences.users(secret));
  }
}
