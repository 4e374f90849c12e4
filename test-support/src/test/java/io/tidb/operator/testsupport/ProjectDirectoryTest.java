package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectDirectoryTest {

  @Test
  void findsTheNearestAncestorWithTheControlPlaneScript(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("hack"));
    Files.createFile(dir.resolve(ProjectDirectory.MARKER));
    Path module = Files.createDirectories(dir.resolve("test-support/target"));

    assertEquals(Optional.of(dir), ProjectDirectory.findUpwards(module, ProjectDirectory::isRoot));
  }

  @Test
  void findsNothingOutsideARepository(@TempDir Path dir) {
    assertTrue(ProjectDirectory.findUpwards(dir, path -> false).isEmpty());
  }

  @Test
  void theModuleRunsInsideTheRepository() {
    assertTrue(Files.isDirectory(ProjectDirectory.root().resolve("test-support")));
  }
}
