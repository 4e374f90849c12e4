package io.tidb.operator.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Where hack/build-binaries.sh put the pinned control-plane binaries: kube-api-test's layout,
 * {@code <testDir>/k8s/<version>-linux-amd64/}.
 *
 * @param testDir kube-api-test's root directory ({@code KUBE_API_TEST_DIR}, default {@code ~/.kubeapitest})
 * @param version the Kubernetes version (system property {@code k8s.version}, set by the build)
 */
public record KubernetesBinaries(Path testDir, String version) {

  public static final String DEFAULT_VERSION = "1.36.3";
  public static final String PLATFORM_SUFFIX = "-linux-amd64";

  /** The location the build script and this JVM's settings agree on. */
  public static KubernetesBinaries fromEnvironment() {
    return resolve(System.getenv(), System.getProperty("k8s.version"), Path.of(System.getProperty("user.home")));
  }

  static KubernetesBinaries resolve(Map<String, String> env, String versionProperty, Path home) {
    String dir = env.get("KUBE_API_TEST_DIR");
    Path testDir = dir == null || dir.isBlank() ? home.resolve(".kubeapitest") : Path.of(dir);
    String version = firstNonBlank(versionProperty, env.get("K8S_VERSION"), DEFAULT_VERSION);
    return new KubernetesBinaries(testDir.toAbsolutePath().normalize(), version);
  }

  public Path directory() {
    return testDir.resolve("k8s").resolve(version + PLATFORM_SUFFIX);
  }

  public Path binary(String name) {
    return directory().resolve(name);
  }

  /** Returns this if every named binary is an executable file, else throws {@link MissingBinariesException}. */
  public KubernetesBinaries requirePresent(String... names) {
    List<String> missing = missing(Arrays.asList(names), name -> Files.isExecutable(binary(name)));
    if (!missing.isEmpty()) {
      throw new MissingBinariesException(directory(), missing);
    }
    return this;
  }

  static List<String> missing(List<String> names, Predicate<String> present) {
    return names.stream().filter(present.negate()).toList();
  }

  private static String firstNonBlank(String... values) {
    for (String value : values) {
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    throw new IllegalArgumentException("no non-blank value");
  }
}
