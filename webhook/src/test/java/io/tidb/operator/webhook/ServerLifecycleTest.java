package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServerLifecycleTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void stoppingLetsRequestsInFlightFinishAndRefusesNewOnes() throws Exception {
    SlowThingRules rules = new SlowThingRules();
    RunningWebhook webhook = new RunningWebhook(Duration.ofMillis(600), rules);
    try {
      CompletableFuture<HttpResponse<String>> inFlight =
          CompletableFuture.supplyAsync(() -> webhook.post("/validate", SlowThingRules.review("u-1", 2000, false)));
      assertTrue(rules.started.await(30, TimeUnit.SECONDS), "request reached the rules");

      CompletableFuture<Void> stopping = CompletableFuture.runAsync(webhook.server::stop);
      // During the shutdown delay the server still answers, but reports not-ready.
      int readyStatus = webhook.get("/readyz").statusCode();

      HttpResponse<String> response = inFlight.get(30, TimeUnit.SECONDS);
      stopping.get(30, TimeUnit.SECONDS);

      assertEquals(503, readyStatus);
      assertEquals(200, response.statusCode());
      JsonNode review = JSON.readTree(response.body());
      assertEquals("u-1", review.at("/response/uid").asText());
      assertTrue(review.at("/response/allowed").asBoolean());
      assertThrows(UncheckedIOException.class, () -> webhook.get("/healthz"));
    } finally {
      webhook.close();
    }
  }

  @Test
  void failingRulesAreAnInternalErrorForValidationAndSkippedForDefaults() throws Exception {
    try (RunningWebhook webhook = new RunningWebhook(new SlowThingRules())) {
      HttpResponse<String> validate = webhook.post("/validate", SlowThingRules.review("u-2", 0, true));
      HttpResponse<String> mutate = webhook.post("/mutate", SlowThingRules.review("u-3", 0, true));

      assertEquals(200, validate.statusCode());
      JsonNode denied = JSON.readTree(validate.body());
      assertFalse(denied.at("/response/allowed").asBoolean());
      assertEquals(500, denied.at("/response/status/code").asInt());
      assertEquals(
          "internal error while checking SlowThing \"slow\"; the webhook log has details (uid u-2)",
          denied.at("/response/status/message").asText());
      JsonNode allowed = JSON.readTree(mutate.body());
      assertTrue(allowed.at("/response/allowed").asBoolean());
      assertTrue(allowed.at("/response/patch").isMissingNode());
      assertEquals(200, webhook.get("/healthz").statusCode());
    }
  }
}
