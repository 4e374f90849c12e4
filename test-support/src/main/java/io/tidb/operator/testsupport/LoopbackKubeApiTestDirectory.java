package io.tidb.operator.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A kube-api-test directory whose {@code etcd} and {@code kube-apiserver} are small bash scripts that
 * {@code exec} the real binaries with every {@code http://0.0.0.0:} and {@code http://localhost:} URL rewritten to
 * {@code 127.0.0.1}. kube-api-test 7.5.2 hard-wires etcd's client URL to {@code http://0.0.0.0:<port>}
 * (and the apiserver's {@code --etcd-servers} to the same); with these scripts nothing listens beyond
 * loopback. Because the scripts {@code exec}, kube-api-test still stops the real process.
 */
final class LoopbackKubeApiTestDirectory {

  /** Bash: the arguments with {@code //0.0.0.0:} (URL hosts only, not CIDRs like 10.0.0.0/24) made {@code //127.0.0.1:}. */
  private static final String WILDCARD_URLS_TO_LOOPBACK = "${@//\\/\\/0.0.0.0:/\\/\\/127.0.0.1:}";

  private LoopbackKubeApiTestDirectory() {
  }

  /** Fills {@code dir} (kube-api-test's test dir) with scripts pointing at {@code real}; returns {@code dir}. */
  static Path create(KubernetesBinaries real, Path dir) {
    real.requirePresent("etcd", "kube-apiserver", "kubectl");
    Path bin = new KubernetesBinaries(dir, real.version()).directory();
    try {
      Files.createDirectories(bin);
      writeScript(bin.resolve("etcd"), etcdScript(real.binary("etcd")));
      writeScript(bin.resolve("kube-apiserver"), apiServerScript(real.binary("kube-apiserver")));
      Files.deleteIfExists(bin.resolve("kubectl"));
      Files.createSymbolicLink(bin.resolve("kubectl"), real.binary("kubectl"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare kube-api-test directory " + dir, e);
    }
    return dir;
  }

  /** etcd: loopback client and peer URLs; fsync off (test data is thrown away). */
  static String etcdScript(Path realEtcd) {
    return header(realEtcd)
        + "args=(\"" + WILDCARD_URLS_TO_LOOPBACK + "\")\n"
        + "exec " + quoted(realEtcd) + " \"${args[@]//\\/\\/localhost:/\\/\\/127.0.0.1:}\" --unsafe-no-fsync=true\n";
  }

  /** kube-apiserver: etcd at 127.0.0.1 (bind and advertise addresses come as flags from the Java side). */
  static String apiServerScript(Path realApiServer) {
    return header(realApiServer)
        + "exec " + quoted(realApiServer) + " \"" + WILDCARD_URLS_TO_LOOPBACK + "\"\n";
  }

  private static String header(Path real) {
    return "#!/usr/bin/env bash\n"
        + "# Written by io.tidb.operator.testsupport: runs " + real.getFileName()
        + " with every listen/peer address on 127.0.0.1.\n";
  }

  static String quoted(Path path) {
    String text = path.toString();
    if (text.contains("'")) {
      throw new IllegalArgumentException("binary path must not contain a single quote: " + text);
    }
    return "'" + text + "'";
  }

  private static void writeScript(Path file, String content) throws IOException {
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
