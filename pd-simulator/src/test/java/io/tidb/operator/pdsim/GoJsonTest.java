package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoJsonTest {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  @Test
  void indentsLikeGoMarshalIndentWithTrailingNewline() {
    ObjectNode node = JSON.objectNode();
    node.put("name", "basic-pd-0");
    node.putArray("client_urls").add("http://a:2379");
    node.putArray("empty");
    node.putObject("none");
    node.put("health", true);

    assertEquals("""
        {
          "name": "basic-pd-0",
          "client_urls": [
            "http://a:2379"
          ],
          "empty": [],
          "none": {},
          "health": true
        }
        """, GoJson.pdBody(node));
  }

  @Test
  void writesUnsignedIdsAboveLongMaxExactly() {
    ObjectNode node = JSON.objectNode();
    node.set("member_id", PdJsonViews.unsigned(Long.parseUnsignedLong("13892733406154627210")));
    assertEquals("{\"member_id\":13892733406154627210}", GoJson.compact(node));
  }

  @Test
  void escapesHtmlCharactersAndControlCharacters() {
    assertEquals("\"a\\u003cb\\u003e\\u0026\\\"q\\\"\\n\\u0001\"\n",
        GoJson.pdBody(JSON.textNode("a<b>&\"q\"\n\u0001")));
  }

  @Test
  void printsFloatsInGoShortestForm() {
    assertEquals("1", GoJson.formatFloat(1.0));
    assertEquals("27032.51", GoJson.formatFloat(27032.51));
    assertEquals("0.8", GoJson.formatFloat(0.8));
    assertEquals("157286400", GoJson.formatFloat(157286400.0));
  }

  @Test
  void roundTripsThroughAJsonParser() throws Exception {
    ObjectNode node = JSON.objectNode();
    node.set("list", PdJsonViews.stringArray(List.of("x", "y")));
    node.put("n", 5);
    assertEquals(node, new ObjectMapper().readTree(GoJson.pdBody(node)));
  }
}
