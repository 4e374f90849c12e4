package io.tidb.operator.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The repository's root directory, found from the working directory (Maven runs tests in the module
 * directory) or given by the environment variable {@value #ROOT_ENV}.
 */
public final class ProjectDirectory {

  public static final String ROOT_ENV = "TIDB_OPERATOR_REPO_ROOT";
  static final String MARKER = "hack/control-plane.sh";

  private ProjectDirectory() {
  }

  /** The repository root, or an {@link IllegalStateException} saying how to point at it. */
  public static Path root() {
    String configured = System.getenv(ROOT_ENV);
    if (configured != null && !configured.isBlank()) {
      Path root = Path.of(configured).toAbsolutePath().normalize();
      if (!isRoot(root)) {
        throw new IllegalStateException(ROOT_ENV + "=" + configured + " has no " + MARKER);
      }
      return root;
    }
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
    return findUpwards(start, ProjectDirectory::isRoot)
        .orElseThrow(() -> new IllegalStateException("no directory above " + start + " contains "
            + MARKER + "; run the tests inside the repository or set " + ROOT_ENV));
  }

  /** {@code charts/tidb-operator/crds}, where the project's generated CRDs live. */
  public static Path crdDirectory() {
    return root().resolve("charts/tidb-operator/crds");
  }

  static boolean isRoot(Path dir) {
    return Files.isRegularFile(dir.resolve(MARKER));
  }

  /** The first of {@code start} and its ancestors that satisfies {@code isRoot}. */
  static Optional<Path> findUpwards(Path start, Predicate<Path> isRoot) {
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (isRoot.test(dir)) {
        return Optional.of(dir);
      }
    }
    return Optional.empty();
  }
}
