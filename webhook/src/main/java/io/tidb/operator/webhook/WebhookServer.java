package io.tidb.operator.webhook;

import io.javalin.Javalin;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS server: {@code POST /validate}, {@code POST /mutate}, {@code GET /healthz}, {@code
 * GET /readyz} and {@code GET /metrics}. There is one TLS connector and no plaintext listener.
 * {@link #stop()} first reports not-ready, then lets requests in flight finish (up to the
 * shutdown timeout) before closing.
 */
public final class WebhookServer {

  private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

  /**
   * @param host address to bind, e.g. {@code 0.0.0.0} in a pod or {@code 127.0.0.1} locally
   * @param port TCP port; 0 picks a free one
   * @param limits what requests may cost, together and one by one
   * @param shutdownDelay how long {@link #stop()} keeps serving after reporting not-ready, so
   *     load balancers stop sending first
   * @param shutdownTimeout how long {@link #stop()} waits for requests in flight
   */
  public record Settings(
      String host, int port, ServerLimits limits, Duration shutdownDelay, Duration shutdownTimeout) {
    public Settings {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(limits, "limits");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port " + port + " must be between 0 and 65535");
      }
    }

    /** With the default limits for {@code maxBodyBytes}. */
    public Settings(
        String host, int port, int maxBodyBytes, Duration shutdownDelay, Duration shutdownTimeout) {
      this(host, port, ServerLimits.defaults(maxBodyBytes), shutdownDelay, shutdownTimeout);
    }
  }

  private final Settings settings;
  private final WebhookMetrics metrics;
  private final AtomicBoolean ready = new AtomicBoolean(false);
  private final InFlightBytesHandler inFlight;
  private final Javalin app;

  public WebhookServer(
      Settings settings,
      AdmissionService service,
      AdmissionReviewCodec codec,
      WebhookMetrics metrics,
      ServingTls tls) {
    this.settings = settings;
    this.metrics = metrics;
    ServerLimits limits = settings.limits();
    this.inFlight = new InFlightBytesHandler(
        limits.maxInFlightBytes(), limits.maxBodyBytes(), limits.bodyDeadline(), limits.minBytesPerSecond(),
        metrics::busyRefusal, metrics::bodyFailure);
    metrics.inFlightBytes(inFlight::inFlight);
    ReviewTurns turns = new ReviewTurns(limits.maxConcurrentReviews(), limits.reviewWait());
    AdmissionEndpoint validate =
        new AdmissionEndpoint(AdmissionOperation.VALIDATE, service, codec, metrics, limits.maxBodyBytes(), turns);
    AdmissionEndpoint mutate =
        new AdmissionEndpoint(AdmissionOperation.MUTATE, service, codec, metrics, limits.maxBodyBytes(), turns);
    this.app =
        Javalin.create(
            cfg -> {
              cfg.startup.showJavalinBanner = false;
              cfg.startup.showOldJavalinVersionWarning = false;
              cfg.http.prefer405over404 = true;
              QueuedThreadPool threads = new QueuedThreadPool(limits.maxThreads(), 4);
              threads.setName("webhook");
              cfg.jetty.threadPool = threads;
              cfg.jetty.modifyServer(
                  server -> {
                    // On stop, Jetty waits up to this long for Graceful components; GracefulHandler
                    // is the one that tracks requests in flight.
                    server.setStopTimeout(settings.shutdownTimeout().toMillis());
                    // Outermost last. The bodies held at once are bounded before any byte of them
                    // is read, a body is read without holding a thread, and a slow one is cut off
                    // (InFlightBytes). Not Jetty's EagerContentHandler:
                    // its request wrapper (12.1.12) drops a failed response callback, so a
                    // request whose answer cannot be written is never completed.
                    server.insertHandler(inFlight);
                    server.insertHandler(new GracefulHandler());
                  });
              cfg.jetty.addConnector(
                  (server, httpConfig) -> {
                    SecureRequestCustomizer secure = new SecureRequestCustomizer();
                    // The API server dials by Service DNS name or IP; never refuse on SNI.
                    secure.setSniHostCheck(false);
                    httpConfig.addCustomizer(secure);
                    httpConfig.setSecureScheme("https");
                    ServerConnector connector =
                        new ServerConnector(
                            server,
                            new SslConnectionFactory(tls.factory(), "http/1.1"),
                            new HttpConnectionFactory(httpConfig));
                    connector.setHost(settings.host());
                    connector.setPort(settings.port());
                    connector.setAcceptQueueSize(limits.acceptQueueSize());
                    connector.setIdleTimeout(limits.idleTimeout().toMillis());
                    // A TLS handshake or request head that trickles in never goes idle: it is cut
                    // at twice the idle timeout, so that a connection that only waits always meets
                    // the idle timeout first. Started and stopped with the connector.
                    RequestHeadDeadline heads = new RequestHeadDeadline(
                        limits.idleTimeout().multipliedBy(2), connector.getScheduler(),
                        metrics::slowConnectionClosed);
                    httpConfig.addCustomizer(heads);
                    connector.addBean(heads);
                    metrics.openConnections(heads::open);
                    NetworkConnectionLimit connections = new NetworkConnectionLimit(limits.maxConnections(), connector);
                    // At the limit, idle connections (kept alive, or clients that went away) go
                    // after a second instead of the idle timeout.
                    connections.setEndPointIdleTimeout(1000);
                    server.addBean(connections);
                    return connector;
                  });
              cfg.routes.post(AdmissionOperation.VALIDATE.path(), validate);
              cfg.routes.post(AdmissionOperation.MUTATE.path(), mutate);
              cfg.routes.get("/healthz", ctx -> text(ctx, 200, "ok"));
              cfg.routes.get(
                  "/readyz", ctx -> text(ctx, ready.get() ? 200 : 503, ready.get() ? "ok" : "not ready"));
              cfg.routes.get(
                  "/metrics",
                  ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
              cfg.routes.exception(
                  Exception.class,
                  (e, ctx) -> {
                    log.error("request failed path={} method={}", ctx.path(), ctx.method(), e);
                    text(ctx, 500, "internal error");
                  });
            });
  }

  /** Binds and starts serving; ready once this returns. */
  public WebhookServer start() {
    listen();
    markReady();
    return this;
  }

  /** Binds and starts serving, not yet ready: {@code /readyz} answers 503 until {@link #markReady()}. */
  WebhookServer listen() {
    app.start();
    log.info("webhook serving host={} port={} tls=TLSv1.2+", settings.host(), port());
    return this;
  }

  /** From now on {@code /readyz} answers 200. */
  void markReady() {
    ready.set(true);
  }

  /** The bound port. */
  public int port() {
    return app.port();
  }

  /** Request body bytes reserved now by requests not yet answered. */
  public long inFlightBytes() {
    return inFlight.inFlight();
  }

  public boolean isReady() {
    return ready.get();
  }

  /** Stops at once, for a server that never became ready (nothing was routed to it). */
  void stopNow() {
    ready.set(false);
    app.stop();
    log.info("webhook stopped before it was ready");
  }

  /** Not-ready, wait {@code shutdownDelay}, then stop after requests in flight finish. */
  public void stop() {
    ready.set(false);
    sleep(settings.shutdownDelay());
    log.info("webhook stopping timeoutMillis={}", settings.shutdownTimeout().toMillis());
    app.stop();
    log.info("webhook stopped");
  }

  private static void text(Context ctx, int status, String body) {
    ctx.status(status).contentType("text/plain; charset=utf-8").result(body + "\n");
  }

  private static void sleep(Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      return;
    }
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
