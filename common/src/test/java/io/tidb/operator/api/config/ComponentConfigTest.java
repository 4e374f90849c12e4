package io.tidb.operator.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ComponentConfigTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void tomlStringIsReadAsTables() {
    ComponentConfig config = ComponentConfig.ofToml("[log.file]\nmax-days = 30\n[replication]\nlocation-labels = [\"zone\", \"host\"]\n");
    assertTrue(config.isToml());
    assertEquals(30, config.get("log.file.max-days").orElseThrow().asInt());
    assertEquals("host", config.get("replication.location-labels").orElseThrow().get(1).asText());
    assertEquals(Optional.empty(), config.get("log.file.max-backups"));
  }

  @Test
  void mapIsReadAsIs() throws Exception {
    ComponentConfig config = ComponentConfig.of(json("{\"storage\":{\"reserve-space\":\"0MB\"}}"));
    assertFalse(config.isToml());
    assertEquals("0MB", config.get("storage.reserve-space").orElseThrow().asText());
  }

  @Test
  void withKeepsTheFormItStartedFrom() throws Exception {
    ComponentConfig toml = ComponentConfig.ofToml("[log]\nlevel = \"info\"\n")
        .with("log.file.max-backups", IntNode.valueOf(3));
    assertTrue(toml.isToml());
    assertEquals(3, toml.get("log.file.max-backups").orElseThrow().asInt());
    assertEquals("info", toml.get("log.level").orElseThrow().asText());

    ComponentConfig map = ComponentConfig.of(json("{}")).with("a.b", TextNode.valueOf("c"));
    assertEquals(json("{\"a\":{\"b\":\"c\"}}"), map.raw());
  }

  @Test
  void withDoesNotChangeTheOriginal() throws Exception {
    ComponentConfig original = ComponentConfig.of(json("{\"a\":{}}"));
    original.with("a.b", IntNode.valueOf(1));
    assertEquals(json("{\"a\":{}}"), original.raw());
  }

  @Test
  void withRefusesToReplaceAValueByATable() throws Exception {
    ComponentConfig config = ComponentConfig.of(json("{\"log\":\"x\"}"));
    InvalidConfigException e =
        assertThrows(InvalidConfigException.class, () -> config.with("log.file.max-backups", IntNode.valueOf(3)));
    assertEquals("config key log is not a table", e.getMessage());
  }

  @Test
  void rendersTomlThatParsesBackToTheSameTree() throws Exception {
    ObjectNode tree = (ObjectNode) json(
        "{\"schedule\":{\"max-merge-region-keys\":200000,\"enable\":true},"
            + "\"replication\":{\"location-labels\":[\"zone\",\"host\"],\"max-replicas\":3},"
            + "\"ratio\":0.5,\"name\":\"pd\"}");
    JsonNode normalized = TomlConfig.normalize(tree);
    String toml = TomlConfig.render(tree);
    assertEquals(normalized, TomlConfig.parse(toml));
    assertEquals(normalized, ComponentConfig.of(tree).tree());
    assertEquals(normalized, TomlConfig.parse(ComponentConfig.of(tree).toToml()));
  }

  @Test
  void rendersNestedMapsAsTableSectionsNotDottedKeys() throws Exception {
    String toml = TomlConfig.render(json(
        "{\"log\":{\"level\":\"info\",\"file\":{\"max-backups\":3}},\"a\":1,\"x.y\":{\"b\":true}}"));
    assertEquals("a = 1\n\n[log]\nlevel = 'info'\n\n[log.file]\nmax-backups = 3\n\n['x.y']\nb = true\n", toml);
  }

  @Test
  void nullCannotBeRendered() throws Exception {
    InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> TomlConfig.render(json("{\"a\":null}")));
    assertEquals("config key a is null; TOML has no null", e.getMessage());
  }

  @Test
  void sameSettingsAsTomlOrMapGiveEqualTrees() throws Exception {
    ComponentConfig toml = ComponentConfig.ofToml("[schedule]\nleader-schedule-limit = 4\nratio = 0.5\n");
    ComponentConfig map = ComponentConfig.of(json("{\"schedule\":{\"leader-schedule-limit\":4,\"ratio\":0.5}}"));
    assertEquals(map.tree(), toml.tree());
  }

  @Test
  void invalidTomlIsAnInvalidConfigException() {
    ComponentConfig config = ComponentConfig.ofToml("[log\nlevel = ");
    InvalidConfigException e = assertThrows(InvalidConfigException.class, config::tree);
    assertTrue(e.getMessage().startsWith("config is not valid TOML: "), e.getMessage());
  }

  @Test
  void neitherMapNorStringIsAnInvalidConfigException() {
    InvalidConfigException e =
        assertThrows(InvalidConfigException.class, () -> ComponentConfig.of(IntNode.valueOf(3)).tree());
    assertEquals("config must be a map or a TOML string, got number", e.getMessage());
  }

  @Test
  void equalityFollowsTheWrittenValue() throws Exception {
    assertEquals(ComponentConfig.ofToml("a = 1\n"), ComponentConfig.of(TextNode.valueOf("a = 1\n")));
    assertFalse(ComponentConfig.ofToml("a = 1\n").equals(ComponentConfig.of(json("{\"a\":1}"))));
  }

  @Test
  void whatItHandsOutIsACopyOfTheParsedTree() throws Exception {
    ComponentConfig config = ComponentConfig.ofToml("[log]\nlevel = \"info\"\n");
    ObjectNode first = config.tree();
    ((ObjectNode) first.get("log")).put("level", "debug");
    first.put("extra", 1);
    ((ObjectNode) config.get("log").orElseThrow()).put("level", "warn");
    assertEquals("info", config.get("log.level").orElseThrow().asText());
    assertEquals(json("{\"log\":{\"level\":\"info\"}}"), config.tree());
    assertEquals("[log]\nlevel = 'info'\n", config.toToml());
  }

  @Test
  void aConfigThatDoesNotParseFailsEachTime() {
    ComponentConfig config = ComponentConfig.ofToml("[log\n");
    assertThrows(InvalidConfigException.class, config::tree);
    assertThrows(InvalidConfigException.class, () -> config.get("log"));
  }
}
