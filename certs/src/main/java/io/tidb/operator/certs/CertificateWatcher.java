package io.tidb.operator.certs;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the serving certificate from a source once, then again every {@code period}, and hands
 * each different certificate to a listener. A failed load is logged and the last good certificate
 * stays in use; the next try comes sooner than a period: {@link #FIRST_RETRY}, doubling after each
 * failure, up to the period (an API server away at a start from a mounted copy is asked again
 * within seconds of its return, not a minute later).
 */
public final class CertificateWatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CertificateWatcher.class);

  /** The wait before the first try after a failed load. */
  static final Duration FIRST_RETRY = Duration.ofSeconds(1);

  private final String source;
  private final Supplier<ServingCertificate> loader;
  private final Duration period;
  private final ScheduledExecutorService scheduler;
  private volatile ServingCertificate current;
  private volatile boolean checkAtOnce;
  private int failures;

  /**
   * @param source what is loaded, for logs, e.g. {@code secret=tidb-admin/webhook-tls}
   * @param loader reads (and, for self-managed certificates, renews) the serving certificate;
   *     throws when there is no usable certificate
   */
  public CertificateWatcher(String source, Supplier<ServingCertificate> loader, Duration period) {
    this.source = Objects.requireNonNull(source, "source");
    this.loader = Objects.requireNonNull(loader, "loader");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period " + period + " must be positive");
    }
    this.period = period;
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "certificate-watcher");
              t.setDaemon(true);
              return t;
            });
  }

  /** Loads the first certificate; a failure propagates (there is nothing to serve yet). */
  public ServingCertificate load() {
    current = loader.get();
    log.info("certificate loaded source={} {}", source, current.describe());
    return current;
  }

  /**
   * Starts from {@code first}, a certificate obtained other than from the source (a mounted copy of
   * what the source holds), without loading the source: {@link #watch} then checks the source at
   * once instead of a period later.
   *
   * @param origin where {@code first} was read, for logs
   */
  public ServingCertificate startFrom(ServingCertificate first, String origin) {
    current = Objects.requireNonNull(first, "first");
    checkAtOnce = true;
    log.info("certificate loaded source={} from={} {}", source, origin, current.describe());
    return current;
  }

  /**
   * From now on checks every period and calls {@code onChange} with each certificate that
   * differs from the last one. Call {@link #load()} or {@link #startFrom} first.
   */
  public void watch(Consumer<ServingCertificate> onChange) {
    if (current == null) {
      throw new IllegalStateException("load() the first certificate before watching");
    }
    schedule(onChange, checkAtOnce ? Duration.ZERO : period);
  }

  private void schedule(Consumer<ServingCertificate> onChange, Duration delay) {
    try {
      scheduler.schedule(() -> schedule(onChange, check(onChange)), delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed
    }
  }

  /**
   * The wait before the next load after {@code failures} failed ones in a row: the period after a
   * success, else {@link #FIRST_RETRY} doubling per failure, at most the period. Pure.
   */
  static Duration nextCheck(int failures, Duration period) {
    if (failures == 0) {
      return period;
    }
    Duration retry = FIRST_RETRY.multipliedBy(1L << Math.min(failures - 1, 20));
    return retry.compareTo(period) < 0 ? retry : period;
  }

  /** The certificate last loaded. */
  public ServingCertificate current() {
    return current;
  }

  /** One load; returns the wait before the next ({@link #nextCheck}). Runs on the scheduler's thread only. */
  private Duration check(Consumer<ServingCertificate> onChange) {
    try {
      ServingCertificate loaded = loader.get();
      if (!loaded.sameAs(current)) {
        log.info(
            "certificate changed source={} old={} new={}",
            source,
            current.describe(),
            loaded.describe());
        onChange.accept(loaded);
        current = loaded;
      }
      failures = 0;
      return period;
    } catch (RuntimeException e) {
      failures++;
      Duration next = nextCheck(failures, period);
      log.warn(
          "certificate check failed, keeping current source={} current={} error=\"{}\" nextCheckMillis={}",
          source,
          current.describe(),
          e.toString(),
          next.toMillis());
      return next;
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
