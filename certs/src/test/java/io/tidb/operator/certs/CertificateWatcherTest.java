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
