package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesBinariesTest {

  @Test
  void defaultsToKubeApiTestLayoutUnderHome() {
    KubernetesBinaries binaries = KubernetesBinaries.resolve(Map.of(), null, Path.of("/home/dev"));

    assertEquals(Path.of("/home/dev/.kubeapitest/k8s/1.36.3-linux-amd64"), binaries.directory());
    assertEquals(Path.of("/home/dev/.kubeapitest/k8s/1.36.3-linux-amd64/etcd"), binaries.binary("etcd"));
  }

  @Test
  void versionPropertyWinsOverEnvironmentAndDirectoryFollowsKubeApiTestDir() {
    KubernetesBinaries binaries = KubernetesBinaries.resolve(
        Map.of("KUBE_API_TEST_DIR", "/opt/k", "K8S_VERSION", "1.35.0"), "1.36.4", Path.of("/home/dev"));

    assertEquals(Path.of("/opt/k/k8s/1.36.4-linux-amd64"), binaries.directory());
  }

  @Test
  void environmentVersionIsUsedWithoutProperty() {
    KubernetesBinaries binaries = KubernetesBinaries.resolve(Map.of("K8S_VERSION", "1.35.0"), " ", Path.of("/h"));

    assertEquals("1.35.0", binaries.version());
  }

  @Test
  void missingListsOnlyAbsentNames() {
    assertEquals(List.of("kwok"),
        KubernetesBinaries.missing(List.of("etcd", "kwok"), name -> name.equals("etcd")));
  }

  @Test
  void requirePresentNamesTheDirectoryTheMissingBinariesAndTheBuildScript(@TempDir Path dir) throws Exception {
    KubernetesBinaries binaries = new KubernetesBinaries(dir, "1.36.3");
    Files.createDirectories(binaries.directory());
    Path etcd = Files.createFile(binaries.binary("etcd"));
    assertTrue(etcd.toFile().setExecutable(true));

    MissingBinariesException e = assertThrows(MissingBinariesException.class,
        () -> binaries.requirePresent("etcd", "kube-apiserver", "kubectl"));

    assertTrue(e.getMessage().contains(binaries.directory() + ": kube-apiserver, kubectl"), e.getMessage());
    assertTrue(e.getMessage().contains("hack/build-binaries.sh"), e.getMessage());
  }
}
