package io.tidb.operator.webhook;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection that has not sent a whole request head (request line and headers) within
 * {@code deadline} of being opened or of its last answer: a TLS handshake or a request head that
 * trickles in, a byte at a time, never goes idle, and Jetty bounds neither in time. Without this
 * a few hundred such clients would hold every connection the server accepts.
 *
 * <p>A connection is judged only while it waits for a request head; once the head has arrived,
 * the body's own deadline and data rate ({@link InFlightBytesHandler}) take over. Connections are
 * swept a few times per deadline, so one is closed at most a quarter of the deadline late.
 */
final class RequestHeadDeadline extends AbstractLifeCycle
    implements Connection.Listener, HttpConfiguration.Customizer {

  /** Since when a connection waits for a request head (0: it is in a request). */
  private static final class Waiting {
    volatile long sinceNanos;

    Waiting(long sinceNanos) {
      this.sinceNanos = sinceNanos;
    }
  }

  private final Duration deadline;
  private final Scheduler scheduler;
  private final Runnable onClosed;
  /**
   * By network end point (compared by identity). Not by remote address: a closed end point no
   * longer knows its remote address, and entries were never removed.
   */
  private final Map<EndPoint, Waiting> connections = new ConcurrentHashMap<>();
  private volatile Scheduler.Task sweep;

  /**
   * @param deadline how long a connection may take to send a whole request head
   * @param scheduler runs the sweeps
   * @param onClosed called for every connection closed here (metrics)
   */
  RequestHeadDeadline(Duration deadline, Scheduler scheduler, Runnable onClosed) {
    this.deadline = deadline;
    this.scheduler = scheduler;
    this.onClosed = onClosed;
  }

  @Override
  protected void doStart() {
    scheduleSweep();
  }

  @Override
  protected void doStop() {
    Scheduler.Task task = sweep;
    if (task != null) {
      task.cancel();
    }
  }

  private void scheduleSweep() {
    if (isRunning() || isStarting()) {
      sweep = scheduler.schedule(this::sweep, Math.max(1, deadline.toMillis() / 4), TimeUnit.MILLISECONDS);
    }
  }

  private void sweep() {
    try {
      long now = System.nanoTime();
      connections.forEach((endPoint, waiting) -> {
        if (overdue(waiting.sinceNanos, now, deadline)) {
          onClosed.run();
          endPoint.close();
        }
      });
    } finally {
      scheduleSweep();
    }
  }

  /** Whether a connection waiting since {@code sinceNanos} (0: not waiting) is past the deadline. */
  private static boolean overdue(long sinceNanos, long nowNanos, Duration deadline) {
    return sinceNanos != 0 && nowNanos - sinceNanos > deadline.toNanos();
  }

  private static long waitingFrom(long nowNanos) {
    return nowNanos == 0 ? 1 : nowNanos;
  }

  @Override
  public void onOpened(Connection connection) {
    // The first connection on a socket (TLS, before any byte of HTTP); not the HTTP one on top.
    if (!(connection.getEndPoint() instanceof EndPoint.Wrapper)) {
      connections.put(connection.getEndPoint(), new Waiting(waitingFrom(System.nanoTime())));
    }
  }

  @Override
  public void onClosed(Connection connection) {
    if (!(connection.getEndPoint() instanceof EndPoint.Wrapper)) {
      connections.remove(connection.getEndPoint());
    }
  }

  /** A request head arrived: the connection is in a request until its answer is complete. */
  @Override
  public Request customize(Request request, HttpFields.Mutable responseHeaders) {
    Waiting waiting = connections.get(network(request.getConnectionMetaData().getConnection().getEndPoint()));
    if (waiting != null) {
      waiting.sinceNanos = 0;
      Request.addCompletionListener(request, failure -> waiting.sinceNanos = waitingFrom(System.nanoTime()));
    }
    return request;
  }

  /** The socket's end point under any wrapping (TLS). */
  private static EndPoint network(EndPoint endPoint) {
    EndPoint unwrapped = endPoint;
    while (unwrapped instanceof EndPoint.Wrapper wrapper) {
      unwrapped = wrapper.unwrap();
    }
    return unwrapped;
  }

  /** Connections open now. */
  int open() {
    return connections.size();
  }
}
