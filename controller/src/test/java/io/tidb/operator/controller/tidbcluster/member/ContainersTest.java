package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ContainersTest {
  private final Container main = new ContainerBuilder()
      .withName("tidb")
      .withImage("pingcap/tidb:v8.5.7")
      .withCommand("/bin/sh", "/usr/local/bin/tidb_start_script.sh")
      .addNewEnv().withName("A").withValue("1").endEnv()
      .addNewEnv().withName("B").withValue("2").endEnv()
      .addNewPort().withName("server").withContainerPort(4000).endPort()
      .addNewVolumeMount().withName("config").withMountPath("/etc/tidb").endVolumeMount()
      .build();

  @Test
  void sameNamedContainerPatchesTheMainOne() {
    Container patch = new ContainerBuilder()
        .withName("tidb")
        .withImage("my/tidb:patched")
        .addNewEnv().withName("B").withValue("patched").endEnv()
        .addNewEnv().withName("C").withValue("3").endEnv()
        .addNewPort().withName("mysql").withContainerPort(4000).endPort()
        .addNewVolumeMount().withName("extra").withMountPath("/extra").endVolumeMount()
        .build();
    List<Container> out = Containers.mergeSidecars(main, List.of(patch));
    assertEquals(1, out.size());
    Container merged = out.get(0);
    assertEquals("my/tidb:patched", merged.getImage());
    assertEquals(main.getCommand(), merged.getCommand(), "fields the patch leaves unset are kept");
    assertEquals(List.of("A=1", "B=patched", "C=3"),
        merged.getEnv().stream().map(e -> e.getName() + "=" + e.getValue()).collect(Collectors.toList()));
    assertEquals(List.of("mysql"), merged.getPorts().stream().map(p -> p.getName()).collect(Collectors.toList()));
    assertEquals(List.of("/etc/tidb", "/extra"),
        merged.getVolumeMounts().stream().map(m -> m.getMountPath()).collect(Collectors.toList()));
  }

  @Test
  void otherContainersBecomeSidecarsAfterTheMainOne() {
    Container sidecar = new ContainerBuilder().withName("proxy").withImage("envoy").build();
    List<Container> out = Containers.mergeSidecars(main, List.of(sidecar));
    assertEquals(List.of("tidb", "proxy"), out.stream().map(Container::getName).collect(Collectors.toList()));
    assertEquals(main, out.get(0));
  }

  @Test
  void noAdditionalContainersLeavesMainAlone() {
    assertEquals(List.of(main), Containers.mergeSidecars(main, null));
  }
}
