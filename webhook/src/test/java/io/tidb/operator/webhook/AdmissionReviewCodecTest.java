package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one-pass split of a body: the same review, objects and refusals as reading it whole. */
class AdmissionReviewCodecTest {

  private final AdmissionReviewCodec codec = new AdmissionReviewCodec();

  /** Reads a TidbCluster's objects ahead, as the service's choice would. */
  private static final AdmissionReviewCodec.ObjectTypes TIDB_CLUSTERS = (request, old) ->
      request.path("resource").path("resource").asText().equals("tidbclusters") ? TidbCluster.class : null;

  private ParsedReview parse(String json) {
    return parse(json, AdmissionReviewCodec.ObjectTypes.NONE);
  }

  private ParsedReview parse(String json, AdmissionReviewCodec.ObjectTypes types) {
    return codec.parse(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8), types);
  }

  private String refusal(String json) {
    return refusal(json, AdmissionReviewCodec.ObjectTypes.NONE);
  }

  private String refusal(String json, AdmissionReviewCodec.ObjectTypes types) {
    return assertThrows(BadAdmissionRequestException.class, () -> parse(json, types)).getMessage();
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
        tree(parsed.object().tokens()));
    assertEquals("old", tree(parsed.oldObject().tokens()).path("metadata").path("name").asText());
  }

  @Test
  void aNullObjectIsAbsentAndTheLastOfDuplicateFieldsCounts() throws IOException {
    ParsedReview parsed = parse("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview',"
        + "'request':{'uid':'first','object':{'metadata':{'name':'first'}}},"
        + "'request':{'uid':'u2','object':{'metadata':{'name':'a'}},'object':{'metadata':{'name':'b'}},"
        + "'oldObject':null}}");
    assertEquals("u2", parsed.review().getRequest().getUid());
    assertEquals("b", tree(parsed.object().tokens()).path("metadata").path("name").asText());
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

    String readAhead = many.toString().replace("'uid':'u',", "'uid':'u'," + TIDB_CLUSTERS_RESOURCE + ",")
        .replace("'a':[", "'spec':{'pd':{'config':{'a':[").replace("]}}}", "]}}}}}");
    assertEquals(refused, refusal(readAhead, TIDB_CLUSTERS), "refused while the object is read ahead");
  }

  private static final String HEAD = "{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':{"
      + "'uid':'u','operation':'UPDATE',";
  private static final String TIDB_CLUSTERS_RESOURCE =
      "'resource':{'group':'pingcap.com','version':'v1alpha1','resource':'tidbclusters'}";

  @Test
  void objectsAreReadAheadAsTheTypeTheFieldsBeforeThemChoose() {
    ParsedReview parsed = parse(HEAD + TIDB_CLUSTERS_RESOURCE + ",'object':{'metadata':{'name':'new'},"
        + "'spec':{'pd':{'replicas':'three'}}},'oldObject':{'metadata':{'name':'old'}}}}", TIDB_CLUSTERS);

    assertEquals(TidbCluster.class, parsed.object().type());
    assertNull(parsed.object().tokens(), "read, not copied");
    TidbCluster object = (TidbCluster) parsed.object().read().object();
    assertEquals("new", object.getMetadata().getName());
    assertEquals(List.of("spec.pd.replicas: Invalid value: \"three\": must be of type integer"),
        parsed.object().read().typeErrors().stream().map(Violation::message).toList(),
        "paths start at the object, not at the body");
    assertEquals("old", ((TidbCluster) parsed.oldObject().read().object()).getMetadata().getName());
    assertEquals("tidbclusters", parsed.review().getRequest().getResource().getResource());
  }

  @Test
  void managedFieldsAreSkippedAndTheRestOfTheMetadataRead() {
    ParsedReview parsed = parse(HEAD + TIDB_CLUSTERS_RESOURCE + ",'object':{'metadata':{'name':'new',"
        + "'managedFields':[{'manager':'kubectl','operation':'Update','fieldsV1':{'f:spec':{'f:pd':{}}},"
        + "'time':7}],'labels':{'app':'db'}},'spec':{'pd':{'replicas':3}}}}}", TIDB_CLUSTERS);

    TidbCluster object = (TidbCluster) parsed.object().read().object();
    assertTrue(object.getMetadata().getManagedFields().isEmpty(), "not read");
    assertTrue(object.getMetadata().getAdditionalProperties().isEmpty(), "nor kept as an unknown field");
    assertEquals("new", object.getMetadata().getName());
    assertEquals(Map.of("app", "db"), object.getMetadata().getLabels(), "read after it");
    assertEquals(3, object.getSpec().getPd().getReplicas());
    assertEquals(List.of(), parsed.object().read().typeErrors(), "a mistyped time there is not judged");
  }

  @Test
  void anObjectIsKeptAsTokensWhenTheWholeRequestChoosesOtherwise() throws IOException {
    String object = "'object':{'metadata':{'name':'new'}}";
    ParsedReview resourceAfter = parse(HEAD + object + "," + TIDB_CLUSTERS_RESOURCE + "}}", TIDB_CLUSTERS);
    assertNull(resourceAfter.object().type(), "nothing chose a type when the object came");
    assertEquals("new", tree(resourceAfter.object().tokens()).path("metadata").path("name").asText());

    ParsedReview resourceReplaced = parse(HEAD + TIDB_CLUSTERS_RESOURCE + "," + object
        + ",'resource':{'group':'pingcap.com','version':'v1alpha1','resource':'backups'}}}", TIDB_CLUSTERS);
    assertNull(resourceReplaced.object().type(), "the last resource counts, and it chooses none");
    assertEquals("new", tree(resourceReplaced.object().tokens()).path("metadata").path("name").asText());
    assertEquals("backups", resourceReplaced.review().getRequest().getResource().getResource());
  }

  @Test
  void aBodyThatCannotBeReadAheadIsRefusedInTheSameWords() {
    for (String body : List.of(
        HEAD + TIDB_CLUSTERS_RESOURCE + ",'object':{'metadata':{'name':'x'}",
        HEAD + TIDB_CLUSTERS_RESOURCE + ",'object':{'metadata':{'name':'x'},}}}",
        HEAD + TIDB_CLUSTERS_RESOURCE + ",'object':{'spec':{'pd':{'replicas':1}}}}} {}")) {
      String withoutReadAhead = refusal(body);
      assertTrue(withoutReadAhead.startsWith("request body is not valid JSON"), withoutReadAhead);
      assertEquals(withoutReadAhead, refusal(body, TIDB_CLUSTERS), body);
    }
  }
}
