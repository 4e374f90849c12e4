package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import org.junit.jupiter.api.Test;

class ImagesTest {
  @Test
  void baseImageTakesTheComponentVersionElseTheClusterVersion() {
    assertEquals("pingcap/pd:v8.5.7", Images.resolve(ClusterAddresses.PD, "pingcap/pd", null, null, "v8.5.7"));
    assertEquals("pingcap/pd:v8.5.6", Images.resolve(ClusterAddresses.PD, "pingcap/pd", null, "v8.5.6", "v8.5.7"));
    assertEquals("pingcap/pd", Images.resolve(ClusterAddresses.PD, "pingcap/pd", null, null, null));
    assertEquals("pingcap/pd", Images.resolve(ClusterAddresses.PD, "pingcap/pd", null, "", "v8.5.7"),
        "an explicitly empty component version means no tag");
  }

  @Test
  void baseImageWinsOverTheDeprecatedImageField() {
    assertEquals("pingcap/tikv:v8.5.7", Images.resolve(TikvObjects.COMPONENT, "pingcap/tikv", "my/tikv:old", null, "v8.5.7"));
  }

  @Test
  void imageIsUsedAsWrittenWithoutBaseImage() {
    assertEquals("my/tikv:old", Images.resolve(TikvObjects.COMPONENT, null, "my/tikv:old", null, "v8.5.7"));
    assertEquals("my/tikv:old", Images.resolve(TikvObjects.COMPONENT, "", "my/tikv:old", "v1", "v8.5.7"));
  }

  @Test
  void neitherFieldDefaultsTheBaseImage() {
    assertEquals("pingcap/tidb:v8.5.7", Images.resolve(TidbObjects.COMPONENT, null, null, null, "v8.5.7"));
  }
}
