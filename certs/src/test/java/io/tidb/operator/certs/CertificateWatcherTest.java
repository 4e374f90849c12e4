package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateWatcherTest {

  private static final Instant NOW = Instant.now();
  private final CertificateIssuer issuer = new CertificateIssuer();
  private final CertificateAuthority ca =
      issuer.newAuthority("ca", NOW, Duration.ofDays(2), KeyAlgorithm.EC_P256);

  @TempDir Path dir;

  @Test
  void reportsEachNewCertificateOnceAndSurvivesBrokenFiles() throws Exception {
    MountedCertificateFilesTest.SecretVolume volume = new MountedCertificateFilesTest.SecretVolume(dir);
    ServingCertificate first = issue();
    volume.publish(first);
    BlockingQueue<ServingCertificate> changes = new LinkedBlockingQueue<>();

    try (CertificateWatcher watcher =
        new CertificateWatcher("test", MountedCertificateFiles.inDirectory(dir), Duration.ofMillis(20))) {
      assertTrue(watcher.load().sameAs(first));
      watcher.watch(changes::add);

      // A half-written update: the key no longer matches; the watcher keeps the old pair.
      Files.delete(dir.resolve("tls.key"));
      Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(issue().privateKey()));
      assertEquals(null, changes.poll(200, TimeUnit.MILLISECONDS));
      assertTrue(watcher.current().sameAs(first));

      Files.delete(dir.resolve("tls.key"));
      Files.createSymbolicLink(dir.resolve("tls.key"), Path.of("..data", "tls.key"));
      ServingCertificate second = issue();
      volume.publish(second);

      ServingCertificate changed = changes.poll(5, TimeUnit.SECONDS);
      assertTrue(changed != null && changed.sameAs(second), "new certificate reported");
      assertEquals(null, changes.poll(200, TimeUnit.MILLISECONDS), "reported only once");
      assertTrue(watcher.current().sameAs(second));
    }
  }

  @Test
  void startedFromACopyItChecksTheSourceAtOnceAndReportsWhatDiffers() throws Exception {
    ServingCertificate copy = issue();
    ServingCertificate stored = issue();
    BlockingQueue<String> loads = new LinkedBlockingQueue<>();
    BlockingQueue<ServingCertificate> changes = new LinkedBlockingQueue<>();

    // A period far longer than the test: only the check at once can report the change.
    try (CertificateWatcher watcher = new CertificateWatcher("test", () -> {
      loads.add("load");
      return stored;
    }, Duration.ofHours(1))) {
      assertSame(copy, watcher.startFrom(copy, "files=/mounted"));
      assertEquals(null, loads.poll(100, TimeUnit.MILLISECONDS), "the source is not read by startFrom");
      assertSame(copy, watcher.current());

      watcher.watch(changes::add);

      assertSame(stored, changes.poll(5, TimeUnit.SECONDS));
      assertEquals("load", loads.poll());
      // The watcher records the certificate once the listener took it.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (watcher.current() != stored && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertSame(stored, watcher.current());
    }
  }

  @Test
  void loadedFromTheSourceItChecksAgainOnlyAfterAPeriod() throws Exception {
    BlockingQueue<String> loads = new LinkedBlockingQueue<>();
    ServingCertificate certificate = issue();
    try (CertificateWatcher watcher = new CertificateWatcher("test", () -> {
      loads.add("load");
      return certificate;
    }, Duration.ofHours(1))) {
      watcher.load();
      watcher.watch(c -> {});
      assertEquals("load", loads.poll());
      assertEquals(null, loads.poll(200, TimeUnit.MILLISECONDS));
    }
  }

  @Test
  void afterAFailedLoadTheNextComesWithinSecondsNotAPeriodLater() throws Exception {
    ServingCertificate copy = issue();
    ServingCertificate stored = issue();
    AtomicInteger loads = new AtomicInteger();
    BlockingQueue<ServingCertificate> changes = new LinkedBlockingQueue<>();

    try (CertificateWatcher watcher = new CertificateWatcher("test", () -> {
      if (loads.incrementAndGet() <= 2) {
        throw new IllegalStateException("API server unreachable");
      }
      return stored;
    }, Duration.ofHours(1))) {
      watcher.startFrom(copy, "files=/mounted");
      watcher.watch(changes::add);

      // Tries at once, after 1 s and after 2 s more.
      assertSame(stored, changes.poll(10, TimeUnit.SECONDS));
      assertEquals(3, loads.get());
    }
  }

  @Test
  void retriesStartAtASecondAndDoubleUpToThePeriod() {
    Duration period = Duration.ofSeconds(60);
    assertEquals(period, CertificateWatcher.nextCheck(0, period));
    assertEquals(Duration.ofSeconds(1), CertificateWatcher.nextCheck(1, period));
    assertEquals(Duration.ofSeconds(2), CertificateWatcher.nextCheck(2, period));
    assertEquals(Duration.ofSeconds(32), CertificateWatcher.nextCheck(6, period));
    assertEquals(period, CertificateWatcher.nextCheck(7, period));
    assertEquals(period, CertificateWatcher.nextCheck(1000, period));
    assertEquals(Duration.ofMillis(20), CertificateWatcher.nextCheck(1, Duration.ofMillis(20)));
  }

  @Test
  void aFailingFirstLoadPropagates() {
    AtomicReference<ServingCertificate> seen = new AtomicReference<>();
    try (CertificateWatcher watcher =
        new CertificateWatcher("test", MountedCertificateFiles.inDirectory(dir), Duration.ofSeconds(1))) {
      assertThrows(RuntimeException.class, watcher::load);
      assertThrows(IllegalStateException.class, () -> watcher.watch(seen::set));
    }
    assertSame(null, seen.get());
  }

  private ServingCertificate issue() {
    return issuer.issueServing(
        ca, ServingNames.forService("wh", "ns"), NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
  }
}
