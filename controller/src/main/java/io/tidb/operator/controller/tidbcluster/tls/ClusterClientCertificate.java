package io.tidb.operator.controller.tidbcluster.tls;

import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.Pem;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator's client certificate for one TLS cluster, decoded from the Secret {@code
 * <tc>-cluster-client-secret} (upstream's layout: {@code ca.crt}, {@code tls.crt}, {@code
 * tls.key}).
 *
 * @param fingerprint SHA-256 of the three keys' bytes: a changed Secret has a new fingerprint
 */
public record ClusterClientCertificate(
    List<X509Certificate> ca, List<X509Certificate> chain, PrivateKey key, String fingerprint) {

  public static final String CA_CRT = "ca.crt";
  public static final String TLS_CRT = "tls.crt";
  public static final String TLS_KEY = "tls.key";

  public ClusterClientCertificate {
    ca = List.copyOf(ca);
    chain = List.copyOf(chain);
  }

  /** {@code <tc>-cluster-client-secret}, upstream's name. */
  public static String secretName(String cluster) {
    return cluster + "-cluster-client-secret";
  }

  /**
   * Decodes a Secret's {@code data} (base64 values, as the API returns them), checking that the
   * three keys are there, are PEM of the right kind, that the key belongs to the certificate and
   * that the certificate is valid at {@code now}.
   *
   * @return the certificate, or every problem found, each naming the Secret key
   */
  public static Decoded decode(String secret, Map<String, String> data, Instant now) {
    Map<String, String> text = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    for (String key : List.of(CA_CRT, TLS_CRT, TLS_KEY)) {
      String value = data == null ? null : data.get(key);
      if (value == null || value.isEmpty()) {
        problems.add("Secret " + secret + " has no key " + key);
        continue;
      }
      try {
        text.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        problems.add("Secret " + secret + " key " + key + " is not base64");
      }
    }
    List<X509Certificate> ca = certificates(secret, CA_CRT, text.get(CA_CRT), problems);
    List<X509Certificate> chain = certificates(secret, TLS_CRT, text.get(TLS_CRT), problems);
    PrivateKey key = null;
    if (text.containsKey(TLS_KEY)) {
      try {
        key = Pem.decodePrivateKey(text.get(TLS_KEY));
      } catch (Pem.PemException e) {
        problems.add("Secret " + secret + " key " + TLS_KEY + " is not a PEM private key: "
            + e.getMessage());
      }
    }
    if (!chain.isEmpty()) {
      X509Certificate leaf = chain.get(0);
      if (now.isAfter(leaf.getNotAfter().toInstant())) {
        problems.add("Secret " + secret + " key " + TLS_CRT + ": the certificate "
            + leaf.getSubjectX500Principal().getName() + " expired at "
            + leaf.getNotAfter().toInstant());
      }
      if (key != null && !belongsTo(key, leaf)) {
        problems.add("Secret " + secret + " key " + TLS_KEY + " is not the private key of the "
            + "certificate in " + TLS_CRT + " (" + leaf.getSubjectX500Principal().getName() + ")");
      }
    }
    if (!problems.isEmpty()) {
      return new Decoded(null, problems);
    }
    return new Decoded(new ClusterClientCertificate(ca, chain, key, fingerprint(text)), List.of());
  }

  /** A decoded certificate, or the problems that prevented it. */
  public record Decoded(ClusterClientCertificate certificate, List<String> problems) {
    public Decoded {
      problems = List.copyOf(problems);
    }

    public boolean valid() {
      return certificate != null;
    }
  }

  private static List<X509Certificate> certificates(
      String secret, String key, String pem, List<String> problems) {
    if (pem == null) {
      return List.of();
    }
    try {
      return Pem.decodeCertificates(pem);
    } catch (Pem.PemException e) {
      problems.add("Secret " + secret + " key " + key + " is not PEM certificates: "
          + e.getMessage());
      return List.of();
    }
  }

  /** Whether a signature made with {@code key} verifies with the certificate's public key. */
  static boolean belongsTo(PrivateKey key, X509Certificate certificate) {
    byte[] probe = "tidb-operator key check".getBytes(StandardCharsets.UTF_8);
    try {
      String algorithm = KeyAlgorithm.of(key).signatureAlgorithm();
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  private static String fingerprint(Map<String, String> text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Map.Entry<String, String> e : text.entrySet()) {
        digest.update(e.getKey().getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        digest.update(e.getValue().getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
