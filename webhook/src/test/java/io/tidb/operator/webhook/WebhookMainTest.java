package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.certs.KeyAlgorithm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The flags the Helm chart passes (templates/_args.tpl) parse into the settings they mean. */
class WebhookMainTest {

  @Test
  void selfManagedCertificateFlagsFromTheChart() {
    WebhookMain main = parse(
        "--port=9443", "--log-level=info", "--namespace=tidb-admin", "--service=tidb-operator-webhook",
        "--secret=tidb-operator-webhook-tls",
        "--validating-webhook-configuration=tidb-operator-webhook",
        "--mutating-webhook-configuration=tidb-operator-webhook",
        "--cluster-domain=cluster.local", "--cert-validity-hours=8760", "--cert-renew-before-hours=720");

    assertEquals(9443, main.port);
    assertEquals("tidb-admin", main.namespace);
    assertEquals(List.of("tidb-operator-webhook"), main.validatingConfigurations);
    assertEquals(List.of("tidb-operator-webhook"), main.mutatingConfigurations);
    assertEquals(8760, main.certValidityHours);
    assertEquals(720, main.certRenewBeforeHours);
    assertEquals(CertificateMode.SECRET, CertificateMode.valueOf(main.certMode.toUpperCase()).resolve(main.certDir != null));
  }

  @Test
  void certManagerFlagsFromTheChartSelectFileMode() {
    WebhookMain main = parse("--port=9443", "--log-level=debug", "--cert-dir=/etc/tidb-operator/webhook-tls");

    assertEquals(Path.of("/etc/tidb-operator/webhook-tls"), main.certDir);
    assertEquals(CertificateMode.FILES, CertificateMode.valueOf(main.certMode.toUpperCase()).resolve(main.certDir != null));
  }

  @Test
  void localRunFlags() {
    WebhookMain main = parse("--bind-address=127.0.0.1", "--key-algorithm=rsa_2048",
        "--validating-webhook-configuration=a,b", "--max-body-bytes=1048576");

    assertEquals("127.0.0.1", main.bindAddress);
    assertEquals(KeyAlgorithm.RSA_2048, main.keyAlgorithm);
    assertEquals(List.of("a", "b"), main.validatingConfigurations);
    assertEquals(1048576, main.maxBodyBytes);
  }

  private static WebhookMain parse(String... args) {
    WebhookMain main = new WebhookMain();
    new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
    return main;
  }
}
