package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerifyRulesTest {
  private static ClusterView withPeers(List<ClusterView.PeerMember> peers) {
    return new ClusterView("basic", "default", "7", 3, "http", "", false, List.of(), peers, "", List.of());
  }

  @Test
  void withoutPeersTheAskedUrlIsTheAnswer() {
    assertEquals("basic-pd:2379", VerifyRules.endpoints("basic-pd:2379\n", withPeers(List.of())));
  }

  @Test
  void healthyPeerMembersFollowInTheAskedForm() {
    ClusterView c = withPeers(List.of(
        new ClusterView.PeerMember("a-pd-0", "http://a-pd-0.a-pd-peer.other.svc:2379", true),
        new ClusterView.PeerMember("a-pd-1", "http://a-pd-1.a-pd-peer.other.svc:2379", false)));
    assertEquals("basic-pd:2379,a-pd-0.a-pd-peer.other.svc:2379", VerifyRules.endpoints("basic-pd:2379", c));
    assertEquals("http://basic-pd:2379,http://a-pd-0.a-pd-peer.other.svc:2379",
        VerifyRules.endpoints("http://basic-pd:2379", c));
  }

  @Test
  void aClusterWithoutPdIsAnsweredTheReferencedPdInTheAskedForm() {
    ClusterView c = new ClusterView("hetero", "default", "7", 0, "https", "", true, List.of(),
        List.of(), "basic-pd-peer.tidb.svc.cluster1.com", List.of());
    assertEquals("basic-pd-peer.tidb.svc.cluster1.com:2379",
        VerifyRules.endpoints("hetero-pd:2379", c));
    assertEquals("https://basic-pd-peer.tidb.svc.cluster1.com:2379",
        VerifyRules.endpoints("https://hetero-pd:2379", c));
  }
}
