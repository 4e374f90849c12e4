package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ControllerBenchmarkTest {

  @Test
  void theControllerRunsWithTheSlf4jProviderOfThePackagedControllerOnly() {
    String benchmark = String.join(":",
        "/w/controller/target/classes",
        "/root/.m2/repository/org/slf4j/slf4j-simple/2.0.17/slf4j-simple-2.0.17.jar",
        "/root/.m2/repository/ch/qos/logback/logback-classic/1.5.16/logback-classic-1.5.16.jar",
        "/root/.m2/repository/ch/qos/logback/logback-core/1.5.16/logback-core-1.5.16.jar",
        "/root/.m2/repository/io/fabric8/kubernetes-client/7.5.2/kubernetes-client-7.5.2.jar");
    assertEquals(
        "/w/controller/target/classes:/root/.m2/repository/org/slf4j/slf4j-simple/2.0.17/slf4j-simple-2.0.17.jar"
            + ":/root/.m2/repository/io/fabric8/kubernetes-client/7.5.2/kubernetes-client-7.5.2.jar",
        ControllerBenchmark.controllerClassPath(benchmark));
  }

  @Test
  void volumesWithAnotherPolicyThanAskedAreCounted() {
    assertEquals(30, ControllerBenchmark.volumesWithout(
        java.util.Map.of("Delete", 30L, "Retain", 150L), "Retain"));
    assertEquals(0, ControllerBenchmark.volumesWithout(java.util.Map.of("Retain", 180L), "Retain"));
    assertEquals(2, ControllerBenchmark.volumesWithout(
        java.util.Map.of("null", 1L, "Recycle", 1L), "Retain"));
  }
}
