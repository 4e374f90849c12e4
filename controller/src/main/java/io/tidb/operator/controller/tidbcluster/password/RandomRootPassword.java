package io.tidb.operator.controller.tidbcluster.password;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The root password {@code spec.tidb.initializer.createPassword} generates, with upstream's policy:
 * 13 characters, of which 4 digits and 3 symbols, the rest upper- and lower-case letters, no
 * character twice, never a backslash, in random order.
 */
public final class RandomRootPassword {

  public static final int LENGTH = 13;
  public static final int DIGITS = LENGTH / 3;
  public static final int SYMBOLS = LENGTH / 4;

  static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  static final String DIGIT_CHARS = "0123456789";
  /** Upstream's symbol set without the backslash (and without quotes). */
  static final String SYMBOL_CHARS = "~!@#$%^&*()_+`-={}|[]:<>?,./";

  private static final SecureRandom SECURE = new SecureRandom();

  private RandomRootPassword() {}

  /** A new password from a {@link SecureRandom}. */
  public static String generate() {
    return generate(SECURE);
  }

  /** A new password drawn from {@code random} (tests pass a seeded one). */
  static String generate(RandomGenerator random) {
    List<Character> chars = new ArrayList<>(LENGTH);
    pick(DIGIT_CHARS, DIGITS, random, chars);
    pick(SYMBOL_CHARS, SYMBOLS, random, chars);
    pick(LETTERS, LENGTH - DIGITS - SYMBOLS, random, chars);
    for (int i = chars.size() - 1; i > 0; i--) {
      Collections.swap(chars, i, random.nextInt(i + 1));
    }
    StringBuilder sb = new StringBuilder(LENGTH);
    chars.forEach(sb::append);
    return sb.toString();
  }

  /** {@code n} distinct characters of {@code from}. */
  private static void pick(String from, int n, RandomGenerator random, List<Character> into) {
    List<Character> pool = new ArrayList<>(from.length());
    for (char c : from.toCharArray()) {
      pool.add(c);
    }
    for (int i = 0; i < n; i++) {
      into.add(pool.remove(random.nextInt(pool.size())));
    }
  }
}
