package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The image build's training run, in this JVM: the real start and one reconcile, then exit 0. */
class ClassDataTrainingTest {

  @Test
  void theTrainingRunStartsTheOperatorAndReconcilesTheSample() throws Exception {
    assertEquals(0, new ClassDataTraining().call());
  }

  @Test
  void itIsASubcommandOfTheImage() {
    assertTrue(ControllerMain.commandLine(ClassDataTraining.MODE).getSubcommands().containsKey(ClassDataTraining.MODE));
  }
}
