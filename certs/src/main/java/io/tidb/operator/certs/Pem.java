package io.tidb.operator.certs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.util.io.pem.PemObject;

/** PEM text for certificates and private keys (PKCS#8 out; PKCS#8, PKCS#1 and SEC1 in). */
public final class Pem {

  private Pem() {}

  /** One or more certificates as concatenated {@code CERTIFICATE} blocks. */
  public static String encodeCertificates(List<X509Certificate> certificates) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      for (X509Certificate certificate : certificates) {
        writer.writeObject(certificate);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot PEM-encode certificate", e);
    }
    return out.toString();
  }

  public static String encodeCertificate(X509Certificate certificate) {
    return encodeCertificates(List.of(certificate));
  }

  /** A private key as one PKCS#8 {@code PRIVATE KEY} block. */
  public static String encodePrivateKey(PrivateKey key) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(new PemObject("PRIVATE KEY", key.getEncoded()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot PEM-encode private key", e);
    }
    return out.toString();
  }

  /**
   * Every {@code CERTIFICATE} block in {@code pem}, in order.
   *
   * @throws PemException when there is none, or a block is not a certificate
   */
  public static List<X509Certificate> decodeCertificates(String pem) {
    List<X509Certificate> plain = onlyBlocksOf(pem, CERTIFICATE) ? jdkCertificates(pem) : null;
    if (plain != null) {
      return plain;
    }
    List<X509Certificate> certificates = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      Object object;
      while ((object = parser.readObject()) != null) {
        if (!(object instanceof X509CertificateHolder holder)) {
          throw new PemException(
              "expected CERTIFICATE blocks, found " + object.getClass().getSimpleName());
        }
        certificates.add(
            (X509Certificate)
                factory.generateCertificate(new ByteArrayInputStream(holder.getEncoded())));
      }
    } catch (IOException | CertificateException e) {
      throw new PemException("malformed certificate PEM: " + e.getMessage(), e);
    }
    if (certificates.isEmpty()) {
      throw new PemException("no CERTIFICATE block found");
    }
    return certificates;
  }

  /** The first certificate in {@code pem}. */
  public static X509Certificate decodeCertificate(String pem) {
    return decodeCertificates(pem).get(0);
  }

  /**
   * The private key in {@code pem}: {@code PRIVATE KEY} (PKCS#8), {@code RSA PRIVATE KEY} or
   * {@code EC PRIVATE KEY}.
   *
   * @throws PemException when there is no unencrypted private key
   */
  public static PrivateKey decodePrivateKey(String pem) {
    PrivateKey plain = onlyBlocksOf(pem, PKCS8_KEY) && count(pem, "-----BEGIN ") == 1 ? jdkPkcs8(pem) : null;
    if (plain != null) {
      return plain;
    }
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      Object object;
      while ((object = parser.readObject()) != null) {
        if (object instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
        if (object instanceof PEMKeyPair pair) {
          // SEC1 keys may omit the public part; the private key info is always there.
          return converter.getPrivateKey(pair.getPrivateKeyInfo());
        }
      }
    } catch (IOException e) {
      throw new PemException("malformed private key PEM: " + e.getMessage(), e);
    }
    throw new PemException(
        "no unencrypted PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block found");
  }

  /*
   * The common case, PEM text of CERTIFICATE blocks only or of one PKCS#8 PRIVATE KEY block (what
   * this operator writes, and what cert-manager writes for certificates), is read by the JDK alone:
   * Bouncy Castle's parser costs a cold process (the webhook's start, which reads its certificate
   * before it serves) about 80 ms more. Anything else, and anything the JDK refuses, goes to Bouncy
   * Castle as before, which also words the errors.
   */

  private static final String CERTIFICATE = "CERTIFICATE";
  private static final String PKCS8_KEY = "PRIVATE KEY";

  /** Whether {@code pem}, blank lines around it aside, is one or more blocks of {@code type}. */
  private static boolean onlyBlocksOf(String pem, String type) {
    String text = pem.strip();
    return text.startsWith("-----BEGIN " + type + "-----")
        && text.endsWith("-----END " + type + "-----")
        && count(text, "-----BEGIN ") == count(text, "-----BEGIN " + type + "-----")
        && count(text, "-----END ") == count(text, "-----BEGIN ");
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + what.length())) {
      n++;
    }
    return n;
  }

  /** The certificates as the JDK reads them, or null when it reads a different number or none. */
  private static List<X509Certificate> jdkCertificates(String pem) {
    try {
      List<X509Certificate> certificates = new ArrayList<>();
      for (java.security.cert.Certificate c : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        certificates.add((X509Certificate) c);
      }
      return certificates.size() == count(pem, "-----BEGIN ") ? certificates : null;
    } catch (CertificateException e) {
      return null;
    }
  }

  /** The PKCS#8 key as the JDK reads it (EC, then RSA), or null when it cannot. */
  private static PrivateKey jdkPkcs8(String pem) {
    String text = pem.strip();
    String body = text.substring(
        ("-----BEGIN " + PKCS8_KEY + "-----").length(),
        text.length() - ("-----END " + PKCS8_KEY + "-----").length());
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      return null;
    }
    for (String algorithm : List.of("EC", "RSA")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm's key: try the next, then Bouncy Castle
      }
    }
    return null;
  }

  /** The PEM text could not be read as what was asked for. */
  public static final class PemException extends IllegalArgumentException {
    public PemException(String message) {
      super(message);
    }

    public PemException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
