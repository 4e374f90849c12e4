package io.tidb.operator.webhook;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
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
 * Reads request bodies before any thread blocks on them, and bounds the bodies held at once.
 *
 * <p>Each request with a body reserves its declared length (or the body limit when it declares
 * none) before any of its body is read, and gives it back when its response is complete. A request
 * that would pass the budget is answered 429, its body read and dropped rather than kept.
 *
 * <p>The body is then read without holding a thread. Only a body that arrived in full is handed
 * to the next handler, which takes it whole from {@link #BODY_ATTRIBUTE} (or reads it from memory).
 * A body that does not arrive is answered here, 408, and gives its reservation back: the
 * connection went idle, the body's own data rate fell under the minimum, the client went away, or
 * the body missed its deadline. So a few slow clients declaring large bodies cannot hold the
 * budget for long, and no handler downstream ever blocks on a client. A body over the limit is
 * marked with {@link #TOO_LARGE_ATTRIBUTE} and handed on for the endpoint to answer 413.
 *
 * <p>A body that is refused (429, 413) is first read to its end and dropped, under the same
 * deadline and data rate, as long as it is at most twice the limit. A server that answered and
 * closed the connection while the client was still sending would leave unread bytes behind, and
 * the kernel answers those with a reset that can reach the client before it reads the answer: the
 * client would see a broken connection instead of the reason (one request in about twenty did,
 * over TLS on loopback). A body larger than that, declared or chunked, is answered as soon as it
 * passes that size, and its connection closed.
 *
 * <p>The data rate is this body's bytes over the time since its headers arrived, judged once
 * {@link #RATE_GRACE} has passed and only when all that arrived has been read, before waiting for
 * more: a server short of CPU can take a while to read a healthy client's bytes. Not Jetty's
 * {@code MinimumDataRateHandler} (12.1.12): it divides the bytes read by every request since the
 * server started, not this one's, so it never cut a slow body off, and once the server had read
 * about 9.2 GB its {@code bytes * 1e9} overflowed and healthy bodies were refused at random (about
 * 2% of reviews after five minutes of load).
 *
 * <p>The response callback is completed on every path, whatever the handler downstream does with
 * it; the reservation is given back exactly once.
 */
final class InFlightBytesHandler extends Handler.Wrapper {

  /**
   * The request attribute that holds a body read in full, as a {@code byte[]} of exactly its
   * length: the endpoint takes it as it is instead of reading (and copying) it again.
   */
  static final String BODY_ATTRIBUTE = InFlightBytesHandler.class.getName() + ".body";

  /** The request attribute set, to {@code Boolean.TRUE}, on a request whose body is over the limit. */
  static final String TOO_LARGE_ATTRIBUTE = InFlightBytesHandler.class.getName() + ".tooLarge";

  /** How long a body may take before its data rate is judged. */
  static final Duration RATE_GRACE = Duration.ofSeconds(1);

  private final long budget;
  private final int maxBody;
  private final Duration bodyDeadline;
  private final long minBytesPerSecond;
  private final AtomicLong inFlight = new AtomicLong();
  private final Runnable onRefused;
  private final Runnable onBodyFailed;

  /**
   * @param budget bytes that may be reserved at once
   * @param maxBody the body limit: what a request without a Content-Length reserves, and how much
   *     of a body is read before it is handed on
   * @param bodyDeadline how long a request's body may take to arrive
   * @param minBytesPerSecond a body arriving slower than this, after {@link #RATE_GRACE}, is cut off
   * @param onRefused called for every request refused for the budget (metrics)
   * @param onBodyFailed called for every body that did not arrive (metrics)
   */
  InFlightBytesHandler(
      long budget,
      int maxBody,
      Duration bodyDeadline,
      long minBytesPerSecond,
      Runnable onRefused,
      Runnable onBodyFailed) {
    this.budget = budget;
    this.maxBody = maxBody;
    this.bodyDeadline = bodyDeadline;
    this.minBytesPerSecond = minBytesPerSecond;
    this.onRefused = onRefused;
    this.onBodyFailed = onBodyFailed;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long declared = request.getLength();
    boolean chunked = declared < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    if (declared == 0 || (declared < 0 && !chunked)) {
      return super.handle(request, response, callback);
    }
    if (declared > dropLimit()) {
      // Too large to read to its end: refused from its declared length, and the connection closed.
      request.setAttribute(TOO_LARGE_ATTRIBUTE, Boolean.TRUE);
      return super.handle(request, response, callback);
    }
    // A body over the limit is not held; a chunked one starts small and grows, its size unknown.
    long weight = declared > maxBody ? 0 : declared < 0 ? maxBody : declared;
    boolean refused = weight > 0 && !reserve(weight);
    AtomicBoolean held = new AtomicBoolean(weight > 0 && !refused);
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
    Callback release = Callback.from(callback, () -> {
      deadline.cancel();
      giveBack.run();
    });
    BodyReader reader = new BodyReader(request, response, release, deadline, giveBack);
    if (refused) {
      onRefused.run();
      String message = "webhook busy: request bodies in flight would pass " + budget + " bytes; retry";
      reader.drop(() -> answer(response, 429, message, release));
    } else if (declared > maxBody) {
      reader.drop(reader::handOnTooLarge);
    } else {
      reader.keep(declared < 0 ? 8192 : (int) declared);
    }
    reader.start();
    return true;
  }

  /**
   * The largest refused body that is read to its end and dropped, so that the client, still
   * sending, reads the answer instead of a connection reset under it: twice the limit.
   */
  private long dropLimit() {
    return 2L * maxBody;
  }

  /**
   * Reads one request's body, then hands the request on or answers it. A body is kept until it
   * passes the limit; a refused one, or one past the limit, is read to its end and dropped
   * (up to {@link #dropLimit()}) before it is answered.
   */
  private final class BodyReader implements Runnable {
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Scheduler.Task deadline;
    private final Runnable giveBack;
    /** The body so far, {@code size} bytes of it: sized to the declared length, grown if chunked. */
    private byte[] body;
    private int size;
    /** Every byte read, kept or dropped. */
    private long received;
    /** What follows a dropped body's last byte; null while the body is kept. */
    private Runnable afterDropped;
    private final long startNanos = System.nanoTime();
    private volatile Thread starter;

    BodyReader(
        Request request, Response response, Callback callback, Scheduler.Task deadline, Runnable giveBack) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.deadline = deadline;
      this.giveBack = giveBack;
    }

    void keep(int expected) {
      body = new byte[expected];
    }

    void drop(Runnable then) {
      body = null;
      afterDropped = then;
    }

    void start() {
      starter = Thread.currentThread();
      run();
      starter = null;
    }

    /** Reads what is there; demands more, or ends. Runs on a demand callback too. */
    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          // Judged only when all that arrived is read: bytes waiting for a busy server are not
          // the client's fault.
          long elapsed = System.nanoTime() - startNanos;
          if (tooSlow(received, elapsed, minBytesPerSecond)) {
            fail(new TimeoutException("read rate is too low: " + received + " bytes in "
                + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms, under " + minBytesPerSecond + " bytes/s"));
            return;
          }
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          // Transient or not, a body interrupted once is not waited for again.
          fail(chunk.getFailure());
          return;
        }
        ByteBuffer bytes = chunk.getByteBuffer();
        int n = bytes.remaining();
        received += n;
        if (afterDropped == null) {
          if (size + n > body.length) {
            body = Arrays.copyOf(body, Math.max(size + n, 2 * body.length));
          }
          bytes.get(body, size, n);
          size += n;
          if (size > maxBody) {
            giveBack.run();
            drop(this::handOnTooLarge);
          }
        }
        boolean last = chunk.isLast();
        chunk.release();
        if (afterDropped != null) {
          if (last || received > dropLimit()) {
            deadline.cancel();
            afterDropped.run();
            return;
          }
        } else if (last) {
          deadline.cancel();
          byte[] whole = size == body.length ? body : Arrays.copyOf(body, size);
          request.setAttribute(BODY_ATTRIBUTE, whole);
          handOn(new BufferedBody(request, whole));
          return;
        }
      }
    }

    /** Hands the request on for the endpoint to answer 413, its body read as far as it will be. */
    void handOnTooLarge() {
      request.setAttribute(TOO_LARGE_ATTRIBUTE, Boolean.TRUE);
      handOn(request);
    }

    private void fail(Throwable failure) {
      onBodyFailed.run();
      deadline.cancel();
      answer(response, 408, "request body not received: " + failure.getMessage(), callback);
    }

    private void handOn(Request withBody) {
      if (starter == Thread.currentThread()) {
        // The body was there at once: this is the request's own thread, which may block.
        downstream(withBody);
      } else {
        // A demand callback, maybe on a selector thread: the handlers downstream may block.
        request.getContext().execute(() -> downstream(withBody));
      }
    }

    private void downstream(Request withBody) {
      try {
        if (!InFlightBytesHandler.super.handle(withBody, response, callback)) {
          Response.writeError(withBody, response, callback, 404);
        }
      } catch (Throwable t) {
        callback.failed(t);
      }
    }
  }

  /** A request whose whole body was read already: read from memory. */
  private static final class BufferedBody extends Request.Wrapper {
    private Content.Chunk next;

    BufferedBody(Request request, byte[] body) {
      super(request);
      this.next = Content.Chunk.from(ByteBuffer.wrap(body), true);
    }

    @Override
    public synchronized Content.Chunk read() {
      Content.Chunk chunk = next;
      next = Content.Chunk.EOF;
      return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
      demandCallback.run();
    }
  }

  /**
   * Whether a body of which {@code bytes} arrived in {@code elapsedNanos} is too slow: judged only
   * after {@link #RATE_GRACE}, and never when no minimum is set.
   */
  static boolean tooSlow(long bytes, long elapsedNanos, long minBytesPerSecond) {
    if (minBytesPerSecond <= 0 || elapsedNanos <= RATE_GRACE.toNanos()) {
      return false;
    }
    // bytes / seconds < minimum, without dividing and without overflow for any body size.
    return (double) bytes * 1e9 < (double) minBytesPerSecond * elapsedNanos;
  }

  private static void answer(Response response, int status, String message, Callback callback) {
    response.setStatus(status);
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
