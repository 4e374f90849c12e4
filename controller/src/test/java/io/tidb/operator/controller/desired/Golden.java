package io.tidb.operator.controller.desired;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.tidb.operator.api.ApiObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden-file assertions: an object's YAML must equal the reviewed file under
 * {@code src/test/resources/desired/golden/}. Run with {@code -Dgolden.update=true} to rewrite the
 * files after an intended change, then review the diff; a missing file is written and the test fails.
 */
final class Golden {
  private static final Path ROOT = Path.of("src/test/resources/desired/golden");

  private Golden() {}

  static void assertYaml(String file, Object object) {
    assertText(file, ApiObjects.serialization().asYaml(object));
  }

  static void assertText(String file, String actual) {
    Path path = ROOT.resolve(file);
    try {
      if (Boolean.getBoolean("golden.update")) {
        Files.createDirectories(path.getParent());
        Files.writeString(path, actual, StandardCharsets.UTF_8);
        return;
      }
      if (!Files.exists(path)) {
        Files.createDirectories(path.getParent());
        Files.writeString(path, actual, StandardCharsets.UTF_8);
        fail("golden file " + path + " did not exist; it was written now: review and commit it");
      }
      assertEquals(Files.readString(path, StandardCharsets.UTF_8), actual,
          "differs from " + path + " (rerun with -Dgolden.update=true after an intended change)");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
