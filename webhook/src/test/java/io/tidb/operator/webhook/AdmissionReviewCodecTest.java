package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The one-pass split of a body: the same review, objects and refusals as reading it whole. */
class AdmissionReviewCodecTest {

  private final AdmissionReviewCodec codec = new AdmissionReviewCodec();

  private ParsedReview parse(String json) {
    return codec.parse(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
  }

  private String refusal(String json) {
    return assertThrows(BadAdmissionRequestException.class, () -> parse(json)).getMessage();
  }

  private JsonNode tree(TokenBuffer tokens) throws IOException {
    return codec.mapper().readTree(tokens.asParser());
  }

  @Test
  void theObjectsAreTakenOutAndTheRestIsTheReview() throws IOException {
    ParsedReview parsed = parse("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':{"
        + "'uid':'u1','operation':'UPDATE','object':{'metadata':{'name':'new'},'spec':{'a':[1,2.5,'x']}},"
        + "'oldObject':{'metadata':{'name':'old'}},'options':{'kind':'UpdateOptions'},'namespace':'ns'}}");
    assertEquals("u1", parsed.review().getRequest().getUid());
    assertEquals("ns", parsed.review().getRequest().getNamespace());
    assertEquals("UPDATE", parsed.review().getRequest().getOperation());
    assertNull(parsed.review().getRequest().getObject());
    assertNull(parsed.review().getRequest().getOptions());
    assertEquals(codec.mapper().readTree("{\"metadata\":{\"name\":\"new\"},\"spec\":{\"a\":[1,2.5,\"x\"]}}"),
        tree(parsed.object()));
    assertEquals("old", tree(parsed.oldObject()).path("metadata").path("name").asText());
  }

  @Test
  void aNullObjectIsAbsentAndTheLastOfDuplicateFieldsCounts() throws IOException {
    ParsedReview parsed = parse("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview',"
        + "'request':{'uid':'first','object':{'metadata':{'name':'first'}}},"
        + "'request':{'uid':'u2','object':{'metadata':{'name':'a'}},'object':{'metadata':{'name':'b'}},"
        + "'oldObject':null}}");
    assertEquals("u2", parsed.review().getRequest().getUid());
    assertEquals("b", tree(parsed.object()).path("metadata").path("name").asText());
    assertNull(parsed.oldObject());

    ParsedReview second = parse("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview',"
        + "'request':{'uid':'first','object':{'metadata':{'name':'first'}}},'request':{'uid':'u3'}}");
    assertNull(second.object(), "an object of an earlier, replaced request does not count");
  }

  @Test
  void whatIsNotOneJsonObjectIsRefusedAsWhenReadWhole() {
    assertEquals("request body must be a JSON object (an AdmissionReview)", refusal("[1,2]"));
    assertEquals("request body must be a JSON object (an AdmissionReview)", refusal(""));
    String trailing = refusal("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':{'uid':'u'}} {}");
    assertTrue(trailing.startsWith("request body is not valid JSON: Trailing token"), trailing);
    String cut = refusal("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':{'uid':'u','object':{");
    assertTrue(cut.startsWith("request body is not valid JSON: Unexpected end-of-input"), cut);
    assertEquals("request is missing", refusal("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':[1]}"));
    assertEquals("kind must be AdmissionReview, got \"5\"", refusal("{'apiVersion':'admission.k8s.io/v1','kind':5}"));
  }

  @Test
  void tokenLimitsStopTheSplitToo() {
    StringBuilder many = new StringBuilder("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview',"
        + "'request':{'uid':'u','object':{'a':[");
    for (int i = 0; i < 60_000; i++) {
      many.append(i == 0 ? "" : ",").append("{}");
    }
    many.append("]}}}");
    String refused = refusal(many.toString());
    assertTrue(refused.startsWith("request body is refused: Token count"), refused);
  }
}
