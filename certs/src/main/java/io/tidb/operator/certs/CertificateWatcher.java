package io.tidb.operator.certs;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the serving certificate from a source once, then again every {@code period}, and hands
 * each different certificate to a listener. A failed load is logged and the last good certificate
 * stays in use; the next period tries again.
 */
public final class CertificateWatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CertificateWatcher.class);

  private final String source;
  private final Supplier<ServingCertificate> loader;
  private final Duration period;
  private final ScheduledExecutorService scheduler;
  private volatile ServingCertificate current;
  private volatile boolean checkAtOnce;

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
    long millis = period.toMillis();
    scheduler.scheduleWithFixedDelay(
        () -> check(onChange), checkAtOnce ? 0 : millis, millis, TimeUnit.MILLISECONDS);
  }

  /** The certificate last loaded. */
  public ServingCertificate current() {
    return current;
  }

  private void check(Consumer<ServingCertificate> onChange) {
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
    } catch (RuntimeException e) {
      log.warn(
          "certificate check failed, keeping current source={} current={} error=\"{}\"",
          source,
          current.describe(),
          e.toString());
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
