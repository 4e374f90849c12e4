package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.RateLimiter;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import org.junit.jupiter.api.Test;

class KubeApiRateLimitTest {

  private static HttpRequest get(String uri) {
    return new StandardHttpRequest.Builder().uri(URI.create(uri)).build();
  }

  @Test
  void aRequestTakesAPermitAndAWatchDoesNot() {
    // One permit per 1,000 s: after the first request, none is left for the length of the test.
    RateLimiter permits = RateLimiter.create(0.001);
    KubeApiRateLimit limit = new KubeApiRateLimit(permits, new SimpleMeterRegistry());
    limit.before(null, get("https://127.0.0.1:6443/api/v1/namespaces/a/pods?watch=true"), null);
    assertTrue(permits.tryAcquire(), "a watch must not take the permit");
    RateLimiter next = RateLimiter.create(0.001);
    KubeApiRateLimit limited = new KubeApiRateLimit(next, new SimpleMeterRegistry());
    limited.before(null, get("https://127.0.0.1:6443/api/v1/namespaces/a/pods?labelSelector=x"), null);
    assertFalse(next.tryAcquire(), "a list must take the permit");
  }

  @Test
  void timeSpentWaitingIsCounted() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // 2 permits per second: the second request waits about half a second for its permit.
    KubeApiRateLimit limit = KubeApiRateLimit.perSecond(2, registry);
    limit.before(null, get("https://127.0.0.1/api/v1/namespaces/a/pods/p"), null);
    limit.before(null, get("https://127.0.0.1/api/v1/namespaces/a/pods/p"), null);
    double waited = registry.find(KubeApiRateLimit.THROTTLED_METER).counter().count();
    assertTrue(waited > 0 && waited <= 0.5, "waited " + waited);
    assertEquals("seconds", registry.find(KubeApiRateLimit.THROTTLED_METER).counter().getId().getBaseUnit());
  }
}
