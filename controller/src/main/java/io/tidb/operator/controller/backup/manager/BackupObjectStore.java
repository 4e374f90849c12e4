package io.tidb.operator.controller.backup.manager;

import java.util.List;

/**
 * One backup's objects in a bucket or container, as the clean-up sees them through the storage's
 * own SDK: listed a page at a time (the keys still there, under the backup's prefix) and deleted
 * in batches or one by one. Failures are the SDK's runtime exceptions; the clean-up retries them.
 */
interface BackupObjectStore extends AutoCloseable {

  /** At most {@code max} keys under the prefix, in the store's order; empty when none is left. */
  List<String> page(int max);

  /**
   * Deletes {@code keys} in one request where the store has one.
   *
   * @throws BatchUnsupportedException when the server does not implement batch deletion
   */
  void deleteBatch(List<String> keys);

  /** Deletes one object; one that is gone already counts as deleted. */
  void delete(String key);

  @Override
  void close();

  /**
   * A failure in one line a person can read in the Backup's status: by default the exception's
   * message on one line, at most 300 characters; stores whose SDK puts a whole response body in
   * the message say less.
   */
  default String explain(RuntimeException e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    m = m.replaceAll("\\s+", " ").trim();
    return m.length() <= 300 ? m : m.substring(0, 300) + "...";
  }

  /** The server does not implement batch deletion (e.g. HTTP 501): delete one by one instead. */
  final class BatchUnsupportedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BatchUnsupportedException(String message) {
      super(message);
    }
  }
}
