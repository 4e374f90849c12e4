package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MountedCopyVerdictTest {

  private static final Instant T0 = CertificateFixtures.T0;
  private static final RenewalPolicy POLICY = CertificateFixtures.POLICY;
  private static final ServingNames NAMES = CertificateFixtures.NAMES;

  private final ServingCertificate copy =
      new CertificateRenewer(new CertificateIssuer(), "test-ca")
          .apply(RenewalAction.CREATE, Optional.empty(), NAMES, T0, POLICY)
          .serving();

  @Test
  void aCopyAPassWouldKeepIsServed() {
    assertEquals(
        new MountedCopyVerdict(true, "serving certificate valid until 2026-03-31T00:00:00Z"),
        MountedCopyVerdict.judge(copy, NAMES, T0, POLICY));
    // The last instant before its renewal window (expiry 30 days, window 5 days).
    assertEquals(
        true,
        MountedCopyVerdict.judge(copy, NAMES, T0.plus(Duration.ofDays(25)).minusMillis(1), POLICY)
            .usable());
  }

  @Test
  void aCopyInsideItsRenewalWindowIsNot() {
    assertEquals(
        new MountedCopyVerdict(
            false, "serving certificate expires at 2026-03-31T00:00:00Z, within PT120H"),
        MountedCopyVerdict.judge(copy, NAMES, T0.plus(Duration.ofDays(25)), POLICY));
    assertEquals(
        false, MountedCopyVerdict.judge(copy, NAMES, T0.plus(Duration.ofDays(31)), POLICY).usable());
  }

  @Test
  void aCopyForOtherNamesIsNot() {
    MountedCopyVerdict verdict =
        MountedCopyVerdict.judge(copy, ServingNames.forService("other", "ns"), T0, POLICY);
    assertEquals(false, verdict.usable());
    assertEquals(
        "serving certificate names [DNS:localhost, DNS:wh, DNS:wh.ns, DNS:wh.ns.svc, "
            + "DNS:wh.ns.svc.cluster.local, IP:127.0.0.1] differ from wanted [DNS:localhost, "
            + "DNS:other, DNS:other.ns, DNS:other.ns.svc, DNS:other.ns.svc.cluster.local, "
            + "IP:127.0.0.1]",
        verdict.reason());
  }

  @Test
  void aCopyNotYetValidIsNot() {
    // Issued with notBefore five minutes before T0, against clock skew.
    assertEquals(
        new MountedCopyVerdict(false, "serving certificate not valid before 2026-02-28T23:55:00Z"),
        MountedCopyVerdict.judge(copy, NAMES, T0.minus(Duration.ofMinutes(6)), POLICY));
  }
}
