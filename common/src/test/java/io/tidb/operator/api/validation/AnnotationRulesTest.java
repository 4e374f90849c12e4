package io.tidb.operator.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnnotationRulesTest {

  private static List<String> check(Map<String, String> annotations) {
    List<Violation> out = new ArrayList<>();
    AnnotationRules.validate("metadata.annotations", annotations, out);
    return out.stream().map(Violation::message).toList();
  }

  @Test
  void qualifiedKeysInAnyCaseAreAccepted() {
    assertEquals(List.of(), check(Map.of("Example.COM/Owner", "x", "note", "")));
  }

  @Test
  void aKeyThatIsNotAQualifiedNameIsReported() {
    assertEquals(List.of("metadata.annotations: Invalid value: \"a b\": annotation key name part must consist of "
            + "letters, digits, '-', '_' or '.' and must start and end with a letter or digit, e.g. MyName or my.name"),
        check(Map.of("a b", "x")));
  }

  @Test
  void totalSizeIsLimitedTo256KiB() {
    assertEquals(List.of(), check(Map.of("k", "v".repeat(AnnotationRules.TOTAL_SIZE_LIMIT - 1))));
    assertEquals(List.of("metadata.annotations: Invalid value: \"262145 bytes\": keys and values together must have "
            + "at most 262144 bytes"),
        check(Map.of("k", "v".repeat(AnnotationRules.TOTAL_SIZE_LIMIT))));
  }

  @Test
  void sizeCountsUtf8Bytes() {
    // 'é' is two bytes in UTF-8
    assertEquals(1, check(Map.of("k", "é".repeat(AnnotationRules.TOTAL_SIZE_LIMIT / 2))).size());
  }
}
