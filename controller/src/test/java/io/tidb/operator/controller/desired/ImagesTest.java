package io.tidb.operator.controller.desired;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ImagesTest {
  @Test
  void baseImageTakesTheComponentVersionElseTheClusterVersion() {
    assertEquals("pingcap/pd:v8.5.7", Images.resolve(Component.PD, "pingcap/pd", null, null, "v8.5.7"));
    assertEquals("pingcap/pd:v8.5.6", Images.resolve(Component.PD, "pingcap/pd", null, "v8.5.6", "v8.5.7"));
    assertEquals("pingcap/pd", Images.resolve(Component.PD, "pingcap/pd", null, null, null));
    assertEquals("pingcap/pd", Images.resolve(Component.PD, "pingcap/pd", null, "", "v8.5.7"),
        "an explicitly empty component version means no tag");
  }

  @Test
  void baseImageWinsOverTheDeprecatedImageField() {
    assertEquals("pingcap/tikv:v8.5.7", Images.resolve(Component.TIKV, "pingcap/tikv", "my/tikv:old", null, "v8.5.7"));
  }

  @Test
  void imageIsUsedAsWrittenWithoutBaseImage() {
    assertEquals("my/tikv:old", Images.resolve(Component.TIKV, null, "my/tikv:old", null, "v8.5.7"));
    assertEquals("my/tikv:old", Images.resolve(Component.TIKV, "", "my/tikv:old", "v1", "v8.5.7"));
  }

  @Test
  void neitherFieldDefaultsTheBaseImage() {
    assertEquals("pingcap/tidb:v8.5.7", Images.resolve(Component.TIDB, null, null, null, "v8.5.7"));
  }
}
