package io.tidb.operator.api.validation.initializer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.validation.Violation;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class TidbInitializerValidatorTest {

  private static final String MANIFEST = "/compat/tidbinitializer/initialize__tidb-initializer.yaml";

  private static TidbInitializer parse(String yaml) {
    return ApiObjects.parse("---\n" + yaml, TidbInitializer.class);
  }

  @Test
  void theUpstreamManifestIsValidAndRoundTripsWithoutLosingAField() throws Exception {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    JsonNode original;
    try (InputStream in = getClass().getResourceAsStream(MANIFEST)) {
      original = yaml.readTree(in);
    }
    TidbInitializer ti = ApiObjects.fromTree(original, TidbInitializer.class);
    ti.getMetadata().setNamespace("demo");
    assertEquals(List.of(), new TidbInitializerAdmissionRules().validateCreate(ti));
    JsonNode back = ApiObjects.toTree(ApiObjects.fromTree(original, TidbInitializer.class));
    assertEquals(original, back);
  }

  @Test
  void everyViolationIsListedAtOnce() {
    TidbInitializer ti = parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: bad, namespace: ns}
        spec:
          cluster: {name: Demo_1, namespace: other}
          passwordSecret: "Not A Name"
          imagePullPolicy: Sometimes
          permitHost: " "
          timezone: Mars/Olympus
          imagePullSecrets: [{}]
        """);
    List<String> messages = TidbInitializerValidator.validate(ti).stream().map(Violation::message).toList();
    assertEquals(List.of(
        "spec.image: Required value: upstream requires an image (this operator runs its own)",
        "spec.cluster.name: Invalid value: \"Demo_1\": must be a Kubernetes object name: lower-case letters, digits,"
            + " '-' and '.', starting and ending with a letter or digit, at most 253 characters",
        "spec.cluster.namespace: Unsupported value: \"other\": must be empty or \"ns\": the TidbCluster must be in the"
            + " TidbInitializer's namespace",
        "spec.passwordSecret: Invalid value: \"Not A Name\": must be a Kubernetes object name: lower-case letters,"
            + " digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters",
        "spec.imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
        "spec.imagePullSecrets[0].name: Required value: the name of a Secret",
        "spec.permitHost: Invalid value: \" \": must not be empty; unset means % (any host)",
        "spec.timezone: Invalid value: \"Mars/Olympus\": must be a time zone name such as UTC or Asia/Shanghai"),
        messages);
  }

  @Test
  void aMissingSpecOrClusterIsRequired() {
    assertEquals(List.of("spec: Required value: a TidbInitializer needs spec.cluster and spec.image"),
        TidbInitializerValidator.validate(parse("{metadata: {name: x}}")).stream().map(Violation::message).toList());
    assertEquals(List.of("spec.cluster.name: Required value: the name of the TidbCluster to initialise"),
        TidbInitializerValidator.validate(parse("{metadata: {name: x}, spec: {image: i}}")).stream().map(Violation::message).toList());
  }

  @Test
  void initSqlBesideTheConfigMapIsAWarning() {
    TidbInitializer ti = parse("{metadata: {name: x}, spec: {image: i, cluster: {name: c}, initSql: a, initSqlConfigMap: m}}");
    assertEquals(List.of(), TidbInitializerValidator.validate(ti));
    assertEquals(List.of("spec.initSql is ignored: spec.initSqlConfigMap takes precedence, as upstream"),
        new TidbInitializerAdmissionRules().warnings(ti));
  }
}
