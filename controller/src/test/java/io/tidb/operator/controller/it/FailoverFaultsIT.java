package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.SimulationSettings;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults during a PD failover, on the full local control plane with the PD simulator (a PD pod
 * marked not Ready, as the node lifecycle controller marks the pods of a NotReady node, loses its
 * member): PD answering 500 to the member deletion, then too slow to answer, deletes nothing (no
 * pod, no claim) until PD answers again; a second failure while the first one's failover is in
 * progress is capped by {@code maxFailoverCount} (1); three of five members failing at once (no
 * quorum) start no failover at all. One cluster of 5 PD, in order.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverFaultsIT {

  private static final Duration PERIOD = Duration.ofSeconds(5);
  private static ControllerHarness h;
  private static ClusterKey key;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "failover-faults-it", Duration.ofSeconds(5),
        new FailoverSettings(true, PERIOD, Duration.ofMinutes(30), Duration.ofMinutes(30)),
        SimulationSettings.defaults());
    TidbCluster tc = Fixtures.basic("ff");
    tc.getSpec().getPd().setReplicas(5);
    tc.getSpec().getPd().setMaxFailoverCount(1);
    h.create(tc);
    h.awaitReady("ff");
    key = new ClusterKey(h.namespace, "ff");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Pod pod(String name) {
    return h.admin.pods().inNamespace(h.namespace).withName(name).get();
  }

  private static String uid(String pod) {
    Pod p = pod(pod);
    return p == null ? null : p.getMetadata().getUid();
  }

  private static String claimUid(String claim) {
    var c = h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName(claim).get();
    return c == null ? null : c.getMetadata().getUid();
  }

  /** Sets the pod's Ready condition, as the kubelet or the node lifecycle controller would. */
  private static void ready(String pod, boolean ready) {
    h.admin.pods().inNamespace(h.namespace).withName(pod).editStatus(p -> {
      for (PodCondition c : p.getStatus().getConditions()) {
        if ("Ready".equals(c.getType())) {
          c.setStatus(ready ? "True" : "False");
          c.setReason(ready ? null : "FailoverFaultsIT");
        }
      }
      return p;
    });
  }

  private static long memberIdDeletions(boolean answeredOk) {
    return h.pdMutations("ff").stream()
        .filter(c -> c.startsWith("DELETE /pd/api/v1/members/id/"))
        .filter(c -> answeredOk != c.contains(" -> "))
        .count();
  }

  private static int replicas() {
    return h.admin.apps().statefulSets().inNamespace(h.namespace).withName("ff-pd").get()
        .getSpec().getReplicas();
  }

  private static void sleep(Duration d) throws InterruptedException {
    Thread.sleep(d.toMillis());
  }

  @Test
  @Order(1)
  void pdAnswering500AndThenTooSlowDeletesNothingUntilItAnswers() throws Exception {
    String podUid = uid("ff-pd-2");
    String claimUid = claimUid("pd-ff-pd-2");
    int refuse = h.simulator.faults().add(new FaultRule(
        key, "pd", null, "DELETE", "/pd/api/v1/members/id/", 500, Duration.ZERO, 0));
    ready("ff-pd-2", false);
    h.await("ff", "ff-pd-2 recorded, deletion refused by PD", t ->
        t.getStatus().getPd().getFailureMembers() != null
            && t.getStatus().getPd().getFailureMembers().containsKey("ff-pd-2")
            && memberIdDeletions(false) >= 1);
    sleep(PERIOD.multipliedBy(2));
    TidbCluster refused = h.get("ff");
    assertEquals(Boolean.FALSE,
        refused.getStatus().getPd().getFailureMembers().get("ff-pd-2").getMemberDeleted());
    assertEquals(podUid, uid("ff-pd-2"), "the pod is not deleted while PD refuses");
    assertEquals(claimUid, claimUid("pd-ff-pd-2"), "nor its claim");
    assertEquals(5, replicas());
    assertEquals(0, memberIdDeletions(true));

    int slow = h.simulator.faults().add(
        new FaultRule(key, "pd", null, null, "/pd/api", 0, Duration.ofSeconds(3), 0));
    h.simulator.faults().remove(refuse);
    h.await("ff", "PDReachable=False", t ->
        Fixtures.condition(t, "PDReachable").filter(c -> "False".equals(c.getStatus())).isPresent());
    sleep(PERIOD.multipliedBy(2));
    assertEquals(podUid, uid("ff-pd-2"), "the pod is not deleted while PD is too slow");
    assertEquals(claimUid, claimUid("pd-ff-pd-2"));
    assertEquals(0, memberIdDeletions(true), h.pdMutations("ff").toString());

    h.simulator.faults().remove(slow);
    h.await("ff", "ff-pd-2 deleted by id, replaced, records cleared, 5 PD, Ready", t -> {
      String now = uid("ff-pd-2");
      return now != null && !now.equals(podUid)
          && t.getStatus().getPd().getFailureMembers() == null
          && replicas() == 5
          && Fixtures.ready(t);
    });
    assertEquals(1, memberIdDeletions(true), h.pdMutations("ff").toString());
    assertTrue(!claimUid.equals(claimUid("pd-ff-pd-2")), "the replacement has a new claim");
  }

  @Test
  @Order(2)
  void aSecondFailureDuringAFailoverIsCappedByMaxFailoverCount() throws Exception {
    long before = memberIdDeletions(true);
    ready("ff-pd-2", false);
    h.await("ff", "ff-pd-2 recorded", t ->
        t.getStatus().getPd().getFailureMembers() != null
            && t.getStatus().getPd().getFailureMembers().containsKey("ff-pd-2"));
    // While ff-pd-2 is failed over, ff-pd-1 fails too: it keeps the failover from recovering,
    // and maxFailoverCount 1 is reached once ff-pd-2 is deleted.
    ready("ff-pd-1", false);
    String pd1 = uid("ff-pd-1");
    h.await("ff", "ff-pd-2 deleted by id, 6 PD replicas", t ->
        t.getStatus().getPd().getFailureMembers() != null
            && Boolean.TRUE.equals(
                t.getStatus().getPd().getFailureMembers().get("ff-pd-2").getMemberDeleted())
            && replicas() == 6);
    sleep(PERIOD.multipliedBy(4));
    TidbCluster capped = h.get("ff");
    assertEquals(List.of("ff-pd-2"),
        List.copyOf(capped.getStatus().getPd().getFailureMembers().keySet()),
        "no second record beyond maxFailoverCount");
    assertEquals(before + 1, memberIdDeletions(true), h.pdMutations("ff").toString());
    assertEquals(pd1, uid("ff-pd-1"), "ff-pd-1 is not deleted");
    assertEquals(6, replicas(), "capped at spec + maxFailoverCount");

    ready("ff-pd-1", true);
    h.await("ff", "records cleared, 5 PD replicas, Ready", t ->
        t.getStatus().getPd().getFailureMembers() == null && replicas() == 5 && Fixtures.ready(t));
    assertEquals(before + 1, memberIdDeletions(true), h.pdMutations("ff").toString());
  }

  @Test
  @Order(3)
  void threeOfFiveMembersFailingAtOnceStartNoFailover() throws Exception {
    long before = memberIdDeletions(true);
    Map<String, String> uids = new java.util.TreeMap<>();
    for (String pod : List.of("ff-pd-0", "ff-pd-1", "ff-pd-3")) {
      uids.put(pod, uid(pod));
      ready(pod, false);
    }
    sleep(PERIOD.multipliedBy(4));
    TidbCluster noQuorum = h.get("ff");
    assertEquals(null, noQuorum.getStatus().getPd().getFailureMembers(),
        "no record without quorum");
    assertEquals(before, memberIdDeletions(true), h.pdMutations("ff").toString());
    for (Map.Entry<String, String> e : uids.entrySet()) {
      assertEquals(e.getValue(), uid(e.getKey()), e.getKey() + " is not deleted");
    }
    assertEquals(5, replicas());

    for (String pod : uids.keySet()) {
      ready(pod, true);
    }
    h.await("ff", "Ready again", Fixtures::ready);
  }
}
