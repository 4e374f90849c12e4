package io.tidb.operator.controller.tidbcluster.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ServerNamesTest {

  @Test
  void eachComponentIsCheckedAgainstItsServiceInTheNamespace() {
    assertEquals(new ServerNames("basic-pd.tidb", "basic-tidb.tidb", "basic-ticdc-peer.tidb"),
        ServerNames.of("basic", "tidb", null));
  }

  @Test
  void aClusterDomainGivesTheFullyQualifiedNames() {
    assertEquals(new ServerNames("basic-pd.tidb.svc.cluster1.com",
            "basic-tidb.tidb.svc.cluster1.com", "basic-ticdc-peer.tidb.svc.cluster1.com"),
        ServerNames.of("basic", "tidb", "cluster1.com"));
  }

  @Test
  void aReferencedPdReplacesOnlyPdsName() {
    assertEquals(new ServerNames("basic-pd.other", "hetero-tidb.tidb", "hetero-ticdc-peer.tidb"),
        ServerNames.of("hetero", "tidb", "").withPd("basic-pd.other"));
  }
}
