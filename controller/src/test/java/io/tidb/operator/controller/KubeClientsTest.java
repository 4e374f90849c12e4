package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.ExponentialBackoffIntervalCalculator;
import org.junit.jupiter.api.Test;

/** The watch reconnect backoff docs/controller.md describes: 0.25 s doubling to 8 s. */
class KubeClientsTest {

  @Test
  void watchesReconnectAfterAQuarterSecondDoublingToEightSeconds() {
    Config config = KubeClients.configure(new ConfigBuilder().withMasterUrl("https://127.0.0.1:6443").build());
    assertEquals(250, config.getWatchReconnectInterval());
    // fabric8's watch managers and informers back off with this calculator from that interval
    ExponentialBackoffIntervalCalculator backoff = new ExponentialBackoffIntervalCalculator(
        config.getWatchReconnectInterval(), ExponentialBackoffIntervalCalculator.UNLIMITED_RETRIES);
    assertEquals(250, backoff.getInterval(0));
    assertEquals(500, backoff.getInterval(1));
    assertEquals(8000, backoff.getInterval(5));
    assertEquals(8000, backoff.getInterval(20));
  }
}
