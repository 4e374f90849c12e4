package io.tidb.operator.certs;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

/** The key types the webhook certificates can use. */
public enum KeyAlgorithm {
  /** ECDSA on NIST P-256: small keys, fast handshakes; the default. */
  EC_P256("SHA256withECDSA"),
  /** RSA with a 2048-bit modulus, for clients that cannot do ECDSA. */
  RSA_2048("SHA256withRSA");

  private final String signatureAlgorithm;

  KeyAlgorithm(String signatureAlgorithm) {
    this.signatureAlgorithm = signatureAlgorithm;
  }

  /** The JCA signature algorithm used when a key of this type signs a certificate. */
  public String signatureAlgorithm() {
    return signatureAlgorithm;
  }

  /** A fresh key pair of this type. */
  public KeyPair generateKeyPair() {
    try {
      return switch (this) {
        case EC_P256 -> {
          KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
          generator.initialize(new ECGenParameterSpec("secp256r1"));
          yield generator.generateKeyPair();
        }
        case RSA_2048 -> {
          KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
          generator.initialize(2048);
          yield generator.generateKeyPair();
        }
      };
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot generate " + this + " keys", e);
    }
  }

  /** The type of an existing key, judged by its JCA algorithm name ("EC" or "RSA"). */
  public static KeyAlgorithm of(java.security.Key key) {
    return switch (key.getAlgorithm()) {
      case "EC", "ECDSA" -> EC_P256;
      case "RSA" -> RSA_2048;
      default ->
          throw new IllegalArgumentException(
              "unsupported key algorithm " + key.getAlgorithm() + "; supported: EC, RSA");
    };
  }
}
