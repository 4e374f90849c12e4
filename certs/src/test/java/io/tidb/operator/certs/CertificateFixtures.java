package io.tidb.operator.certs;

import java.time.Duration;
import java.time.Instant;

/** The instant, policy and names the certificate tests issue and judge with. */
final class CertificateFixtures {

  static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

  /** A CA for 100 days, rotated 20 days early; serving certificates for 30 days, renewed 5 days early. */
  static final RenewalPolicy POLICY =
      new RenewalPolicy(
          Duration.ofDays(100), Duration.ofDays(20), Duration.ofDays(30), Duration.ofDays(5),
          KeyAlgorithm.EC_P256);

  static final ServingNames NAMES = ServingNames.forService("wh", "ns");

  private CertificateFixtures() {}
}
