package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.tidbcluster.discovery.DmBootstrapRules.DmClusterView;
import io.tidb.operator.controller.tidbcluster.discovery.DmBootstrapRules.DmPeer;
import io.tidb.operator.dmapi.DmMasterInfo;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The decision table of dm-master bootstrap and join (upstream's DiscoverDM). */
class DmBootstrapRulesTest {

  private static DmClusterView view(String rv, int replicas, String scheme) {
    return new DmClusterView("basic", "ns", rv, replicas, scheme);
  }

  private static DmPeer peer(int ordinal) {
    return DmPeer.parse("basic-dm-master-" + ordinal + ".basic-dm-master-peer:8291\n", "ns");
  }

  private static DmMasterInfo master(int ordinal) {
    String host = "basic-dm-master-" + ordinal + ".basic-dm-master-peer.ns.svc";
    return new DmMasterInfo("basic-dm-master-" + ordinal, String.valueOf(ordinal), true,
        List.of("http://" + host + ":8291"), List.of("http://" + host + ":8261"));
  }

  @Test
  void peerAddressesAreParsedAsUpstreamSendsThem() {
    DmPeer p = peer(2);
    assertEquals("basic-dm-master-2", p.pod());
    assertEquals("basic", p.cluster());
    assertEquals("basic-dm-master-2.basic-dm-master-peer:8291", p.address());
    assertEquals("basic-dm-master-0", DmPeer.parse("basic-dm-master-0.basic-dm-master-peer.ns.svc:8291", "ns").pod());
    for (String bad : List.of("basic-dm-master-0:8291", "basic-dm-master-0.basic-pd-peer:8291",
        "basic-dm-master-0.basic-dm-master-peer", "basic-dm-master-0.basic-dm-master-peer.other:8291",
        "basic-dm-master-0.basic-dm-master-peer:x")) {
      DiscoveryException e = assertThrows(DiscoveryException.class, () -> DmPeer.parse(bad, "ns"), bad);
      assertEquals(400, e.status());
      assertTrue(e.getMessage().contains(bad), e.getMessage());
    }
  }

  @Test
  void thePodCompletingTheDesiredCountBootstraps() {
    DmBootstrapRules.Decision first = DmBootstrapRules.decide(Optional.empty(), view("1", 3, "http"), peer(0));
    assertInstanceOf(DmBootstrapRules.AskMasters.class, first);
    assertEquals(Set.of("basic-dm-master-0"), first.next().pods());
    DmBootstrapRules.Decision second = DmBootstrapRules.decide(Optional.of(first.next()), view("1", 3, "http"), peer(1));
    assertInstanceOf(DmBootstrapRules.AskMasters.class, second);
    DmBootstrapRules.Decision third = DmBootstrapRules.decide(Optional.of(second.next()), view("1", 3, "https"), peer(2));
    DmBootstrapRules.Answer answer = assertInstanceOf(DmBootstrapRules.Answer.class, third);
    assertEquals("--initial-cluster=basic-dm-master-2=https://basic-dm-master-2.basic-dm-master-peer:8291",
        answer.argument());
    assertEquals(Set.of("basic-dm-master-0", "basic-dm-master-1"), answer.next().pods());
  }

  @Test
  void aSingleMasterBootstrapsAtOnce() {
    DmBootstrapRules.Answer a = assertInstanceOf(DmBootstrapRules.Answer.class,
        DmBootstrapRules.decide(Optional.empty(), view("1", 1, "http"), peer(0)));
    assertEquals("--initial-cluster=basic-dm-master-0=http://basic-dm-master-0.basic-dm-master-peer:8291", a.argument());
  }

  @Test
  void aNewResourceVersionStartsTheCountAgain() {
    DmBootstrapRules.Decision first = DmBootstrapRules.decide(Optional.empty(), view("1", 2, "http"), peer(0));
    DmBootstrapRules.Decision after = DmBootstrapRules.decide(Optional.of(first.next()), view("2", 2, "http"), peer(1));
    assertInstanceOf(DmBootstrapRules.AskMasters.class, after);
    assertEquals(Set.of("basic-dm-master-1"), after.next().pods());
  }

  @Test
  void aPodOfAnotherDmClusterIsRefused() {
    DmPeer other = DmPeer.parse("other-dm-master-0.other-dm-master-peer:8291", "ns");
    DiscoveryException e = assertThrows(DiscoveryException.class,
        () -> DmBootstrapRules.decide(Optional.empty(), view("1", 1, "http"), other));
    assertEquals(400, e.status());
  }

  @Test
  void joinListsTheOtherMembersClientPortsLeavingOutThePodItself() {
    assertEquals("--join=http://basic-dm-master-0.basic-dm-master-peer.ns.svc:8261,"
            + "http://basic-dm-master-2.basic-dm-master-peer.ns.svc:8261",
        DmBootstrapRules.joinArgument(List.of(master(0), master(1), master(2)), peer(1)));
  }

  @Test
  void joinWithNoOtherMemberIsRetried() {
    DiscoveryException e = assertThrows(DiscoveryException.class,
        () -> DmBootstrapRules.joinArgument(List.of(master(1)), peer(1)));
    assertEquals(503, e.status());
  }
}
