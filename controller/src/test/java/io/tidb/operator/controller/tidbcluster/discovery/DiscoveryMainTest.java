package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DiscoveryMainTest {
  @Test
  void refusesToStartWithoutClusterAndNamespace() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new DiscoveryMain()).setErr(new PrintWriter(err));
    int code = cli.execute("--tc-name", "basic", "--namespace", " ");
    assertEquals(2, code);
    assertTrue(err.toString().contains("--tc-name and --namespace are required"), err.toString());
  }

  @Test
  void helpListsTheFlags() {
    String usage = new CommandLine(new DiscoveryMain()).getUsageMessage();
    for (String flag : new String[] {"--tc-name", "--namespace", "--port", "--proxy-port", "--bind", "--pd-url"}) {
      assertTrue(usage.contains(flag), flag);
    }
    assertTrue(usage.contains("default: env TC_NAME"), usage);
    assertTrue(usage.contains("default: 10261"), usage);
  }
}
