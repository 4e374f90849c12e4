package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidb.operator.api.crd.TidbClusterCrd;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrdSchemaCheckTest {

  private static final CrdSchemaCheck TIDB_CLUSTER =
      CrdSchemaCheck.load(TidbClusterCrd.ENTRY.generatedResource(), "v1alpha1");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> check(String json) throws Exception {
    return TIDB_CLUSTER.check(JSON.readTree(json.replace('\'', '"'))).stream().map(Violation::message).toList();
  }

  @Test
  void aSchemaValidClusterPasses() throws Exception {
    assertEquals(List.of(), check("{'apiVersion':'pingcap.com/v1alpha1','kind':'TidbCluster','metadata':{'name':'x'},"
        + "'spec':{'configUpdateStrategy':'RollingUpdate','pd':{'replicas':3,'config':{'any':{'thing':[1,'a']}},"
        + "'requests':{'storage':'1Gi','cpu':1}},'tikv':{'replicas':0}}}"));
  }

  @Test
  void everyViolationIsListedWithItsPath() throws Exception {
    assertEquals(List.of(
            "spec.configUpdateStrategy: Invalid value: \"Sometimes\": must match the pattern ^(InPlace|RollingUpdate)?$",
            "spec.pd.replicas: Invalid value: \"three\": must be of type integer",
            "spec.tikv.replicas: Invalid value: -1: must be greater than or equal to 0",
            "spec.tidb.service: Invalid value: \"array\": must be of type object"),
        check("{'spec':{'configUpdateStrategy':'Sometimes','pd':{'replicas':'three'},'tikv':{'replicas':-1},"
            + "'tidb':{'service':[]}}}"));
  }

  @Test
  void metadataAndStatusAreLeftToTheApiServer() throws Exception {
    assertEquals(List.of(), check("{'metadata':{'name':5},'status':{'pd':{'synced':'maybe'}}}"));
  }

  @Test
  void nullMeansAbsent() throws Exception {
    assertEquals(List.of(), check("{'spec':{'pd':{'replicas':null}}}"));
  }
}
