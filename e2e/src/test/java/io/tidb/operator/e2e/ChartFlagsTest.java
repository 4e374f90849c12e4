package io.tidb.operator.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.tidb.operator.controller.ControllerMain;
import io.tidb.operator.webhook.WebhookMain;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The flags the chart passes are flags the two processes accept, with values of the right type:
 * each rendered container's args are parsed by the real picocli command of its main class.
 */
class ChartFlagsTest {

  static HelmCli helm;

  @BeforeAll
  static void findHelm() {
    helm = HelmCli.forProjectChart();
  }

  @ParameterizedTest(name = "[{0}]")
  @ValueSource(strings = {"", ChartTemplateTest.NAMESPACE_SCOPED + ChartTemplateTest.LEADER_ELECTION,
      ChartTemplateTest.CERT_MANAGER})
  void everyControllerAndWebhookFlagIsKnownToItsProcess(String values) {
    RenderedChart chart = ChartTemplateTest.render(helm, values);
    assertParses(chart.get(Deployment.class, ChartTemplateTest.CONTROLLER), ControllerMain::new);
    assertParses(chart.get(Deployment.class, ChartTemplateTest.WEBHOOK), WebhookMain::new);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"--no-such-flag=1", "--workers=many", "--auto-failover=maybe"})
  void theCheckRefusesWhatTheProcessWouldRefuse(String arg) {
    CommandLine command = new CommandLine(new ControllerMain());
    assertFalse(parses(command, List.of(arg)), arg);
  }

  static void assertParses(Deployment deployment, Supplier<Object> main) {
    List<String> args = deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    CommandLine command = new CommandLine(main.get()).setCaseInsensitiveEnumValuesAllowed(true);
    assertTrue(parses(command, args), deployment.getMetadata().getName() + " rejects its chart args " + args);
    ParseResult result = command.parseArgs(args.toArray(String[]::new));
    assertTrue(result.unmatched().isEmpty(), "unmatched: " + result.unmatched());
    assertTrue(result.errors().isEmpty(), "errors: " + result.errors());
  }

  static boolean parses(CommandLine command, List<String> args) {
    try {
      command.parseArgs(args.toArray(String[]::new));
      return true;
    } catch (CommandLine.ParameterException e) {
      return false;
    }
  }
}
