package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigMapNamesTest {

  @Test
  void digestIsEightHexDigitsOfSha256AndIgnoresMapOrder() {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("config-file", "x = 1\n");
    a.put("startup-script", "#!/bin/sh\n");
    Map<String, String> b = new LinkedHashMap<>();
    b.put("startup-script", "#!/bin/sh\n");
    b.put("config-file", "x = 1\n");
    String digest = ConfigMapNames.digest(a);
    assertTrue(digest.matches("[0-9a-f]{8}"), digest);
    assertEquals(digest, ConfigMapNames.digest(b));
  }

  @Test
  void digestChangesWithAnyKeyOrValue() {
    String base = ConfigMapNames.digest(Map.of("config-file", "x = 1\n", "startup-script", "s"));
    assertNotEquals(base, ConfigMapNames.digest(Map.of("config-file", "x = 2\n", "startup-script", "s")));
    assertNotEquals(base, ConfigMapNames.digest(Map.of("config-file", "x = 1\n", "startup-script", "t")));
    assertNotEquals(ConfigMapNames.digest(Map.of("ab", "c")), ConfigMapNames.digest(Map.of("a", "bc")),
        "keys and values are delimited");
  }

  @Test
  void digestIsAPinnedFunctionOfTheData() {
    // printf 'config-file\0x = 1\n\0startup-script\0s\0' | sha256sum
    assertEquals("c18a1717", ConfigMapNames.digest(Map.of("config-file", "x = 1\n", "startup-script", "s")));
  }

  @Test
  void rollingUpdateNamesByDigestAndInPlaceKeepsTheBaseName() {
    Map<String, String> data = Map.of("config-file", "", "startup-script", "s");
    assertEquals("demo-tikv-" + ConfigMapNames.digest(data),
        ConfigMapNames.name("demo", TikvObjects.COMPONENT, true, data, Optional.of("demo-tikv")));
    assertEquals("demo-tikv", ConfigMapNames.name("demo", TikvObjects.COMPONENT, false, data, Optional.empty()));
    assertEquals("demo-tikv-1234abcd", ConfigMapNames.name("demo", TikvObjects.COMPONENT, false, data, Optional.of("demo-tikv-1234abcd")));
    assertEquals("demo-tikv", ConfigMapNames.name("demo", TikvObjects.COMPONENT, false, data, Optional.of("other-cm")),
        "a mounted name that is not this component's ConfigMap is not kept");
  }

  @Test
  void inUseReadsTheConfigVolumeOfAStatefulSet() {
    StatefulSet set = new StatefulSetBuilder()
        .withNewSpec().withNewTemplate().withNewSpec()
        .addNewVolume().withName("annotations").withNewDownwardAPI().endDownwardAPI().endVolume()
        .addNewVolume().withName("config").withNewConfigMap().withName("demo-pd-0badcafe").endConfigMap().endVolume()
        .endSpec().endTemplate().endSpec()
        .build();
    assertEquals(Optional.of("demo-pd-0badcafe"), ConfigMapNames.inUse(set));
    assertEquals(Optional.empty(), ConfigMapNames.inUse(null));
    assertEquals(Optional.empty(), ConfigMapNames.inUse(new StatefulSetBuilder().withNewSpec().endSpec().build()));
  }
}
