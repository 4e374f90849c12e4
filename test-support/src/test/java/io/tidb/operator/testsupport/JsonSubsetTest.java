package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonSubsetTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void addedFieldsAndDroppedNullsAreNotDifferences() throws Exception {
    assertEquals(List.of(), JsonSubset.differences(
        json("{\"pd\":{\"replicas\":3,\"config\":null},\"list\":[{\"a\":1}]}"),
        json("{\"pd\":{\"replicas\":3,\"maxFailoverCount\":3},\"list\":[{\"a\":1.0,\"b\":2}],\"extra\":true}")));
  }

  @Test
  void prunedAndChangedFieldsAreReportedWithTheirPath() throws Exception {
    assertEquals(List.of("pd.unknown (missing)", "pd.replicas (sent 3, stored \"3\")",
            "tikv[1].name (sent \"b\", stored \"c\")", "tidb (sent [1,2], stored [1])"),
        JsonSubset.differences(
            json("{\"pd\":{\"unknown\":1,\"replicas\":3},\"tikv\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"tidb\":[1,2]}"),
            json("{\"pd\":{\"replicas\":\"3\"},\"tikv\":[{\"name\":\"a\"},{\"name\":\"c\"}],\"tidb\":[1]}")));
  }

  private static JsonNode json(String text) throws Exception {
    return MAPPER.readTree(text);
  }
}
