package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalControlPlaneTest {

  @Test
  void kubeconfigPathIsTheLastNonBlankLine() {
    assertEquals("/home/dev/cp/kubeconfig", LocalControlPlane.lastLine("noise\n/home/dev/cp/kubeconfig \n\n"));
  }

  @Test
  void emptyOutputIsAnError() {
    assertThrows(IllegalStateException.class, () -> LocalControlPlane.lastLine("\n  \n"));
  }

  @Test
  void flagsAreTheNameValueArgumentsOfACommandLineAndALaterOneWins() {
    String cmdline = "/bin/kube-controller-manager\u0000--kube-api-qps=20\u0000-v\u00003\u0000--leader-elect=false"
        + "\u0000--kube-api-qps=200\u0000--root-ca-file=/a=b\u0000";
    assertEquals(Map.of("--kube-api-qps", "200", "--leader-elect", "false", "--root-ca-file", "/a=b"),
        LocalControlPlane.flags(cmdline));
  }
}
