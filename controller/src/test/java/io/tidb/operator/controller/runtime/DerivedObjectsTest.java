package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An object is built once per key; with the detector on, a change to a kept object fails. */
class DerivedObjectsTest {

  private final AtomicInteger built = new AtomicInteger();

  private ConfigMap build(String value) {
    built.incrementAndGet();
    return new ConfigMapBuilder().withNewMetadata().withName("basic-pd").withNamespace("ns").endMetadata()
        .addToData("config-file", value).build();
  }

  @Test
  void eachKeyIsBuiltOnceAndOtherKeysApart() {
    DerivedObjects derived = new DerivedObjects(false);
    ConfigMap first = derived.get("pd", () -> build("a"));
    assertSame(first, derived.get("pd", () -> build("b")));
    assertEquals(1, built.get());
    assertEquals("b", derived.get("tikv", () -> build("b")).getData().get("config-file"));
    assertEquals(2, built.get());
  }

  @Test
  void withTheDetectorOnAChangedObjectFailsNamingIt() {
    DerivedObjects derived = new DerivedObjects(true);
    ConfigMap cm = derived.get("pd", () -> build("a"));
    assertDoesNotThrow(derived::verifyUnchanged);
    cm.getData().put("config-file", "changed");
    IllegalStateException e = assertThrows(IllegalStateException.class, derived::verifyUnchanged);
    assertTrue(e.getMessage().contains("ConfigMap ns/basic-pd"), e.getMessage());
  }

  @Test
  void withTheDetectorOffNothingIsChecked() {
    DerivedObjects derived = new DerivedObjects(false);
    derived.get("pd", () -> build("a")).getData().put("config-file", "changed");
    assertDoesNotThrow(derived::verifyUnchanged);
  }
}
