package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PeerUrlTest {
  @Test
  void parsesTheAddressAStartScriptSends() {
    PeerUrl p = PeerUrl.parse("basic-pd-1.basic-pd-peer.default.svc:2380");
    assertEquals(new PeerUrl("basic-pd-1.basic-pd-peer.default.svc", "2380", "basic-pd-1", "basic-pd-peer", "default"), p);
    assertEquals("basic-pd-1.basic-pd-peer.default.svc:2380", p.hostPort());
  }

  @Test
  void toleratesTrailingNewlineSchemeAndClusterDomain() {
    assertEquals("basic-pd-1", PeerUrl.parse("basic-pd-1.basic-pd-peer.default.svc:2380\n").pod());
    assertEquals("2380", PeerUrl.parse("https://basic-pd-1.basic-pd-peer.default.svc:2380").port());
    PeerUrl d = PeerUrl.parse("basic-pd-1.basic-pd-peer.default.svc.cluster.local:2380");
    assertEquals("basic-pd-1.basic-pd-peer.default.svc.cluster.local", d.host());
    assertEquals("default", d.namespace());
  }

  @Test
  void rejectsWhatIsNotAPodPeerAddress() {
    for (String bad : new String[] {"", "basic-pd-1", "basic-pd-1.basic-pd-peer.default.svc",
        "basic-pd-1.basic-pd-peer.default:2380", "basic-pd-1.basic-pd-peer.default.svc:http", "a.b.c.svc:"}) {
      DiscoveryException e = assertThrows(DiscoveryException.class, () -> PeerUrl.parse(bad), bad);
      assertEquals(400, e.status(), bad);
    }
  }
}
