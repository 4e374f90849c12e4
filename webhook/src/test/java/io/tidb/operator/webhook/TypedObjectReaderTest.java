package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypedObjectReaderTest {

  private final AdmissionReviewCodec codec = new AdmissionReviewCodec();
  private final TypedObjectReader reader = new TypedObjectReader(codec.mapper());

  private TypedObjectReader.Result<TidbCluster> read(String json) throws Exception {
    TokenBuffer tokens = new TokenBuffer(codec.mapper(), false);
    try (JsonParser p = codec.mapper().createParser(json.replace('\'', '"'))) {
      p.nextToken();
      tokens.copyCurrentStructure(p);
    }
    return reader.read(tokens, TidbCluster.class);
  }

  private static List<String> messages(TypedObjectReader.Result<?> result) {
    return result.typeErrors().stream().map(Violation::message).toList();
  }

  @Test
  void everyWronglyTypedFieldIsReportedWithItsPathValueAndType() throws Exception {
    TypedObjectReader.Result<TidbCluster> result = read("{'apiVersion':'pingcap.com/v1alpha1','kind':'TidbCluster',"
        + "'metadata':{'name':'x'},'spec':{'version':'v8.5.0',"
        + "'pd':{'replicas':'three','baseImage':'pingcap/pd','requests':{'storage':'1Gi'}},"
        + "'tikv':{'replicas':3,'storageVolumes':{'name':'raft'},'maxFailoverCount':true},"
        + "'tidb':{'replicas':[1],'service':{'type':'NodePort','port':'x'}}}}");
    assertEquals(List.of(
        "spec.pd.replicas: Invalid value: \"three\": must be of type integer",
        "spec.tikv.storageVolumes: Invalid value: \"object\": must be of type array",
        "spec.tikv.maxFailoverCount: Invalid value: true: must be of type integer",
        "spec.tidb.replicas: Invalid value: \"array\": must be of type integer"),
        messages(result).subList(0, 4));
    assertNull(result.object().getSpec().getPd().getReplicas());
    assertEquals(3, result.object().getSpec().getTikv().getReplicas());
    assertEquals("pingcap/pd", result.object().getSpec().getPd().getBaseImage());
  }

  @Test
  void aWellTypedObjectHasNoTypeErrors() throws Exception {
    assertEquals(List.of(), messages(read("{'metadata':{'name':'x'},'spec':{'pd':{'replicas':3,"
        + "'config':{'a':{'b':[1,'x',true]}}},'tikv':{'storageVolumes':[{'name':'raft','storageSize':'1Gi'}]}}}")));
  }

  @Test
  void pathsNameArrayElements() throws Exception {
    assertEquals(List.of("spec.tikv.storageVolumes[1].name: Invalid value: \"object\": must be of type string"),
        messages(read("{'spec':{'tikv':{'storageVolumes':[{'name':'a'},{'name':{'x':1}}]}}}")));
  }

  @Test
  void readStraightOutOfALargerDocumentThePathsStartAtTheObject() throws Exception {
    String object = "{'metadata':{'name':'x'},'spec':{'tikv':{'storageVolumes':[{'name':'a'},{'name':{'x':1}}]},"
        + "'pd':{'replicas':'three'}}}";
    try (JsonParser p = codec.mapper().createParser(("{'request':{'uid':'u','object':" + object + ",'after':1}}")
        .replace('\'', '"'))) {
      while (!"object".equals(p.currentName()) || p.currentToken() != JsonToken.START_OBJECT) {
        p.nextToken();
      }
      TypedObjectReader.Result<TidbCluster> result = reader.read(p, TidbCluster.class);

      assertEquals(messages(read(object)), messages(result));
      assertEquals(List.of(
          "spec.tikv.storageVolumes[1].name: Invalid value: \"object\": must be of type string",
          "spec.pd.replicas: Invalid value: \"three\": must be of type integer"), messages(result));
      assertEquals("x", result.object().getMetadata().getName());
      assertSame(codec.mapper(), p.getCodec(), "the parser's own codec again");
      assertEquals(JsonToken.FIELD_NAME, p.nextToken(), "the parser goes on after the object");
      assertEquals("after", p.currentName());
    }
  }
}
