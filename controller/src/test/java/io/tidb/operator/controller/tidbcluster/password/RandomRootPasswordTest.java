package io.tidb.operator.controller.tidbcluster.password;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomRootPasswordTest {

  @Test
  void everyPasswordFollowsUpstreamsPolicy() {
    Random random = new Random(42);
    for (int n = 0; n < 5000; n++) {
      String p = RandomRootPassword.generate(random);
      assertEquals(13, p.length(), p);
      assertEquals(4, count(p, RandomRootPassword.DIGIT_CHARS), "digits in " + p);
      assertEquals(3, count(p, RandomRootPassword.SYMBOL_CHARS), "symbols in " + p);
      assertEquals(6, count(p, RandomRootPassword.LETTERS), "letters in " + p);
      assertEquals(13, p.chars().distinct().count(), "no character twice in " + p);
      assertFalse(p.contains("\\") || p.contains("'") || p.contains("\""), p);
    }
  }

  @Test
  void passwordsDifferAndCharactersMoveAround() {
    Set<String> seen = new HashSet<>();
    Set<Character> firstChars = new HashSet<>();
    for (int n = 0; n < 200; n++) {
      String p = RandomRootPassword.generate();
      assertTrue(seen.add(p), "a password came twice: generation is not random");
      firstChars.add(p.charAt(0));
    }
    assertTrue(firstChars.stream().anyMatch(Character::isDigit), "digits are shuffled into the front too");
    assertTrue(firstChars.stream().anyMatch(Character::isLetter));
  }

  @Test
  void theSecureSourceIsUsedByDefault() {
    assertNotEquals(RandomRootPassword.generate(), RandomRootPassword.generate());
  }

  private static long count(String p, String chars) {
    return p.chars().filter(c -> chars.indexOf(c) >= 0).count();
  }
}
