package io.tidb.operator.certs;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates CA and serving certificates with Bouncy Castle. Certificates start {@link
 * #CLOCK_SKEW_ALLOWANCE} before the given instant, so a peer whose clock runs a little behind
 * still accepts them; a serving certificate never outlives the CA that signed it.
 */
public final class CertificateIssuer {

  /** How far back {@code notBefore} is set, to tolerate clock differences between nodes. */
  public static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofMinutes(5);

  private static final String ORGANIZATION = "tidb-operator";

  private final SecureRandom random = new SecureRandom();

  /** A new self-signed CA valid from {@code now} for {@code validity}. */
  public CertificateAuthority newAuthority(
      String commonName, Instant now, Duration validity, KeyAlgorithm algorithm) {
    KeyPair keys = algorithm.generateKeyPair();
    X500Name subject = name(commonName);
    Instant notAfter = now.plus(validity);
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
                  subject,
                  serial(),
                  Date.from(now.minus(CLOCK_SKEW_ALLOWANCE)),
                  Date.from(notAfter),
                  subject,
                  keys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  ext.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(sign(builder, keys.getPrivate()), keys.getPrivate());
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("could not create CA certificate " + commonName, e);
    }
  }

  /**
   * A serving certificate for {@code names}, signed by {@code ca}, valid from {@code now} for
   * {@code validity} or until the CA expires, whichever comes first.
   */
  public ServingCertificate issueServing(
      CertificateAuthority ca,
      ServingNames names,
      Instant now,
      Duration validity,
      KeyAlgorithm algorithm) {
    return issue(ca, names, now, validity, algorithm, KeyPurposeId.id_kp_serverAuth);
  }

  /**
   * A certificate for a TLS peer that both serves and connects with mutual TLS (a cluster
   * component, or a client such as the operator: upstream's cluster certificates carry both
   * "server auth" and "client auth"), for {@code names}, signed by {@code ca}; validity as
   * {@link #issueServing}.
   */
  public ServingCertificate issuePeer(
      CertificateAuthority ca,
      ServingNames names,
      Instant now,
      Duration validity,
      KeyAlgorithm algorithm) {
    return issue(ca, names, now, validity, algorithm,
        KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth);
  }

  private ServingCertificate issue(
      CertificateAuthority ca,
      ServingNames names,
      Instant now,
      Duration validity,
      KeyAlgorithm algorithm,
      KeyPurposeId... purposes) {
    KeyPair keys = algorithm.generateKeyPair();
    Instant caNotAfter = ca.certificate().getNotAfter().toInstant();
    Instant notAfter = now.plus(validity).isAfter(caNotAfter) ? caNotAfter : now.plus(validity);
    int usage = KeyUsage.digitalSignature;
    if (algorithm == KeyAlgorithm.RSA_2048) {
      usage |= KeyUsage.keyEncipherment;
    }
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
                  ca.certificate(),
                  serial(),
                  Date.from(now.minus(CLOCK_SKEW_ALLOWANCE)),
                  Date.from(notAfter),
                  name(names.commonName()),
                  keys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.keyUsage, true, new KeyUsage(usage))
              .addExtension(
                  Extension.extendedKeyUsage,
                  false,
                  new ExtendedKeyUsage(purposes))
              .addExtension(Extension.subjectAlternativeName, false, subjectAltNames(names))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  ext.createSubjectKeyIdentifier(keys.getPublic()))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  ext.createAuthorityKeyIdentifier(ca.certificate()));
      return new ServingCertificate(sign(builder, ca.privateKey()), keys.getPrivate());
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("could not issue serving certificate " + names, e);
    }
  }

  private static GeneralNames subjectAltNames(ServingNames names) {
    List<GeneralName> all = new ArrayList<>();
    names.dnsNames().forEach(n -> all.add(new GeneralName(GeneralName.dNSName, n)));
    names.ipAddresses().forEach(ip -> all.add(new GeneralName(GeneralName.iPAddress, ip)));
    return new GeneralNames(all.toArray(GeneralName[]::new));
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE)
        .addRDN(BCStyle.O, ORGANIZATION)
        .addRDN(BCStyle.CN, commonName)
        .build();
  }

  private BigInteger serial() {
    // Positive, at most 20 octets as RFC 5280 requires.
    return new BigInteger(159, random).add(BigInteger.ONE);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
      throws GeneralSecurityException {
    try {
      String algorithm = KeyAlgorithm.of(signer).signatureAlgorithm();
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(signer)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("no signer for " + signer.getAlgorithm(), e);
    }
  }

  /** Whether {@code certificate} carries a signature made by the key behind {@code issuerKey}. */
  public static boolean isSignedBy(X509Certificate certificate, PublicKey issuerKey) {
    try {
      certificate.verify(issuerKey);
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
