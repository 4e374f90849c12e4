package io.tidb.operator.pd;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends one HTTP request below a base URL and returns status and body, or fails clearly. */
final class PdHttp {

  private static final Logger LOG = LoggerFactory.getLogger(PdHttp.class);

  /** A response: status and body text. */
  record Response(String method, String url, String path, int status, String body) {
    PdApiException unexpected() {
      return PdNotBootstrappedException.matches(status, body)
          ? new PdNotBootstrappedException(method, url, path, status, body)
          : new PdApiException(method, url, path, status, body, null);
    }

    PdApiException undecodable(String detail) {
      return new PdApiException(method, url, path, status, body, detail);
    }
  }

  private final ComponentHttp http;
  private final Duration requestTimeout;

  PdHttp(ComponentHttp http, Duration requestTimeout) {
    this.http = http;
    this.requestTimeout = requestTimeout;
  }

  /** Joins a base URL (which may carry a path prefix) and an API path. */
  static String join(URI base, String path) {
    String text = base.toString();
    return (text.endsWith("/") ? text.substring(0, text.length() - 1) : text) + path;
  }

  Response send(URI base, String method, String path, String jsonBody) {
    String url = join(base, path);
    long started = System.nanoTime();
    try {
      ComponentHttp.Reply reply = http.send(method, URI.create(url), jsonBody, requestTimeout);
      LOG.debug("pd call method={} url={} status={} durationMs={}", method, url,
          reply.status(), (System.nanoTime() - started) / 1_000_000);
      return new Response(method, url, path, reply.status(), reply.body());
    } catch (IOException e) {
      LOG.debug("pd call failed method={} url={} error={}", method, url, e.toString());
      throw new PdConnectionException(method, url, path, e);
    }
  }
}
