package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrphanPodsTest {

  private static OrphanPods.Candidate c(String pod, String node, String... claims) {
    return new OrphanPods.Candidate(pod, pod + "-uid", node, List.of(claims));
  }

  @Test
  void anUnscheduledPodWhoseClaimIsGoneIsAnOrphan() {
    List<OrphanPods.Orphan> o =
        OrphanPods.find(List.of(c("basic-pd-1", "", "pd-basic-pd-1")), claim -> false);
    assertEquals(List.of(new OrphanPods.Orphan("basic-pd-1", "basic-pd-1-uid", "pd-basic-pd-1")), o);
  }

  @Test
  void guardsAsUpstream() {
    Set<String> existing = Set.of("pd-basic-pd-0", "pd-basic-pd-2");
    List<OrphanPods.Orphan> o =
        OrphanPods.find(
            List.of(
                c("basic-pd-0", "", "pd-basic-pd-0"), // claim exists
                c("basic-pd-1", "kwok-node-1", "pd-basic-pd-1"), // scheduled
                c("basic-pd-2", null), // no claims
                c("basic-pd-3", null, "pd-basic-pd-2", "log-basic-pd-3")), // one missing
            existing::contains);
    assertEquals(List.of(new OrphanPods.Orphan("basic-pd-3", "basic-pd-3-uid", "log-basic-pd-3")), o);
  }

  @Test
  void aClaimTheCacheHasNotSeenYetIsAskedOfTheApiServer() {
    FakeVolumeClaims claims = new FakeVolumeClaims()
        .add("pd-basic-pd-0", Map.of(), Map.of())
        .add("pd-basic-pd-1", Map.of(), Map.of());
    claims.notCached.add("pd-basic-pd-1");
    List<OrphanPods.Orphan> o = OrphanPods.find(
        List.of(c("basic-pd-0", "", "pd-basic-pd-0"), c("basic-pd-1", "", "pd-basic-pd-1"),
            c("basic-pd-2", "", "pd-basic-pd-2")),
        OrphanPods.claimExists(claims));
    assertEquals(List.of(new OrphanPods.Orphan("basic-pd-2", "basic-pd-2-uid", "pd-basic-pd-2")), o,
        "the pod whose claim only the cache lacks is no orphan");
  }

  @Test
  void claimsAreReadFromThePodsVolumes() {
    Pod pod = new PodBuilder()
        .withNewMetadata().withName("basic-tikv-0").withUid("u").endMetadata()
        .withNewSpec()
        .addNewVolume().withName("tikv").withNewPersistentVolumeClaim("tikv-basic-tikv-0", false)
        .endVolume()
        .addNewVolume().withName("config").withNewConfigMap().withName("cm").endConfigMap().endVolume()
        .endSpec()
        .build();
    OrphanPods.Candidate candidate = OrphanPods.Candidate.of(pod);
    assertEquals(List.of("tikv-basic-tikv-0"), candidate.claims());
    assertEquals("", candidate.nodeName());
  }
}
