package io.tidb.operator.controller.tidbcluster.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ServerNamesTest {

  @Test
  void eachComponentIsCheckedAgainstItsServiceInTheNamespace() {
    assertEquals(new ServerNames("basic-pd.tidb", "basic-tidb.tidb", "basic-ticdc-peer.tidb",
            "basic-tiproxy-peer.tidb", "basic-tiflash-peer.tidb", "basic-pump.tidb"),
        ServerNames.of("basic", "tidb", null));
  }

  @Test
  void aPumpIsCheckedAgainstItsPodsNameUnderThePumpService() {
    assertEquals("basic-pump-1.basic-pump.tidb",
        ServerNames.of("basic", "tidb", null).pumpPod("basic-pump-1"));
    assertEquals("basic-pump-0.basic-pump.tidb.svc.cluster1.com",
        ServerNames.of("basic", "tidb", "cluster1.com").pumpPod("basic-pump-0"));
  }

  @Test
  void aClusterDomainGivesTheFullyQualifiedNames() {
    assertEquals(new ServerNames("basic-pd.tidb.svc.cluster1.com",
            "basic-tidb.tidb.svc.cluster1.com", "basic-ticdc-peer.tidb.svc.cluster1.com",
            "basic-tiproxy-peer.tidb.svc.cluster1.com", "basic-tiflash-peer.tidb.svc.cluster1.com",
            "basic-pump.tidb.svc.cluster1.com"),
        ServerNames.of("basic", "tidb", "cluster1.com"));
  }

  @Test
  void aReferencedPdReplacesOnlyPdsName() {
    assertEquals(new ServerNames("basic-pd.other", "hetero-tidb.tidb", "hetero-ticdc-peer.tidb",
            "hetero-tiproxy-peer.tidb", "hetero-tiflash-peer.tidb", "hetero-pump.tidb"),
        ServerNames.of("hetero", "tidb", "").withPd("basic-pd.other"));
  }
}
