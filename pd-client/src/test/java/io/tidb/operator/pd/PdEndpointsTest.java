package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import org.junit.jupiter.api.Test;

class PdEndpointsTest {

  @Test
  void inClusterAddressesFollowUpstream() {
    PdEndpoints endpoints = PdEndpoints.inCluster(false);
    assertEquals(URI.create("http://basic-pd.ns1:2379"), endpoints.pd("ns1", "basic"));
    assertEquals(URI.create("http://basic-pd-1.basic-pd-peer.ns1.svc:2379"),
        endpoints.pdMember("ns1", "basic", "basic-pd-1"));
    assertEquals(URI.create("http://basic-tidb-0.basic-tidb-peer.ns1:10080"),
        endpoints.tidbStatus("ns1", "basic", "basic-tidb-0"));
    assertEquals(URI.create("https://basic-pd.ns1:2379"),
        PdEndpoints.inCluster(true).pd("ns1", "basic"));
  }

  @Test
  void simulatorTemplates() {
    String base = "http://127.0.0.1:12379/clusters/{namespace}/{name}";
    PdEndpoints endpoints =
        new PdEndpoints(base, base + "/members/{member}", base + "/tidb/{pod}");
    assertEquals(URI.create("http://127.0.0.1:12379/clusters/ns1/basic"),
        endpoints.pd("ns1", "basic"));
    assertEquals(URI.create("http://127.0.0.1:12379/clusters/ns1/basic/members/basic-pd-0"),
        endpoints.pdMember("ns1", "basic", "basic-pd-0"));
    assertEquals(URI.create("http://127.0.0.1:12379/clusters/ns1/basic/tidb/basic-tidb-2"),
        endpoints.tidbStatus("ns1", "basic", "basic-tidb-2"));
  }

  @Test
  void invalidTemplatesNameTheFieldAndTheProblem() {
    PdEndpoints defaults = PdEndpoints.inCluster(false);
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () ->
        new PdEndpoints("http://{cluster}:2379", defaults.pdMemberUrl(), defaults.tidbStatusUrl()));
    assertEquals("pdUrl: invalid value \"http://{cluster}:2379\": unknown placeholder {cluster}, "
        + "allowed: [name, namespace]", unknown.getMessage());
    IllegalArgumentException scheme = assertThrows(IllegalArgumentException.class, () ->
        new PdEndpoints(defaults.pdUrl(), defaults.pdMemberUrl(), "tcp://{pod}:10080"));
    assertEquals("tidbStatusUrl: invalid value \"tcp://{pod}:10080\": must be an http:// or "
        + "https:// URL", scheme.getMessage());
  }
}
