package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AsciiWatchBodiesTest {

  private final List<String> received = new ArrayList<>();
  private final AsyncBody.Consumer<List<ByteBuffer>> recorder = (chunks, body) -> {
    for (ByteBuffer chunk : chunks) {
      received.add(StandardCharsets.UTF_8.decode(chunk).toString());
    }
  };

  private AsyncBody.Consumer<List<ByteBuffer>> consumerFor(String uri) {
    return new AsciiWatchBodies().consumer(
        recorder, new StandardHttpRequest.Builder().uri(URI.create(uri)).build());
  }

  @Test
  void aWatchGetsItsChunksAsAscii() throws Exception {
    AsyncBody.Consumer<List<ByteBuffer>> watch =
        consumerFor("https://127.0.0.1:6443/api/v1/namespaces/a/configmaps?allowWatchBookmarks=true&watch=true");
    byte[] bytes = "{\"v\":\"数\"}\n".getBytes(StandardCharsets.UTF_8);
    // the character cut between two chunks
    watch.consume(List.of(ByteBuffer.wrap(bytes, 0, 7), ByteBuffer.wrap(bytes, 7, bytes.length - 7)), null);
    assertEquals(List.of("{\"v\":\"", "\\u6570\"}\n"), received);
  }

  @Test
  void otherRequestsKeepTheirConsumer() {
    assertSame(recorder, consumerFor("https://127.0.0.1:6443/api/v1/namespaces/a/configmaps"));
    assertSame(recorder, consumerFor("https://127.0.0.1:6443/api/v1/namespaces/a/configmaps?allowWatchBookmarks=true"));
  }
}
