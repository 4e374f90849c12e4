package io.tidb.operator.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.tidb.operator.api.ApiObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per rule: an env var (JSON) and the exact messages it must produce at {@code env[0]}. */
class EnvVarRulesTest {

  private static Arguments row(String name, String json, String... expected) {
    return Arguments.of(name, json, List.of(expected));
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        row("plain value", "{\"name\":\"TZ\",\"value\":\"UTC\"}"),
        row("empty value is fine", "{\"name\":\"TZ\"}"),
        row("name missing", "{\"value\":\"x\"}", "env[0].name: Required value: must not be empty"),
        row("name starts with a digit", "{\"name\":\"1A\"}",
            "env[0].name: Invalid value: \"1A\": must consist of letters, digits, '_', '-' or '.' and must not "
                + "start with a digit, e.g. MY_ENV.NAME"),
        row("name is '..'", "{\"name\":\"..\"}", "env[0].name: Invalid value: \"..\": must not be '..'"),
        row("value and valueFrom", "{\"name\":\"A\",\"value\":\"x\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}}",
            "env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"),
        row("valueFrom without a source", "{\"name\":\"A\",\"valueFrom\":{}}",
            "env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, "
                + "`configMapKeyRef` or `secretKeyRef`"),
        row("valueFrom with two sources", "{\"name\":\"A\",\"valueFrom\":{\"configMapKeyRef\":{\"name\":\"c\",\"key\":\"k\"},"
                + "\"secretKeyRef\":{\"name\":\"s\",\"key\":\"k\"}}}",
            "env[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time"),
        row("fieldRef fine", "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":\"status.podIP\"}}}"),
        row("fieldRef to a label", "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.labels['app.kubernetes.io/name']\"}}}"),
        row("fieldRef to a bad label key", "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.labels['a b']\"}}}",
            "env[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.labels['a b']\": the key in brackets name part "
                + "must consist of letters, digits, '-', '_' or '.' and must start and end with a letter or digit, "
                + "e.g. MyName or my.name"),
        row("fieldRef without fieldPath", "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{}}}",
            "env[0].valueFrom.fieldRef.fieldPath: Required value: must not be empty"),
        row("fieldRef to an unsupported field", "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"spec.hostname\"}}}",
            "env[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"spec.hostname\": supported values: metadata.name, "
                + "metadata.namespace, metadata.uid, spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, "
                + "status.podIP, status.podIPs, metadata.labels['<key>'], metadata.annotations['<key>']"),
        row("fieldRef with another API version", "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v2\",\"fieldPath\":\"metadata.name\"}}}",
            "env[0].valueFrom.fieldRef.apiVersion: Unsupported value: \"v2\": supported values: v1"),
        row("resourceFieldRef fine", "{\"name\":\"A\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.memory\"}}}"),
        row("resourceFieldRef hugepages", "{\"name\":\"A\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.hugepages-2Mi\"}}}"),
        row("resourceFieldRef without resource", "{\"name\":\"A\",\"valueFrom\":{\"resourceFieldRef\":{}}}",
            "env[0].valueFrom.resourceFieldRef.resource: Required value: must not be empty"),
        row("resourceFieldRef to an unknown resource", "{\"name\":\"A\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.gpu\"}}}",
            "env[0].valueFrom.resourceFieldRef.resource: Unsupported value: \"limits.gpu\": supported values: limits.cpu, "
                + "limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory, requests.ephemeral-storage, "
                + "limits.hugepages-<size>, requests.hugepages-<size>"),
        row("configMapKeyRef fine", "{\"name\":\"A\",\"valueFrom\":{\"configMapKeyRef\":{\"name\":\"cm\",\"key\":\"a.b\"}}}"),
        row("configMapKeyRef without key and name", "{\"name\":\"A\",\"valueFrom\":{\"configMapKeyRef\":{}}}",
            "env[0].valueFrom.configMapKeyRef.key: Required value: must not be empty",
            "env[0].valueFrom.configMapKeyRef.name: Required value: must not be empty"),
        row("configMapKeyRef with a bad name and key", "{\"name\":\"A\",\"valueFrom\":{\"configMapKeyRef\":{\"name\":\"My_CM\",\"key\":\"a/b\"}}}",
            "env[0].valueFrom.configMapKeyRef.key: Invalid value: \"a/b\": must consist of letters, digits, '_', '-' or '.', "
                + "e.g. key.name or KEY_NAME",
            "env[0].valueFrom.configMapKeyRef.name: Invalid value: \"My_CM\": must be a lowercase RFC 1123 subdomain: "
                + "lower-case letters, digits, '-' or '.', starting and ending with a letter or digit, e.g. my-name or example.com"),
        row("secretKeyRef fine", "{\"name\":\"A\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"tls\",\"key\":\"tls.crt\"}}}"),
        row("secretKeyRef without key", "{\"name\":\"A\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"s\"}}}",
            "env[0].valueFrom.secretKeyRef.key: Required value: must not be empty"),
        row("secretKeyRef with a bad name", "{\"name\":\"A\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"-s\",\"key\":\"k\"}}}",
            "env[0].valueFrom.secretKeyRef.name: Invalid value: \"-s\": must be a lowercase RFC 1123 subdomain: "
                + "lower-case letters, digits, '-' or '.', starting and ending with a letter or digit, e.g. my-name or example.com"),
        row("secretKeyRef key '.'", "{\"name\":\"A\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"s\",\"key\":\".\"}}}",
            "env[0].valueFrom.secretKeyRef.key: Invalid value: \".\": must not be '.'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(String name, String json, List<String> expected) {
    List<Violation> out = new ArrayList<>();
    EnvVarRules.validate("env", List.of(ApiObjects.parse(json, EnvVar.class)), out);
    assertEquals(expected, out.stream().map(Violation::message).toList());
  }

  @org.junit.jupiter.api.Test
  void everyEntryIsCheckedAndNullEntriesAreReported() {
    List<EnvVar> env = new ArrayList<>();
    env.add(ApiObjects.parse("{\"name\":\"1\"}", EnvVar.class));
    env.add(null);
    env.add(ApiObjects.parse("{\"name\":\"B\",\"valueFrom\":{}}", EnvVar.class));
    List<Violation> out = new ArrayList<>();
    EnvVarRules.validate("spec.pd.env", env, out);
    assertEquals(List.of("spec.pd.env[0].name", "spec.pd.env[1]", "spec.pd.env[2].valueFrom"),
        out.stream().map(Violation::field).toList());
  }
}
