package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The image build's training run, in this JVM: the real start and one reconcile, then exit 0. */
class ControllerClassDataTrainingTest {

  @Test
  void theTrainingRunStartsTheOperatorAndReconcilesTheSample() throws Exception {
    assertEquals(0, new ControllerClassDataTraining().call());
  }

  @Test
  void itIsASubcommandOfTheImage() {
    assertTrue(ControllerMain.commandLine(ControllerClassDataTraining.MODE).getSubcommands().containsKey(ControllerClassDataTraining.MODE));
  }
}
