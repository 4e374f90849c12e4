package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MountedCertificateFilesTest {

  private static final Instant NOW = Instant.now();
  private final CertificateIssuer issuer = new CertificateIssuer();
  private final CertificateAuthority ca =
      issuer.newAuthority("ca", NOW, Duration.ofDays(2), KeyAlgorithm.EC_P256);

  @TempDir Path dir;

  @Test
  void readsAKubeletStyleMountAndFollowsTheDataSymlinkSwap() throws Exception {
    ServingCertificate first = issue();
    SecretVolume volume = new SecretVolume(dir);
    volume.publish(first);
    MountedCertificateFiles files = MountedCertificateFiles.inDirectory(dir);

    ServingCertificate loaded = files.get();
    assertTrue(loaded.sameAs(first));
    assertSame(loaded, files.get(), "unchanged bytes are not parsed again");

    ServingCertificate second = issue();
    volume.publish(second);

    assertTrue(files.get().sameAs(second));
  }

  @Test
  void aCertificateWithTheWrongKeyIsRefused() throws Exception {
    ServingCertificate a = issue();
    ServingCertificate b = issue();
    Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(a.certificate()));
    Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(b.privateKey()));

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MountedCertificateFiles.inDirectory(dir).get());
    assertEquals(
        dir.resolve("tls.key") + " does not hold the private key of the certificate in " + dir.resolve("tls.crt"),
        e.getMessage());
  }

  @Test
  void missingFilesAreReported() {
    UncheckedIOException e =
        assertThrows(UncheckedIOException.class, () -> MountedCertificateFiles.inDirectory(dir).get());
    assertEquals("cannot read " + dir.resolve("tls.crt"), e.getMessage());
  }

  private ServingCertificate issue() {
    return issuer.issueServing(
        ca, ServingNames.forService("wh", "ns"), NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
  }

  /**
   * Writes files the way the kubelet's atomic writer does: a timestamped directory, a {@code
   * ..data} symlink swapped by rename, and top-level symlinks through {@code ..data}.
   */
  static final class SecretVolume {
    private final Path root;
    private int generation;

    SecretVolume(Path root) {
      this.root = root;
    }

    void publish(ServingCertificate cert) throws Exception {
      Path payload = root.resolve("..gen_" + (++generation));
      Files.createDirectory(payload);
      Files.writeString(payload.resolve("tls.crt"), Pem.encodeCertificate(cert.certificate()));
      Files.writeString(payload.resolve("tls.key"), Pem.encodePrivateKey(cert.privateKey()));
      Path tmpLink = root.resolve("..data_tmp");
      Files.createSymbolicLink(tmpLink, payload.getFileName());
      Files.move(tmpLink, root.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      for (String name : new String[] {"tls.crt", "tls.key"}) {
        Path link = root.resolve(name);
        if (!Files.isSymbolicLink(link)) {
          Files.createSymbolicLink(link, Path.of("..data", name));
        }
      }
    }
  }
}
