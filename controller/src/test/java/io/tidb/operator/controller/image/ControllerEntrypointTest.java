package io.tidb.operator.controller.image;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.ControllerMain;
import io.tidb.operator.controller.backup.manager.BackupManagerMain;
import io.tidb.operator.controller.initializer.sql.InitializerMain;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryObjects;
import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docker/controller-entrypoint.sh, run with a {@code java} on its PATH that prints its arguments:
 * the backup-manager mode, and it alone, gets lib/backup-manager/ after lib/ (so the class-data
 * archive, recorded with lib/ alone, still applies); every mode gets the archive and the main
 * class, and the mode's own arguments unchanged.
 */
class ControllerEntrypointTest {

  private static final String LIB = "/opt/tidb-operator/lib/*";

  @TempDir Path bin;

  /** The stand-in {@code java}: prints its arguments, one per line. */
  @BeforeEach
  void standInJava() throws IOException {
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void theBackupManagerAloneHasItsLibrariesOnTheClassPath() throws Exception {
    assertEquals(java(LIB + ":/opt/tidb-operator/lib/backup-manager/*", BackupManagerMain.MODE, "clean", "--x=a b"),
        run(BackupManagerMain.MODE, "clean", "--x=a b"));
    assertEquals(java(LIB, InitializerMain.MODE, "--y"), run(InitializerMain.MODE, "--y"));
    assertEquals(java(LIB, DiscoveryObjects.MODE), run(DiscoveryObjects.MODE));
    assertEquals(java(LIB, "--watch-namespace=ns"), run("--watch-namespace=ns"));
    assertEquals(java(LIB), run());
  }

  private static List<String> java(String classpath, String... args) {
    List<String> line = new ArrayList<>(List.of("-XX:SharedArchiveFile=/opt/tidb-operator/controller.jsa",
        "-XX:-UsePerfData", "-cp", classpath, ControllerMain.class.getName()));
    line.addAll(List.of(args));
    return line;
  }

  /** The arguments the entry point gave java, one per line as the stand-in printed them. */
  private List<String> run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        "sh", ProjectDirectory.root().resolve("docker/controller-entrypoint.sh").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("PATH", bin + ":/usr/bin:/bin");
    Process p = pb.redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out.lines().toList();
  }
}
