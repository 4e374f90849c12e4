package io.tidb.operator.certs;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;

/** Checks on key pairs. */
public final class KeyPairs {

  private KeyPairs() {}

  /** Whether {@code privateKey} belongs to {@code publicKey}: a signature made by one verifies. */
  public static boolean matches(PublicKey publicKey, PrivateKey privateKey) {
    if (!publicKey.getAlgorithm().equals(privateKey.getAlgorithm())) {
      return false;
    }
    try {
      String algorithm = KeyAlgorithm.of(privateKey).signatureAlgorithm();
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(privateKey);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }
}
