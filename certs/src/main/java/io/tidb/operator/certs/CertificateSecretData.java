package io.tidb.operator.certs;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The layout of the certificate Secret's {@code data}: {@code tls.crt} (serving certificate),
 * {@code tls.key} (its key), {@code ca.crt} (trust bundle: current CA, then previous CAs) and
 * {@code ca.key} (the current CA's key, needed to renew the serving certificate). Values are
 * base64 of PEM text, as Kubernetes stores {@code data}.
 */
public final class CertificateSecretData {

  public static final String TLS_CRT = "tls.crt";
  public static final String TLS_KEY = "tls.key";
  public static final String CA_CRT = "ca.crt";
  public static final String CA_KEY = "ca.key";
  /** The Secret type; {@code kubernetes.io/tls} allows extra keys next to tls.crt/tls.key. */
  public static final String SECRET_TYPE = "kubernetes.io/tls";

  private CertificateSecretData() {}

  /** The Secret {@code data} map for {@code certificates}. */
  public static Map<String, String> encode(WebhookCertificates certificates) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(TLS_CRT, b64(Pem.encodeCertificate(certificates.serving().certificate())));
    data.put(TLS_KEY, b64(Pem.encodePrivateKey(certificates.serving().privateKey())));
    data.put(CA_CRT, b64(certificates.caBundlePem()));
    data.put(CA_KEY, b64(Pem.encodePrivateKey(certificates.ca().privateKey())));
    return data;
  }

  /**
   * Reads certificates back from a Secret's {@code data}. The current CA is the bundle entry whose
   * public key matches {@code ca.key}; the others are previous CAs.
   *
   * @throws InvalidSecretDataException naming the key that is missing or unreadable
   */
  public static WebhookCertificates decode(Map<String, String> data) {
    if (data == null) {
      throw new InvalidSecretDataException("secret has no data");
    }
    X509Certificate leaf = certificates(data, TLS_CRT).get(0);
    PrivateKey leafKey = key(data, TLS_KEY);
    List<X509Certificate> bundle = certificates(data, CA_CRT);
    PrivateKey caKey = key(data, CA_KEY);
    X509Certificate current = null;
    List<X509Certificate> previous = new ArrayList<>();
    for (X509Certificate candidate : bundle) {
      if (current == null && KeyPairs.matches(candidate.getPublicKey(), caKey)) {
        current = candidate;
      } else {
        previous.add(candidate);
      }
    }
    if (current == null) {
      throw new InvalidSecretDataException(
          CA_KEY + " does not belong to any of the " + bundle.size() + " certificates in " + CA_CRT);
    }
    return new WebhookCertificates(
        new CertificateAuthority(current, caKey), previous, new ServingCertificate(leaf, leafKey));
  }

  private static List<X509Certificate> certificates(Map<String, String> data, String name) {
    try {
      return Pem.decodeCertificates(text(data, name));
    } catch (Pem.PemException e) {
      throw new InvalidSecretDataException(name + ": " + e.getMessage());
    }
  }

  private static PrivateKey key(Map<String, String> data, String name) {
    try {
      return Pem.decodePrivateKey(text(data, name));
    } catch (Pem.PemException e) {
      throw new InvalidSecretDataException(name + ": " + e.getMessage());
    }
  }

  private static String text(Map<String, String> data, String name) {
    String value = data.get(name);
    if (value == null || value.isEmpty()) {
      throw new InvalidSecretDataException("key " + name + " is missing");
    }
    try {
      return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new InvalidSecretDataException("key " + name + " is not base64: " + e.getMessage());
    }
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The Secret exists but does not hold usable certificates. */
  public static final class InvalidSecretDataException extends IllegalArgumentException {
    public InvalidSecretDataException(String message) {
      super(message);
    }
  }
}
