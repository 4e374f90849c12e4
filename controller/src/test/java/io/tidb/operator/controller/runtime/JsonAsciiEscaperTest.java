package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonAsciiEscaperTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Two watch events, with characters of two, three and four bytes, and the ASCII around them. */
  private static final String EVENTS =
      "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\",\"annotations\":{\"note\":\"数据库 ümlaut 😀 ✓\"}}}}\n"
          + "{\"type\":\"MODIFIED\",\"object\":{\"data\":{\"config.toml\":\"# 注释\\n[log]\\nlevel = \\\"info\\\"\"}}}\n";

  @Test
  void anAsciiChunkIsHandedOnAsItIs() {
    ByteBuffer chunk = ByteBuffer.wrap("{\"type\":\"ADDED\"}\n".getBytes(StandardCharsets.US_ASCII));
    assertSame(chunk, new JsonAsciiEscaper().escape(chunk));
  }

  @Test
  void everyCharacterBeyondAsciiBecomesItsEscape() {
    String out = text(new JsonAsciiEscaper().escape(utf8("\"ü数😀\"")));
    assertEquals("\"\\u00fc\\u6570\\ud83d\\ude00\"", out);
  }

  /**
   * Cut anywhere, even inside a character, the chunks come out as ASCII that reads as the same
   * JSON values; and each chunk decodes to exactly its bytes' count of chars, the property fabric8's
   * event splitting relies on (it appends every char of the decoder's whole buffer).
   */
  @Test
  void chunksCutAnywhereReadAsTheSameEvents() throws Exception {
    byte[] bytes = EVENTS.getBytes(StandardCharsets.UTF_8);
    Random random = new Random(7);
    for (int run = 0; run < 500; run++) {
      JsonAsciiEscaper escaper = new JsonAsciiEscaper();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int at = 0;
      while (at < bytes.length) {
        int length = Math.min(bytes.length - at, 1 + random.nextInt(run % 2 == 0 ? 4 : 64));
        ByteBuffer escaped = escaper.escape(ByteBuffer.wrap(bytes, at, length).slice());
        char[] decoded = StandardCharsets.UTF_8.decode(escaped.duplicate()).array();
        assertEquals(escaped.remaining(), decoded.length, "chars decoded from an escaped chunk");
        byte[] chunk = new byte[escaped.remaining()];
        escaped.get(chunk);
        out.write(chunk);
        at += length;
      }
      String ascii = out.toString(StandardCharsets.US_ASCII);
      assertTrue(ascii.chars().allMatch(c -> c < 0x80), ascii);
      assertEquals(events(EVENTS), events(ascii));
    }
  }

  @Test
  void bytesThatAreNotUtf8ReadAsTheReplacementCharacter() {
    byte[] bytes = {'"', 'a', (byte) 0xff, 'b', '"'};
    assertEquals("\"a\\ufffdb\"", text(new JsonAsciiEscaper().escape(ByteBuffer.wrap(bytes))));
  }

  private static List<JsonNode> events(String lines) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String line : lines.split("\n")) {
      events.add(JSON.readTree(line));
    }
    return events;
  }

  private static ByteBuffer utf8(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(ByteBuffer ascii) {
    return StandardCharsets.US_ASCII.decode(ascii).toString();
  }
}
