package io.tidb.operator.controller.runtime;

import com.google.common.util.concurrent.RateLimiter;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The operator's client-side limit on Kubernetes API requests ({@code --kube-api-qps}): a fabric8
 * HTTP {@link Interceptor} that makes each request wait for a permit of a Guava {@link
 * RateLimiter}, which lets up to one second's worth of requests through at once after a quiet
 * spell. Watches are long-lived streams, not load per second, and pass without a permit. Time
 * spent waiting is counted in {@code tidb_operator_kube_api_throttled_seconds_total}, so a limit
 * set too low shows. The API server's own 429 answers are retried by the fabric8 client with
 * exponential backoff and its {@code Retry-After}.
 */
public final class KubeApiRateLimit implements Interceptor {

  /** The interceptor's name on the fabric8 HTTP client builder. */
  public static final String NAME = "tidb-operator-rate-limit";

  public static final String THROTTLED_METER = "tidb.operator.kube.api.throttled";

  private final RateLimiter permits;
  private final Counter throttled;

  /** A limit of {@code permits} (the caller's limiter), counting waits in {@code registry}. */
  public KubeApiRateLimit(RateLimiter permits, MeterRegistry registry) {
    this.permits = permits;
    this.throttled =
        Counter.builder(THROTTLED_METER)
            .baseUnit("seconds")
            .description("Time Kubernetes API requests waited for the client-side rate limit")
            .register(registry);
  }

  /** A limit of {@code qps} requests per second. */
  public static KubeApiRateLimit perSecond(double qps, MeterRegistry registry) {
    return new KubeApiRateLimit(RateLimiter.create(qps), registry);
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (KubeApiRequestMetrics.RequestKind.isWatch(request)) {
      return;
    }
    double waited = permits.acquire();
    if (waited > 0) {
      throttled.increment(waited);
    }
  }
}
