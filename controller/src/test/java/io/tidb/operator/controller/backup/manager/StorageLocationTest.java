package io.tidb.operator.controller.backup.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StorageLocationTest {

  private static StorageLocation ok(String url) {
    return StorageLocation.parse(url).location().orElseThrow(() -> new AssertionError(url));
  }

  private static String refused(String url) {
    StorageLocation.Result r = StorageLocation.parse(url);
    assertTrue(r.location().isEmpty(), url + " should be refused");
    return r.refusal();
  }

  @Test
  void eachStoreGivesItsBucketAndAPrefixEndingWithASlash() {
    assertEquals(new StorageLocation("s3", "backups", "team/b1/"), ok("s3://backups/team/b1"));
    assertEquals(new StorageLocation("gcs", "g", "team/b1/"), ok("gcs://g/team/b1/"));
    assertEquals(new StorageLocation("azure", "c", "p/"), ok("azure://c//p//"));
    assertEquals(new StorageLocation("local", "", "/backup/team"), ok("local:///backup/team"));
  }

  @Test
  void aWholeBucketOrAnUnknownStoreIsRefused() {
    assertEquals("refusing to delete a whole bucket: s3://backups names no prefix", refused("s3://backups"));
    assertEquals("refusing to delete a whole bucket: gcs://g/ names no prefix", refused("gcs://g/"));
    assertEquals("refusing to delete local:/// : it names no directory below /".replace(" :", ":"),
        refused("local:///"));
    assertEquals("storage hdfs://x/y is not supported; one of s3://, gcs://, azure://, local://",
        refused("hdfs://x/y"));
    assertEquals("storage gcs:///p names no bucket", refused("gcs:///p"));
  }
}
