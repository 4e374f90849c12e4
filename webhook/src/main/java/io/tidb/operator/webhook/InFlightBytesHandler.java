package io.tidb.operator.webhook;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Bounds the request bodies held at once. Each request reserves its declared length (or the body
 * limit when it declares none) before any of its body is read, and gives it back when its response
 * is complete; a request that would pass the budget is answered 429 at once, its body read and
 * dropped rather than kept. A body must arrive within a deadline, or the request fails and gives
 * its reservation back: a few slow clients declaring large bodies cannot hold the budget for long.
 * {@link BodyReceived}, placed where the whole body has been read, ends the deadline.
 */
final class InFlightBytesHandler extends Handler.Wrapper {

  private static final String DEADLINE = InFlightBytesHandler.class.getName() + ".deadline";

  private final long budget;
  private final long undeclared;
  private final Duration bodyDeadline;
  private final AtomicLong inFlight = new AtomicLong();
  private final Runnable onRefused;

  /**
   * @param budget bytes that may be reserved at once
   * @param undeclared what a request without a Content-Length reserves
   * @param bodyDeadline how long a request's body may take to arrive
   * @param onRefused called for every refused request (metrics)
   */
  InFlightBytesHandler(long budget, long undeclared, Duration bodyDeadline, Runnable onRefused) {
    this.budget = budget;
    this.undeclared = undeclared;
    this.bodyDeadline = bodyDeadline;
    this.onRefused = onRefused;
  }

  /** Ends the body deadline of a request whose body has been read in full. */
  static final class BodyReceived extends Handler.Wrapper {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      if (request.getAttribute(DEADLINE) instanceof Scheduler.Task) {
        ((Scheduler.Task) request.getAttribute(DEADLINE)).cancel();
      }
      return super.handle(request, response, callback);
    }
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long declared = request.getLength();
    long weight = declared < 0 ? undeclared : Math.min(declared, undeclared);
    if (weight == 0) {
      return super.handle(request, response, callback);
    }
    if (!reserve(weight)) {
      onRefused.run();
      // Read the body and drop it, holding nothing, so that the client, still sending, sees the
      // answer instead of a broken connection.
      String message = "webhook busy: request bodies in flight would pass " + budget + " bytes; retry";
      Content.Source.consumeAll(request, Callback.from(
          () -> busy(response, message, callback), callback::failed));
      return true;
    }
    // Given back exactly once: when the response completes, or when the body missed its
    // deadline (the bytes are not coming; the budget must not wait for the request to unwind).
    AtomicBoolean held = new AtomicBoolean(true);
    Runnable giveBack = () -> {
      if (held.compareAndSet(true, false)) {
        inFlight.addAndGet(-weight);
      }
    };
    Scheduler.Task deadline = request.getComponents().getScheduler().schedule(
        () -> {
          giveBack.run();
          request.fail(new TimeoutException(
              "request body not received within " + bodyDeadline.toMillis() + " ms"));
        },
        bodyDeadline.toMillis(), TimeUnit.MILLISECONDS);
    request.setAttribute(DEADLINE, deadline);
    Callback release = Callback.from(callback, () -> {
      deadline.cancel();
      giveBack.run();
    });
    try {
      if (super.handle(request, response, release)) {
        return true;
      }
    } catch (Throwable t) {
      deadline.cancel();
      giveBack.run();
      throw t;
    }
    deadline.cancel();
    giveBack.run();
    return false;
  }

  private static void busy(Response response, String message, Callback callback) {
    response.setStatus(429);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.write(true, ByteBuffer.wrap((message + "\n").getBytes(StandardCharsets.UTF_8)), callback);
  }

  private boolean reserve(long weight) {
    while (true) {
      long now = inFlight.get();
      if (now + weight > budget) {
        return false;
      }
      if (inFlight.compareAndSet(now, now + weight)) {
        return true;
      }
    }
  }

  /** Bytes reserved now. */
  long inFlight() {
    return inFlight.get();
  }
}
