package io.tidb.operator.controller.runtime;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Rewrites a stream of UTF-8 JSON text, chunk by chunk, as pure ASCII: every character outside
 * ASCII becomes its JSON escape ({@code \}{@code u00fc}; a character beyond the Basic Multilingual
 * Plane its two surrogate escapes). In JSON such characters can only stand inside strings, where
 * the escape reads back as the same character, so the values the text holds are unchanged.
 *
 * <p>Chunks may end inside a character's byte sequence: the incomplete bytes are kept and
 * completed by the next chunk. Bytes that are not UTF-8 become U+FFFD, as a UTF-8 decoder reads
 * them. A chunk of ASCII with nothing kept from the last one is returned as it is, without a copy.
 *
 * <p>One instance per stream, fed its chunks in order from one thread at a time.
 */
public final class JsonAsciiEscaper {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPLACE)
      .onUnmappableCharacter(CodingErrorAction.REPLACE);

  /** The start of a character the last chunk ended inside (at most three bytes). */
  private byte[] kept = new byte[0];

  /**
   * {@code chunk}'s text (from its position to its limit) as ASCII: the chunk itself when it is
   * ASCII and nothing was kept, else a new buffer (the chunk is then read to its limit).
   */
  public ByteBuffer escape(ByteBuffer chunk) {
    if (kept.length == 0 && isAscii(chunk)) {
      return chunk;
    }
    ByteBuffer in = ByteBuffer.allocate(kept.length + chunk.remaining());
    in.put(kept).put(chunk).flip();
    // UTF-8 never decodes to more chars than it has bytes (a replaced byte is one char too).
    CharBuffer chars = CharBuffer.allocate(in.remaining());
    decoder.decode(in, chars, false);
    kept = new byte[in.remaining()];
    in.get(kept);
    chars.flip();
    return ByteBuffer.wrap(asciiJson(chars));
  }

  private static boolean isAscii(ByteBuffer chunk) {
    for (int i = chunk.position(); i < chunk.limit(); i++) {
      if (chunk.get(i) < 0) {
        return false;
      }
    }
    return true;
  }

  private static byte[] asciiJson(CharBuffer chars) {
    int length = 0;
    for (int i = chars.position(); i < chars.limit(); i++) {
      length += chars.get(i) < 0x80 ? 1 : 6;
    }
    byte[] out = new byte[length];
    int at = 0;
    while (chars.hasRemaining()) {
      char c = chars.get();
      if (c < 0x80) {
        out[at++] = (byte) c;
      } else {
        out[at++] = '\\';
        out[at++] = 'u';
        out[at++] = HEX[(c >> 12) & 0xf];
        out[at++] = HEX[(c >> 8) & 0xf];
        out[at++] = HEX[(c >> 4) & 0xf];
        out[at++] = HEX[c & 0xf];
      }
    }
    return out;
  }
}
