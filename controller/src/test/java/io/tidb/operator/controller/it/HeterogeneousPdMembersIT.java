package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.SimulatedMember;
import io.tidb.operator.pdsim.SimulatedPdCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two TidbClusters that each run PD members of their own in one PD cluster: {@code basic} (3 PD,
 * 3 TiKV, 2 TiDB) and {@code joined} ({@code spec.cluster.name: basic}, 2 PD, 1 TiKV, 1 TiDB),
 * whose PD pods join basic's PD cluster as upstream's multi-cluster setup does (the simulator
 * learns the join from joined's {@code spec.cluster}, as the local run's does). Each cluster
 * reports its own members and the other's as peers; when joined's PD Service stops answering
 * the operator reads PD through one of basic's members; joined's PD scale-in hands the PD
 * leadership to its own remaining member, and its upgrade (no own member left to take it) to one
 * of basic's. A third cluster, {@code external}, with a PD of its own joined through {@code
 * spec.pdAddresses} (basic's PD Service), is a peer of both.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HeterogeneousPdMembersIT {

  private static final String A = "basic";
  private static final String B = "joined";
  private static final Set<String> A_MEMBERS = Set.of("basic-pd-0", "basic-pd-1", "basic-pd-2");

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "hetero-pd-it", Duration.ofSeconds(5));
    h.create(Fixtures.basic(A));
    TidbCluster b = Fixtures.small(B, "RollingUpdate");
    b.getSpec().getPd().setReplicas(2);
    TidbClusterRef ref = new TidbClusterRef();
    ref.setName(A);
    b.getSpec().setCluster(ref);
    h.create(b);
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Set<String> names(Map<String, PdMember> members) {
    return members == null ? Set.of() : new TreeSet<>(members.keySet());
  }

  private static String reachable(TidbCluster tc) {
    return Fixtures.condition(tc, "PDReachable").map(Condition::getMessage).orElse("");
  }

  @Test
  @Order(1)
  void eachClusterReportsItsOwnPdMembersAndTheOthersAsPeers() {
    Set<String> bMembers = Set.of("joined-pd-0", "joined-pd-1");
    TidbCluster a = h.await(A, "Ready with 3 own PD members and joined's 2 as peers",
        t -> Fixtures.ready(t) && A_MEMBERS.equals(names(t.getStatus().getPd().getMembers()))
            && bMembers.equals(names(t.getStatus().getPd().getPeerMembers())));
    TidbCluster b = h.await(B, "Ready with 2 own PD members and basic's 3 as peers",
        t -> Fixtures.ready(t) && bMembers.equals(names(t.getStatus().getPd().getMembers()))
            && A_MEMBERS.equals(names(t.getStatus().getPd().getPeerMembers())));
    assertEquals(A_MEMBERS, names(a.getStatus().getPd().getMembers()));
    assertEquals(bMembers, names(b.getStatus().getPd().getMembers()));
    assertEquals(Set.of("basic-pd-0", "basic-pd-1", "basic-pd-2", "joined-pd-0", "joined-pd-1"),
        h.pd(A).members().stream().map(SimulatedMember::name)
            .collect(Collectors.toCollection(TreeSet::new)),
        "one PD cluster holds all five members");
    assertEquals(a.getStatus().getClusterID(), b.getStatus().getClusterID(),
        "both clusters report the one PD cluster's id");
    assertEquals("the operator reads PD's members and stores", reachable(b));
  }

  @Test
  @Order(2)
  void whenTheJoinedClustersPdServiceStopsAnsweringPdIsReadThroughAPeerMember() {
    // joined's Service and its own members answer 503; basic's members still answer.
    int fault = h.simulator.faults().add(
        FaultRule.fail("/", 503).forCluster(new ClusterKey(h.namespace, B)).forInstance("pd", null));
    try {
      TidbCluster b = h.await(B, "PD read through one of basic's members",
          t -> reachable(t).contains("through PD member basic-pd-"));
      assertTrue(reachable(b).contains("of status.pd.peerMembers"), reachable(b));
      assertTrue(reachable(b).contains("(the PD Service did not answer)"), reachable(b));
      assertTrue(Fixtures.condition(b, "PDReachable").map(c -> "True".equals(c.getStatus()))
          .orElse(false), "PD stays reachable through the peer");
    } finally {
      h.simulator.faults().remove(fault);
    }
    h.await(B, "PD read through its Service again",
        t -> "the operator reads PD's members and stores".equals(reachable(t)));
  }

  @Test
  @Order(3)
  void scaleInOfTheJoinedClustersPdHandsTheLeadershipToItsOwnRemainingMember() {
    SimulatedPdCluster pd = h.pd(A);
    pd.transferLeader("joined-pd-1");
    h.await(B, "joined-pd-1 reported as the leader", t -> t.getStatus().getPd().getLeader() != null
        && "joined-pd-1".equals(t.getStatus().getPd().getLeader().getName()));
    h.simulator.recorder().clear();
    h.edit(B, tc -> {
      tc.getSpec().getPd().setReplicas(1);
      return tc;
    });
    TidbCluster b = h.await(B, "1 own PD member, Ready", t -> Fixtures.ready(t)
        && Set.of("joined-pd-0").equals(names(t.getStatus().getPd().getMembers())));
    List<String> mutations = h.pdMutations(B);
    assertTrue(mutations.contains("POST /pd/api/v1/leader/transfer/joined-pd-0"), mutations.toString());
    assertTrue(mutations.stream().noneMatch(m -> m.startsWith("POST /pd/api/v1/leader/transfer/basic-")),
        "an own member takes the leadership before any of basic's: " + mutations);
    assertEquals("joined-pd-0", pd.leader().orElseThrow().name());
    assertEquals(A_MEMBERS, names(b.getStatus().getPd().getPeerMembers()));
    assertEquals(A_MEMBERS, names(h.get(A).getStatus().getPd().getMembers()),
        "basic's members are untouched");
  }

  @Test
  @Order(4)
  void upgradingTheJoinedClustersOnlyPdMemberHandsTheLeadershipToAPeer() {
    SimulatedPdCluster pd = h.pd(A);
    h.await(B, "joined-pd-0 reported as the leader", t -> t.getStatus().getPd().getLeader() != null
        && "joined-pd-0".equals(t.getStatus().getPd().getLeader().getName()));
    h.simulator.recorder().clear();
    h.edit(B, tc -> {
      tc.getSpec().getPd().setVersion("v8.5.8");
      return tc;
    });
    h.await(B, "the leadership moved to one of basic's members",
        t -> pd.leader().map(l -> A_MEMBERS.contains(l.name())).orElse(false));
    List<String> mutations = h.pdMutations(B);
    assertTrue(mutations.stream().anyMatch(m -> m.startsWith("POST /pd/api/v1/leader/transfer/basic-pd-")),
        mutations.toString());
    h.await(B, "Ready with the upgraded PD", t -> Fixtures.ready(t)
        && Set.of("joined-pd-0").equals(names(t.getStatus().getPd().getMembers())));
  }

  @Test
  @Order(5)
  void aClusterJoiningThroughPdAddressesCountsAsAPeerOfBoth() {
    TidbCluster c = Fixtures.small("external", "RollingUpdate");
    c.getSpec().setPdAddresses(List.of("http://basic-pd." + h.namespace + ":2379"));
    h.create(c);
    Set<String> peersOfC = Set.of("basic-pd-0", "basic-pd-1", "basic-pd-2", "joined-pd-0");
    TidbCluster external = h.await("external", "Ready with its own PD member, the others as peers",
        t -> Fixtures.ready(t) && Set.of("external-pd-0").equals(names(t.getStatus().getPd().getMembers()))
            && peersOfC.equals(names(t.getStatus().getPd().getPeerMembers())));
    assertEquals(Set.of("external-tikv-0"), t(external.getStatus().getTikv().getStores()));
    assertTrue(t(external.getStatus().getTikv().getPeerStores()).containsAll(
        Set.of("basic-tikv-0", "basic-tikv-1", "basic-tikv-2", "joined-tikv-0")),
        external.getStatus().getTikv().getPeerStores().toString());
    TidbCluster a = h.await(A, "external-pd-0 among basic's peers",
        t -> names(t.getStatus().getPd().getPeerMembers()).contains("external-pd-0"));
    assertEquals(a.getStatus().getClusterID(), external.getStatus().getClusterID());
  }

  private static Set<String> t(Map<String, io.tidb.operator.api.v1alpha1.cluster.TikvStore> stores) {
    return stores == null ? Set.of() : stores.values().stream()
        .map(io.tidb.operator.api.v1alpha1.cluster.TikvStore::getPodName)
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
