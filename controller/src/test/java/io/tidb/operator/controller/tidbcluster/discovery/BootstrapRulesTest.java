package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tidb.operator.pd.PdMemberInfo;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BootstrapRulesTest {
  static ClusterView cluster(String rv, int replicas) {
    return new ClusterView("basic", "default", rv, replicas, "http", "", false, List.of(), List.of(), "", List.of());
  }

  static PeerUrl peer(int ordinal) {
    return PeerUrl.parse("basic-pd-" + ordinal + ".basic-pd-peer.default.svc:2380");
  }

  @Test
  void aSinglePdBootstrapsAtOnce() {
    var d = BootstrapRules.decide(Optional.empty(), cluster("7", 1), peer(0));
    BootstrapRules.Answer a = assertInstanceOf(BootstrapRules.Answer.class, d);
    assertEquals("--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380", a.argument());
    assertEquals(Set.of(), a.next().pods());
  }

  @Test
  void thePodThatCompletesTheCountBootstrapsTheOthersAskPd() {
    ClusterView c = cluster("7", 3);
    var d0 = BootstrapRules.decide(Optional.empty(), c, peer(0));
    assertInstanceOf(BootstrapRules.AskPd.class, d0);
    assertEquals(Set.of("basic-pd-0"), d0.next().pods());
    var d1 = BootstrapRules.decide(Optional.of(d0.next()), c, peer(1));
    assertInstanceOf(BootstrapRules.AskPd.class, d1);
    var again = BootstrapRules.decide(Optional.of(d1.next()), c, peer(0));
    assertInstanceOf(BootstrapRules.AskPd.class, again, "asking twice counts once");
    assertEquals(Set.of("basic-pd-0", "basic-pd-1"), again.next().pods());
    var d2 = BootstrapRules.decide(Optional.of(again.next()), c, peer(2));
    BootstrapRules.Answer a = assertInstanceOf(BootstrapRules.Answer.class, d2);
    assertEquals("--initial-cluster=basic-pd-2=http://basic-pd-2.basic-pd-peer.default.svc:2380", a.argument());
    assertEquals(Set.of("basic-pd-0", "basic-pd-1"), a.next().pods(), "the others stay counted until PD answers them");
  }

  @Test
  void aNewResourceVersionStartsTheCountAgain() {
    var d0 = BootstrapRules.decide(Optional.empty(), cluster("7", 2), peer(0));
    assertInstanceOf(BootstrapRules.AskPd.class, d0);
    var d1 = BootstrapRules.decide(Optional.of(d0.next()), cluster("8", 2), peer(1));
    assertInstanceOf(BootstrapRules.AskPd.class, d1, "pd-0's registration belonged to resourceVersion 7");
    assertEquals(new Registrations("8", Set.of("basic-pd-1")), d1.next());
  }

  @Test
  void pdAddressesMakeTheLastPodJoinThemInstead() {
    ClusterView c = new ClusterView("basic", "default", "7", 1, "http", "", false,
        List.of("http://other-pd.ns:2379", "http://third-pd.ns:2379"), List.of(), "", List.of());
    BootstrapRules.Answer a = assertInstanceOf(BootstrapRules.Answer.class, BootstrapRules.decide(Optional.empty(), c, peer(0)));
    assertEquals("--join=http://other-pd.ns:2379,http://third-pd.ns:2379", a.argument());
  }

  @Test
  void aClusterJoiningAnotherNeverBootstraps() {
    ClusterView c = new ClusterView("basic", "default", "7", 1, "http", "", true, List.of(), List.of(), "", List.of());
    assertInstanceOf(BootstrapRules.AskPd.class, BootstrapRules.decide(Optional.empty(), c, peer(0)));
  }

  @Test
  void withAClusterDomainTheMemberIsNamedByItsFullHost() {
    ClusterView c = new ClusterView("basic", "default", "7", 1, "https", "cluster.local", false, List.of(), List.of(), "", List.of());
    PeerUrl p = PeerUrl.parse("basic-pd-0.basic-pd-peer.default.svc.cluster.local:2380");
    BootstrapRules.Answer a = assertInstanceOf(BootstrapRules.Answer.class, BootstrapRules.decide(Optional.empty(), c, p));
    assertEquals("--initial-cluster=basic-pd-0.basic-pd-peer.default.svc.cluster.local="
        + "https://basic-pd-0.basic-pd-peer.default.svc.cluster.local:2380", a.argument());
  }

  @Test
  void podsOfAnotherClusterOrNamespaceAreRefused() {
    ClusterView c = cluster("7", 1);
    for (String other : new String[] {"other-pd-0.other-pd-peer.default.svc:2380", "basic-pd-0.basic-pd-peer.prod.svc:2380",
        "basic-tikv-0.basic-tikv-peer.default.svc:2380"}) {
      DiscoveryException e = assertThrows(DiscoveryException.class,
          () -> BootstrapRules.decide(Optional.empty(), c, PeerUrl.parse(other)), other);
      assertEquals(400, e.status());
    }
  }

  @Test
  void joinListsTheOtherMembersClientUrls() {
    List<PdMemberInfo> members = List.of(
        member("basic-pd-0", "http://basic-pd-0.basic-pd-peer.default.svc:2380", "http://basic-pd-0.basic-pd-peer.default.svc:2379"),
        member("basic-pd-1", "http://basic-pd-1.basic-pd-peer.default.svc:2380", "http://basic-pd-1.basic-pd-peer.default.svc:2379"),
        member("basic-pd-2", "http://basic-pd-2.basic-pd-peer.default.svc:2380", "http://basic-pd-2.basic-pd-peer.default.svc:2379"));
    assertEquals("--join=http://basic-pd-0.basic-pd-peer.default.svc:2379,http://basic-pd-2.basic-pd-peer.default.svc:2379",
        BootstrapRules.joinArgument(members, cluster("7", 3), peer(1)), "a pod whose data was lost never joins itself");
  }

  @Test
  void aMemberThatNeverStartedIsReachedThroughItsPeerUrl() {
    List<PdMemberInfo> members = List.of(
        member("basic-pd-0", "http://basic-pd-0.basic-pd-peer.default.svc:2380", "http://basic-pd-0.basic-pd-peer.default.svc:2379"),
        new PdMemberInfo("", 5L, List.of("http://basic-pd-1.basic-pd-peer.default.svc:2380"), List.of(), ""));
    assertEquals("--join=http://basic-pd-0.basic-pd-peer.default.svc:2379,http://basic-pd-1.basic-pd-peer.default.svc:2379",
        BootstrapRules.joinArgument(members, cluster("7", 3), peer(2)));
  }

  @Test
  void nothingToJoinIsUnavailable() {
    List<PdMemberInfo> onlySelf = List.of(
        member("basic-pd-1", "http://basic-pd-1.basic-pd-peer.default.svc:2380", "http://basic-pd-1.basic-pd-peer.default.svc:2379"));
    DiscoveryException e = assertThrows(DiscoveryException.class,
        () -> BootstrapRules.joinArgument(onlySelf, cluster("7", 3), peer(1)));
    assertEquals(503, e.status());
  }

  static PdMemberInfo member(String name, String peerUrl, String clientUrl) {
    return new PdMemberInfo(name, name.hashCode(), List.of(peerUrl), List.of(clientUrl), "v8.5.7");
  }
}
