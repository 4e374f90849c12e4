package io.tidb.operator.certs;

import java.time.Duration;
import java.util.Objects;

/**
 * How long certificates live and how early they are replaced.
 *
 * @param caValidity lifetime of a new CA
 * @param caRenewBefore a CA closer than this to expiry is rotated
 * @param servingValidity lifetime of a new serving certificate (capped at the CA's expiry)
 * @param servingRenewBefore a serving certificate closer than this to expiry is renewed
 * @param keyAlgorithm key type for new keys
 */
public record RenewalPolicy(
    Duration caValidity,
    Duration caRenewBefore,
    Duration servingValidity,
    Duration servingRenewBefore,
    KeyAlgorithm keyAlgorithm) {

  /** CA for 10 years, rotated 1 year early; serving certificates for 1 year, renewed 30 days early. */
  public static final RenewalPolicy DEFAULT =
      new RenewalPolicy(
          Duration.ofDays(3650),
          Duration.ofDays(365),
          Duration.ofDays(365),
          Duration.ofDays(30),
          KeyAlgorithm.EC_P256);

  public RenewalPolicy {
    Objects.requireNonNull(keyAlgorithm, "keyAlgorithm");
    requirePositive("caRenewBefore", caRenewBefore);
    requirePositive("servingRenewBefore", servingRenewBefore);
    requireLonger("caValidity", caValidity, "caRenewBefore", caRenewBefore);
    requireLonger("servingValidity", servingValidity, "servingRenewBefore", servingRenewBefore);
    // A serving certificate is cut short at the CA's expiry; the CA must be rotated before such a
    // certificate enters its own renewal window, or it would be renewed on every pass.
    if (caRenewBefore.compareTo(servingRenewBefore) < 0) {
      throw new IllegalArgumentException(
          "caRenewBefore " + caRenewBefore + " must be at least servingRenewBefore "
              + servingRenewBefore);
    }
  }

  private static void requirePositive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " " + value + " must be positive");
    }
  }

  private static void requireLonger(String name, Duration value, String otherName, Duration other) {
    Objects.requireNonNull(value, name);
    if (value.compareTo(other) <= 0) {
      throw new IllegalArgumentException(
          name + " " + value + " must be longer than " + otherName + " " + other);
    }
  }
}
