package io.tidb.operator.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per case: a rule, a value, and whether it is accepted. */
class KubernetesNamesTest {

  private static final Function<String, List<String>> ENV = KubernetesNames::envVarNameProblems;
  private static final Function<String, List<String>> KEY = KubernetesNames::configMapKeyProblems;
  private static final Function<String, List<String>> DNS = KubernetesNames::dns1123SubdomainProblems;
  private static final Function<String, List<String>> QUALIFIED = KubernetesNames::qualifiedNameProblems;

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("env upper case with underscore", ENV, "MY_ENV", true),
        Arguments.of("env dots and dashes", ENV, "my.env-name", true),
        Arguments.of("env leading underscore", ENV, "_X", true),
        Arguments.of("env leading digit", ENV, "1X", false),
        Arguments.of("env with equals sign", ENV, "A=B", false),
        Arguments.of("env with space", ENV, "A B", false),
        Arguments.of("env dot", ENV, ".", false),
        Arguments.of("env leading dot dot", ENV, "..x", false),
        Arguments.of("key plain", KEY, "tls.crt", true),
        Arguments.of("key with slash", KEY, "a/b", false),
        Arguments.of("key dot dot", KEY, "..", false),
        Arguments.of("key too long", KEY, "k".repeat(254), false),
        Arguments.of("key at the length limit", KEY, "k".repeat(253), true),
        Arguments.of("dns subdomain", DNS, "my-secret.v1", true),
        Arguments.of("dns upper case", DNS, "MySecret", false),
        Arguments.of("dns trailing dash", DNS, "secret-", false),
        Arguments.of("dns underscore", DNS, "my_secret", false),
        Arguments.of("dns too long", DNS, "a".repeat(254), false),
        Arguments.of("qualified simple", QUALIFIED, "owner", true),
        Arguments.of("qualified with prefix", QUALIFIED, "example.com/owner", true),
        Arguments.of("qualified empty prefix", QUALIFIED, "/owner", false),
        Arguments.of("qualified empty name", QUALIFIED, "example.com/", false),
        Arguments.of("qualified two slashes", QUALIFIED, "a/b/c", false),
        Arguments.of("qualified bad prefix", QUALIFIED, "Example_com/owner", false),
        Arguments.of("qualified name too long", QUALIFIED, "n".repeat(64), false),
        Arguments.of("qualified name ends with dash", QUALIFIED, "owner-", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rule(String name, Function<String, List<String>> rule, String value, boolean accepted) {
    List<String> problems = rule.apply(value);
    assertEquals(accepted, problems.isEmpty(), problems::toString);
  }
}
