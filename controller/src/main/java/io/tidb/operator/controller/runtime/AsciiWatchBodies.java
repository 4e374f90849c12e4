package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands fabric8's watches their events as ASCII JSON ({@link JsonAsciiEscaper}): a fabric8 HTTP
 * {@link Interceptor} that wraps the body consumer of every watch request.
 *
 * <p>Why: the operator's watches are streamed HTTP responses ({@code Config#setOnlyHttpWatches}),
 * and fabric8 7.5.2 splits such a stream into events by decoding each received chunk on its own
 * and appending every char of the decoder's whole buffer. A chunk holding a character of more than
 * one byte leaves NUL chars in the event (the buffer is sized by bytes, not chars), and a
 * character cut between two chunks becomes two U+FFFD. The event then fails to parse ("Illegal
 * unquoted character ((CTRL-CHAR, code 0))") and fabric8 stops the informer: one TidbCluster, Pod
 * or ConfigMap with a non-ASCII annotation, label value or config comment in the namespace, and the
 * operator stopped hearing about its objects. As ASCII, each byte is one char and no character
 * can be cut, so fabric8's splitting is exact; the objects read are the same.
 */
public final class AsciiWatchBodies implements Interceptor {

  /** The interceptor's name on the fabric8 HTTP client builder. */
  public static final String NAME = "tidb-operator-ascii-watch-bodies";

  @Override
  public AsyncBody.Consumer<List<ByteBuffer>> consumer(
      AsyncBody.Consumer<List<ByteBuffer>> consumer, HttpRequest request) {
    if (!KubeApiRequestMetrics.RequestKind.isWatch(request)) {
      return consumer;
    }
    JsonAsciiEscaper escaper = new JsonAsciiEscaper();
    return new AsyncBody.Consumer<>() {
      @Override
      public void consume(List<ByteBuffer> chunks, AsyncBody body) throws Exception {
        List<ByteBuffer> ascii = new ArrayList<>(chunks.size());
        for (ByteBuffer chunk : chunks) {
          ascii.add(escaper.escape(chunk));
        }
        consumer.consume(ascii, body);
      }

      @Override
      public <U> U unwrap(Class<U> target) {
        return consumer.unwrap(target);
      }
    };
  }
}
