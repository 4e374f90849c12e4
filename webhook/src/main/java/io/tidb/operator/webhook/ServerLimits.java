package io.tidb.operator.webhook;

import java.time.Duration;

/**
 * What requests may cost the webhook, together and one by one, so that no input ends the process
 * or starves it.
 *
 * @param maxBodyBytes larger request bodies get 413
 * @param maxInFlightBytes request bodies held at once, by their declared length (a body without
 *     one counts as {@code maxBodyBytes}); a request that would pass it gets 429 at once
 * @param maxConcurrentReviews reviews parsed and judged at once; the rest wait for a turn up to
 *     {@code reviewWait}, then get 429. Parsing is what multiplies a body's size in memory.
 * @param reviewWait how long a review waits for its turn
 * @param maxTokens JSON tokens in one body; a real TidbCluster review has a few thousand (the
 *     shared 26 KB UPDATE review about 3,000)
 * @param maxNestingDepth JSON nesting in one body
 * @param idleTimeout a connection that sends nothing this long is closed; one that takes twice as
 *     long to send a TLS handshake or a request head, even if it never goes idle, too
 * @param minBytesPerSecond a request body that arrives slower than this, judged on its own bytes
 *     once it has taken a second, is cut off
 * @param bodyDeadline a request body must arrive in full within this time (the API server waits
 *     at most 30 s for a webhook), or the request fails and gives its reservation back
 * @param acceptQueueSize pending TCP connections the kernel keeps for us (a storm of new
 *     connections must not drop SYNs)
 * @param maxConnections connections open at once; at the limit the server stops accepting (the
 *     kernel's accept queue holds the next ones) and cuts idle connections sooner. Each open
 *     connection holds about 10 KB of heap (its TLS session, HTTP parser and buffers): an open
 *     loop that abandoned its requests left 9,000 open and a 128 MiB heap ran out
 * @param maxThreads the server's threads; bodies are read without one, so few are needed, and
 *     each costs stack memory. More threads than reviews can run at once only take turns on the
 *     cores: at 64 connections on 2 cores, 8 threads cost less CPU per review than 32
 *     (docs/benchmarks-webhook.md)
 */
public record ServerLimits(
    int maxBodyBytes,
    long maxInFlightBytes,
    int maxConcurrentReviews,
    Duration reviewWait,
    long maxTokens,
    int maxNestingDepth,
    Duration idleTimeout,
    long minBytesPerSecond,
    Duration bodyDeadline,
    int acceptQueueSize,
    int maxConnections,
    int maxThreads) {

  public ServerLimits {
    if (maxBodyBytes < 1024) {
      throw new IllegalArgumentException("maxBodyBytes " + maxBodyBytes + " must be at least 1024");
    }
    if (maxInFlightBytes < maxBodyBytes) {
      throw new IllegalArgumentException("maxInFlightBytes " + maxInFlightBytes
          + " must be at least maxBodyBytes " + maxBodyBytes);
    }
    if (maxConcurrentReviews < 1) {
      throw new IllegalArgumentException("maxConcurrentReviews " + maxConcurrentReviews + " must be at least 1");
    }
    if (maxTokens < 1000 || maxNestingDepth < 16) {
      throw new IllegalArgumentException("maxTokens must be at least 1000 and maxNestingDepth at least 16");
    }
    if (maxConnections < 16) {
      throw new IllegalArgumentException("maxConnections " + maxConnections + " must be at least 16");
    }
    if (maxThreads < 8) {
      throw new IllegalArgumentException("maxThreads " + maxThreads + " must be at least 8");
    }
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("idleTimeout must be positive");
    }
    if (bodyDeadline.equals(idleTimeout)) {
      // A body that stops arriving would meet both at the same instant; Jetty then lost the
      // request (never completed: its reservation and the graceful stop waited forever).
      throw new IllegalArgumentException("bodyDeadline " + bodyDeadline.toMillis()
          + " ms must differ from idleTimeout " + idleTimeout.toMillis() + " ms");
    }
  }

  /**
   * The defaults for a body limit: what the chart runs with. The bodies held at once are at most
   * an eighth of the heap (and at most 64 MiB), never less than one body.
   */
  public static ServerLimits defaults(int maxBodyBytes) {
    return new ServerLimits(
        maxBodyBytes,
        defaultInFlightBytes(maxBodyBytes, Runtime.getRuntime().maxMemory()),
        Math.max(2, Runtime.getRuntime().availableProcessors()),
        Duration.ofSeconds(2),
        100_000,
        100,
        Duration.ofSeconds(10),
        4 * 1024,
        // Before the 10 s idle timeout: a stalled body fails on its deadline, not on both at once.
        Duration.ofSeconds(8),
        1024,
        // Room for a thousand slow or idle clients and the API server's own connections.
        1536,
        defaultMaxThreads(Runtime.getRuntime().availableProcessors()));
  }

  /**
   * Four threads a core, at least 8 (the fewest the server takes): Jetty's acceptor and selectors
   * hold some (two on 2 cores), the rest read TLS records, parse and judge reviews in their turns
   * and write the answers.
   */
  static int defaultMaxThreads(int processors) {
    return Math.max(8, 4 * processors);
  }

  /** An eighth of {@code maxHeap}, at most 64 MiB, at least {@code maxBodyBytes}. */
  static long defaultInFlightBytes(int maxBodyBytes, long maxHeap) {
    return Math.max(maxBodyBytes, Math.min(64L << 20, maxHeap / 8));
  }
}
