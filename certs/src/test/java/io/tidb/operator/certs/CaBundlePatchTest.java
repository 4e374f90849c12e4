package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CaBundlePatchTest {

  @Test
  void setsOnlyEntriesThatDifferEachGuardedByItsName() {
    List<CaBundlePatch.Entry> entries =
        List.of(
            new CaBundlePatch.Entry("a.pingcap.com", "Cg==", true),
            new CaBundlePatch.Entry("b.pingcap.com", "WANTED", true),
            new CaBundlePatch.Entry("c.pingcap.com", null, true),
            new CaBundlePatch.Entry("d.pingcap.com", null, false));

    List<Map<String, Object>> ops = CaBundlePatch.operations(entries, "WANTED");

    assertEquals(
        List.of(
            Map.of("op", "test", "path", "/webhooks/0/name", "value", "a.pingcap.com"),
            Map.of("op", "add", "path", "/webhooks/0/clientConfig/caBundle", "value", "WANTED"),
            Map.of("op", "test", "path", "/webhooks/2/name", "value", "c.pingcap.com"),
            Map.of("op", "add", "path", "/webhooks/2/clientConfig/caBundle", "value", "WANTED"),
            Map.of("op", "test", "path", "/webhooks/3/name", "value", "d.pingcap.com"),
            Map.of("op", "add", "path", "/webhooks/3/clientConfig", "value", Map.of("caBundle", "WANTED"))),
        ops);
  }

  @Test
  void nothingToDoWhenAllMatch() {
    assertTrue(
        CaBundlePatch.operations(List.of(new CaBundlePatch.Entry("a", "X", true)), "X").isEmpty());
  }
}
