package io.tidb.operator.pdsim;

import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Makes the certificates a local TLS run needs, with the project's Bouncy Castle issuer: a CA, a
 * server certificate naming the Services of the cluster's components (what the simulator presents
 * in their place, and what the components' {@code <tc>-<component>-cluster-secret} would hold),
 * and a client certificate (for {@code <tc>-cluster-client-secret}). Each goes into its own
 * directory as {@code ca.crt}, {@code tls.crt}, {@code tls.key}, the keys of upstream's Secrets.
 */
@Command(name = "local-tls-certificates", mixinStandardHelpOptions = true,
    description = "Write a CA, a server certificate for a TidbCluster's components and a client "
        + "certificate, as <dir>/server/{ca.crt,tls.crt,tls.key} and <dir>/client/...")
public final class LocalTlsCertificates implements Callable<Integer> {

  /** The components whose Services the server certificate names. */
  static final List<String> COMPONENTS = List.of("pd", "tikv", "tidb", "ticdc", "tiflash");

  @Option(names = "--dir", required = true, description = "Where to write server/ and client/.")
  Path dir;

  @Option(names = "--cluster", required = true, description = "The TidbCluster's name.")
  String cluster;

  @Option(names = "--namespace", required = true, description = "The TidbCluster's namespace.")
  String namespace;

  @Option(names = "--client-cn", defaultValue = "TiDB",
      description = "The client certificate's common name (PD's cert-allowed-cn). "
          + "Default: ${DEFAULT-VALUE}.")
  String clientCommonName;

  @Override
  public Integer call() {
    write(dir, cluster, namespace, clientCommonName, Instant.now());
    System.out.println("certificates for " + namespace + "/" + cluster + " in " + dir);
    return 0;
  }

  /**
   * The DNS names of each component's Service and peer Service: bare, with the namespace, with
   * {@code .svc}, and the peer Service's wildcards, as upstream's certificate guide lists them.
   */
  static List<String> serverNames(String cluster, String namespace) {
    List<String> names = new ArrayList<>();
    for (String component : COMPONENTS) {
      for (String service : List.of(cluster + "-" + component, cluster + "-" + component + "-peer")) {
        names.add(service);
        names.add(service + "." + namespace);
        names.add(service + "." + namespace + ".svc");
      }
      names.add("*." + cluster + "-" + component + "-peer");
      names.add("*." + cluster + "-" + component + "-peer." + namespace);
      names.add("*." + cluster + "-" + component + "-peer." + namespace + ".svc");
    }
    return names;
  }

  static void write(Path dir, String cluster, String namespace, String clientCn, Instant now) {
    CertificateIssuer issuer = new CertificateIssuer();
    Duration validity = Duration.ofDays(365);
    CertificateAuthority ca =
        issuer.newAuthority(cluster + "-local-ca", now, validity, KeyAlgorithm.EC_P256);
    ServingCertificate server = issuer.issuePeer(ca,
        new ServingNames(serverNames(cluster, namespace), List.of("127.0.0.1")), now, validity,
        KeyAlgorithm.EC_P256);
    ServingCertificate client = issuer.issuePeer(ca,
        new ServingNames(List.of(clientCn), List.of()), now, validity, KeyAlgorithm.EC_P256);
    writeTriple(dir.resolve("server"), ca, server);
    writeTriple(dir.resolve("client"), ca, client);
  }

  private static void writeTriple(Path dir, CertificateAuthority ca, ServingCertificate cert) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("ca.crt"), Pem.encodeCertificate(ca.certificate()));
      Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(cert.certificate()));
      Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(cert.privateKey()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the certificates to " + dir, e);
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new LocalTlsCertificates()).execute(args));
  }
}
