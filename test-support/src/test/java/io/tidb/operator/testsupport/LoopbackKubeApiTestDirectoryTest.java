package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopbackKubeApiTestDirectoryTest {

  @TempDir
  Path dir;

  @Test
  void etcdScriptRewritesKubeApiTestsWildcardAndLocalhostUrls() throws Exception {
    Path script = script(LoopbackKubeApiTestDirectory.etcdScript(echoBinary()));

    List<String> args = run(script, "-data-dir", "/tmp/etcddata1",
        "--listen-client-urls", "http://0.0.0.0:50001", "--advertise-client-urls", "http://0.0.0.0:50001",
        "--initial-cluster", "default=http://localhost:50002", "--listen-peer-urls", "http://localhost:50002",
        "two words", "10.0.0.0/24");

    assertEquals(List.of("-data-dir", "/tmp/etcddata1",
        "--listen-client-urls", "http://127.0.0.1:50001", "--advertise-client-urls", "http://127.0.0.1:50001",
        "--initial-cluster", "default=http://127.0.0.1:50002", "--listen-peer-urls", "http://127.0.0.1:50002",
        "two words", "10.0.0.0/24", "--unsafe-no-fsync=true"), args);
  }

  @Test
  void apiServerScriptPointsEtcdServersAtLoopbackAndKeepsOtherArguments() throws Exception {
    Path script = script(LoopbackKubeApiTestDirectory.apiServerScript(echoBinary()));

    List<String> args = run(script, "--bind-address", "127.0.0.1", "--etcd-servers", "http://0.0.0.0:50001",
        "--service-account-issuer", "https://localhost", "--service-cluster-ip-range", "10.0.0.0/24");

    assertEquals(List.of("--bind-address", "127.0.0.1", "--etcd-servers", "http://127.0.0.1:50001",
        "--service-account-issuer", "https://localhost", "--service-cluster-ip-range", "10.0.0.0/24"), args);
  }

  @Test
  void createLaysOutScriptsAndKubectlLinkInKubeApiTestsLayout() throws Exception {
    KubernetesBinaries real = new KubernetesBinaries(dir.resolve("real"), "1.36.3");
    Files.createDirectories(real.directory());
    for (String name : List.of("etcd", "kube-apiserver", "kubectl")) {
      executable(real.binary(name), "#!/bin/sh\n");
    }

    Path testDir = LoopbackKubeApiTestDirectory.create(real, dir.resolve("wrapped"));

    Path bin = testDir.resolve("k8s/1.36.3-linux-amd64");
    assertTrue(Files.readString(bin.resolve("etcd")).contains("exec '" + real.binary("etcd") + "'"));
    assertTrue(Files.isExecutable(bin.resolve("kube-apiserver")));
    assertEquals(real.binary("kubectl"), Files.readSymbolicLink(bin.resolve("kubectl")));
  }

  @Test
  void createFailsWithBuildHintWhenRealBinariesAreMissing() {
    KubernetesBinaries real = new KubernetesBinaries(dir.resolve("none"), "1.36.3");

    MissingBinariesException e = assertThrows(MissingBinariesException.class,
        () -> LoopbackKubeApiTestDirectory.create(real, dir.resolve("wrapped")));

    assertTrue(e.getMessage().contains("etcd, kube-apiserver, kubectl"), e.getMessage());
  }

  @Test
  void quotedRejectsPathsThatWouldBreakTheScript() {
    assertEquals("'/a b/etcd'", LoopbackKubeApiTestDirectory.quoted(Path.of("/a b/etcd")));
    assertThrows(IllegalArgumentException.class, () -> LoopbackKubeApiTestDirectory.quoted(Path.of("/it's/etcd")));
  }

  /** A stand-in for the real binary: prints each argument on its own line. */
  private Path echoBinary() throws IOException {
    return executable(dir.resolve("echo-args"), "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
  }

  private Path script(String content) throws IOException {
    return executable(dir.resolve("wrapper"), content);
  }

  private static Path executable(Path file, String content) throws IOException {
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  private static List<String> run(Path script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(script.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), out);
    return out.lines().toList();
  }
}
