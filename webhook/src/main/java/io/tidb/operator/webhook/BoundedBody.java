package io.tidb.operator.webhook;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a request body, refusing to hold more than a limit in memory. */
final class BoundedBody {

  private BoundedBody() {}

  /**
   * All bytes of {@code in}.
   *
   * @param declaredLength the Content-Length header, or -1 when absent (chunked)
   * @throws RequestTooLargeException as soon as the declared or read length passes {@code limit}
   */
  static byte[] read(InputStream in, long declaredLength, int limit) throws IOException {
    if (declaredLength > limit) {
      throw new RequestTooLargeException(limit);
    }
    int initial = declaredLength > 0 ? (int) declaredLength : 8192;
    ByteArrayOutputStream out = new ByteArrayOutputStream(initial);
    byte[] buffer = new byte[8192];
    int total = 0;
    int n;
    while ((n = in.read(buffer)) != -1) {
      total += n;
      if (total > limit) {
        throw new RequestTooLargeException(limit);
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
