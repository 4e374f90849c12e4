package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ClassDataTrainingTest {

  @Test
  void theTrainingRunServesBothEndpointsAndExitsZero() {
    assertEquals(0, new CommandLine(new WebhookMain()).execute("train-class-data"));
  }
}
