package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.ServingNames;
import java.time.Duration;
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

    WebhookApplication.Settings settings = main.settings(mode(main));

    assertEquals(CertificateMode.SECRET, settings.mode());
    assertEquals(9443, settings.server().port());
    assertEquals("0.0.0.0", settings.server().host());
    WebhookApplication.SecretSettings secret = settings.secret();
    assertEquals("tidb-admin", secret.namespace());
    assertEquals("tidb-operator-webhook-tls", secret.secretName());
    assertEquals(List.of("tidb-operator-webhook"), secret.validatingConfigurations());
    assertEquals(List.of("tidb-operator-webhook"), secret.mutatingConfigurations());
    assertEquals(ServingNames.forService("tidb-operator-webhook", "tidb-admin", "cluster.local"), secret.names());
    assertEquals(Duration.ofHours(8760), secret.policy().servingValidity());
    assertEquals(Duration.ofHours(720), secret.policy().servingRenewBefore());
    assertEquals(Duration.ofHours(87600), secret.policy().caValidity());
  }

  @Test
  void certManagerFlagsFromTheChartSelectFileMode() {
    WebhookMain main = parse("--port=9443", "--log-level=debug", "--cert-dir=/etc/tidb-operator/webhook-tls");

    WebhookApplication.Settings settings = main.settings(mode(main));

    assertEquals(CertificateMode.FILES, settings.mode());
    assertEquals(Path.of("/etc/tidb-operator/webhook-tls"), settings.certDir());
    assertEquals(null, settings.secret());
  }

  @Test
  void localRunFlags() {
    WebhookMain main = parse("--namespace=dev", "--bind-address=127.0.0.1", "--key-algorithm=rsa_2048",
        "--validating-webhook-configuration=a,b", "--max-body-bytes=1048576");

    WebhookApplication.Settings settings = main.settings(mode(main));

    assertEquals("127.0.0.1", settings.server().host());
    assertEquals(1048576, settings.server().limits().maxBodyBytes());
    assertEquals(KeyAlgorithm.RSA_2048, settings.secret().policy().keyAlgorithm());
    assertEquals(List.of("a", "b"), settings.secret().validatingConfigurations());
  }

  @Test
  void secretModeWithoutANamespaceIsRefused() {
    WebhookMain main = parse("--cert-mode=secret");
    main.namespace = null; // as when $POD_NAMESPACE is unset

    assertEquals("secret mode needs a namespace (--namespace or $POD_NAMESPACE)",
        assertThrows(IllegalArgumentException.class, () -> main.settings(mode(main))).getMessage());
  }

  @Test
  void anUnknownCertificateModeIsAUsageError() {
    assertThrows(CommandLine.ParameterException.class, () -> parse("--cert-mode=vault"));
  }

  private static CertificateMode mode(WebhookMain main) {
    return main.certMode.resolve(main.certDir != null);
  }

  private static WebhookMain parse(String... args) {
    WebhookMain main = new WebhookMain();
    new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
    return main;
  }
}
