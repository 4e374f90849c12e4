package io.tidb.operator.controller.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.testsupport.ProjectDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hack/SubtreeOnlyJars.java, which hack/image-lib.sh asks which jars only the backup-manager's
 * libraries need, on a verbose dependency tree shaped as Maven writes it.
 */
class SubtreeOnlyJarsTest {

  /**
   * {@code shared-lib} is written in full under the SDK (its first path) and reached again,
   * omitted, from the client; its own dependency {@code shared-dep} appears only under the SDK's
   * entry. Both stay with the other modes. {@code sdk-only} and a classified jar are the SDK's
   * alone; a version lost to conflict is not a jar at all.
   */
  private static final String TREE = """
      io.tidb.operator:controller:jar:0.1.0-SNAPSHOT
      +- com.example:sdk:jar:1.0:compile
      |  +- com.example:shared-lib:jar:2.0:compile
      |  |  \\- com.example:shared-dep:jar:3.0:compile
      |  +- com.example:sdk-only:jar:1.1:compile
      |  |  \\- (com.example:shared-lib:jar:2.0:compile - omitted for duplicate)
      |  \\- io.netty:netty-native:jar:linux-x86_64:4.1:runtime
      +- com.example:client:jar:5.0:compile
      |  +- (com.example:shared-lib:jar:1.9:compile - omitted for conflict with 2.0)
      |  \\- com.example:client-dep:jar:5.1:compile
      \\- com.example:other-sdk:jar:7.0:compile
      """;

  @TempDir Path dir;

  @Test
  void jarsOnlyTheNamedRootsReach() throws Exception {
    Path tree = Files.writeString(dir.resolve("tree.txt"), TREE);
    Result r = run(tree.toString(), "com.example:sdk", "com.example:other-sdk");
    assertEquals(0, r.exit(), r.output());
    assertEquals(List.of("sdk-1.0.jar", "sdk-only-1.1.jar", "netty-native-4.1-linux-x86_64.jar", "other-sdk-7.0.jar"),
        r.output().lines().toList());
  }

  @Test
  void aRootThatIsNotADirectDependencyIsRefused() throws Exception {
    Path tree = Files.writeString(dir.resolve("tree.txt"), TREE);
    Result r = run(tree.toString(), "com.example:sdk-only");
    assertNotEquals(0, r.exit());
    assertTrue(r.output().contains("com.example:sdk-only is not a direct runtime dependency"), r.output());
  }

  private record Result(int exit, String output) {}

  private static Result run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        ProjectDirectory.root().resolve("hack/SubtreeOnlyJars.java").toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), out);
  }
}
