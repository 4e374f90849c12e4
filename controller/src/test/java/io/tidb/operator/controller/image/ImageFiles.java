package io.tidb.operator.controller.image;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository outside the module (the image's entry point, hack/ programs). */
final class ImageFiles {

  private ImageFiles() {}

  /** {@code relative} in the first directory at or above the working directory that holds it. */
  static Path repoFile(String relative) {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (dir != null) {
      Path candidate = dir.resolve(relative);
      if (Files.exists(candidate)) {
        return candidate;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException(relative + " not found above " + System.getProperty("user.dir"));
  }
}
