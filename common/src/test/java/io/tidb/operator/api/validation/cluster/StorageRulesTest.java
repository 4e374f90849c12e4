package io.tidb.operator.api.validation.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Quantities as Kubernetes' parser takes them (apimachinery's {@code ParseQuantity}). */
class StorageRulesTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
      "4Gi, true", "500m, true", "100G, true", "1, true", "+1, true", "-1, true", ".5, true",
      "5., true", "1.5Ti, true", "1E3, true", "1e-3, true", "1.e+3, true", "+.5Ki, true",
      "5.E, true", "0, true",
      "'', false", "lots, false", "1Gb, false", "1.5.5, false", "Gi, false", "1 Gi, false",
      "1e, false", "1e.5, false", "1e+.5, false", "--1, false", "1ki, false", "1e3Gi, false"})
  void aQuantityIsWhatTheApiServerCanRead(String text, boolean quantity) {
    assertEquals(quantity, StorageRules.isQuantity(text));
  }

  /** The grammar as a regular expression, the form it was checked in before: the oracle here. */
  private static final Pattern GRAMMAR = Pattern.compile(
      "^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\\d+)?$");

  @Test
  void theReaderAgreesWithTheGrammarOnEveryShortString() {
    String alphabet = "01.+-eEKMGTPnumki x";
    int checked = 0;
    StringBuilder text = new StringBuilder();
    int[] at = new int[5];
    for (int length = 0; length <= at.length; length++) {
      java.util.Arrays.fill(at, 0);
      while (true) {
        text.setLength(0);
        for (int i = 0; i < length; i++) {
          text.append(alphabet.charAt(at[i]));
        }
        String candidate = text.toString();
        assertEquals(GRAMMAR.matcher(candidate).matches(), StorageRules.isQuantity(candidate),
            "\"" + candidate + "\"");
        checked++;
        int i = length - 1;
        while (i >= 0 && ++at[i] == alphabet.length()) {
          at[i--] = 0;
        }
        if (i < 0) {
          break;
        }
      }
    }
    assertEquals(2_613_660, checked);
  }
}
