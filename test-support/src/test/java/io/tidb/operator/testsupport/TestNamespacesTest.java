package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestNamespacesTest {

  @Test
  void nameIsPrefixPlusSixCharacterSuffix() {
    assertEquals("examples-00000z", TestNamespaces.uniqueName("examples", 35));
  }

  @Test
  void prefixIsCleanedToADns1123Label() {
    assertEquals("tidbclusterexamplesit-basic-tls-000001",
        TestNamespaces.uniqueName("TidbClusterExamplesIT.basic_tls", 1));
    assertEquals("test-000001", TestNamespaces.uniqueName("__", 1));
  }

  @Test
  void longPrefixesAreCutSoTheNameFitsA63CharacterLabel() {
    String name = TestNamespaces.uniqueName("a".repeat(49) + "-" + "b".repeat(30), Integer.MAX_VALUE);

    assertEquals("a".repeat(49) + "-zik0zj", name);
    assertTrue(name.length() <= 63);
  }
}
