package io.tidb.operator.certs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A serving certificate mounted as files, e.g. a cert-manager Secret volume with {@code tls.crt}
 * and {@code tls.key}. Every {@link #get()} reads both files again (through the {@code ..data}
 * symlink that Kubernetes swaps atomically on update) and parses them only when the bytes
 * changed. A certificate whose key does not match, as seen mid-way through a non-atomic copy, is
 * refused, so the caller keeps using the previous pair.
 */
public final class MountedCertificateFiles implements Supplier<ServingCertificate> {

  private final Path certificateFile;
  private final Path keyFile;
  private byte[] lastCertificateBytes;
  private byte[] lastKeyBytes;
  private ServingCertificate last;

  public MountedCertificateFiles(Path certificateFile, Path keyFile) {
    this.certificateFile = certificateFile;
    this.keyFile = keyFile;
  }

  /** Files {@code tls.crt} and {@code tls.key} in {@code directory}. */
  public static MountedCertificateFiles inDirectory(Path directory) {
    return new MountedCertificateFiles(
        directory.resolve(CertificateSecretData.TLS_CRT),
        directory.resolve(CertificateSecretData.TLS_KEY));
  }

  /**
   * The certificate in the files now.
   *
   * @throws UncheckedIOException when a file cannot be read
   * @throws IllegalArgumentException when the files are not a matching certificate and key
   */
  @Override
  public synchronized ServingCertificate get() {
    byte[] certificateBytes = read(certificateFile);
    byte[] keyBytes = read(keyFile);
    if (last != null
        && Arrays.equals(certificateBytes, lastCertificateBytes)
        && Arrays.equals(keyBytes, lastKeyBytes)) {
      return last;
    }
    ServingCertificate parsed =
        new ServingCertificate(
            Pem.decodeCertificate(new String(certificateBytes, StandardCharsets.UTF_8)),
            Pem.decodePrivateKey(new String(keyBytes, StandardCharsets.UTF_8)));
    if (!KeyPairs.matches(parsed.certificate().getPublicKey(), parsed.privateKey())) {
      throw new IllegalArgumentException(
          keyFile + " does not hold the private key of the certificate in " + certificateFile);
    }
    lastCertificateBytes = certificateBytes;
    lastKeyBytes = keyBytes;
    last = parsed;
    return parsed;
  }

  /** For logs: the certificate file path. */
  @Override
  public String toString() {
    return "files=" + certificateFile + "," + keyFile;
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
