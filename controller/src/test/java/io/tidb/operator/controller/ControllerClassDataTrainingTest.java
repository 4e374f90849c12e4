package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The image build's training run: the real start and one reconcile, then exit 0. */
class ControllerClassDataTrainingTest {

  /** The one class of the certs module a pod loads: the client's trust in the cluster's CA alone. */
  private static final String CLUSTER_CA_TRUST = "io/tidb/operator/certs/ClusterCaTrust";

  @Test
  void itIsASubcommandOfTheImage() {
    assertTrue(ControllerMain.commandLine(ControllerClassDataTraining.MODE).getSubcommands().containsKey(ControllerClassDataTraining.MODE));
  }

  /**
   * The run ends 0 (the sample's status was written), and the classes the archive is dumped from,
   * recorded as hack/class-data-archive.sh does (its own JVM), are what a pod's start loads and
   * nothing the training alone needs: the JVM writes every archived class's pages at each start.
   */
  @Test
  void theRunReconcilesTheSampleAndLoadsWhatAPodLoadsNotTheTrainingsTools(@TempDir Path dir) throws Exception {
    Path list = dir.resolve("classes.txt");
    Process training = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:DumpLoadedClassList=" + list, "-XX:+UseSerialGC", "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), ControllerMain.class.getName(), ControllerClassDataTraining.MODE)
        .redirectErrorStream(true).redirectOutput(dir.resolve("training.log").toFile()).start();
    assertTrue(training.waitFor(3, TimeUnit.MINUTES), "the training did not end within 3 minutes");
    assertEquals(0, training.exitValue(), () -> log(dir));
    Set<String> classes;
    try (var lines = Files.lines(list)) {
      classes = lines.map(line -> line.split(" ")[0]).collect(Collectors.toSet());
    }

    for (String podLoads : List.of(
        "io/fabric8/kubernetes/api/model/ContainerStatus",
        "io/fabric8/kubernetes/api/model/PersistentVolumeSpec",
        "io/fabric8/kubernetes/api/model/PersistentVolumeClaimStatus",
        "io/fabric8/kubernetes/api/model/apps/StatefulSetStatus",
        "java/security/cert/PKIXCertPathValidatorResult",
        CLUSTER_CA_TRUST)) { // KubeClients.configure
      assertTrue(classes.contains(podLoads), podLoads + " was not loaded");
    }
    for (String toolPackage : List.of(
        "org/bouncycastle/", "org/snakeyaml/engine/v2/parser/", "io/tidb/operator/certs/",
        "io/fabric8/kubernetes/api/model/AuthInfo")) {
      List<String> loaded = classes.stream().filter(name -> name.startsWith(toolPackage))
          .filter(name -> !name.equals(CLUSTER_CA_TRUST)).sorted().limit(5).toList();
      assertTrue(loaded.isEmpty(), "the training loaded " + loaded);
    }
  }

  private static String log(Path dir) {
    try {
      return Files.readString(dir.resolve("training.log"));
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }
}
