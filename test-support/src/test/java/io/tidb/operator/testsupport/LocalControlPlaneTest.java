package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
