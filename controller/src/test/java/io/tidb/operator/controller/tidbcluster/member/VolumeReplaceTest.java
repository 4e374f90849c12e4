package io.tidb.operator.controller.tidbcluster.member;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.tidb.operator.controller.fixtures.Rollouts;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class VolumeReplaceTest {

  static ObservedPod pod(int ordinal, String value, boolean terminating) {
    return new ObservedPod(ordinal, "basic-tikv-" + ordinal, "uid-" + ordinal, OLD,
        Optional.of(LONG_AGO), LONG_AGO, terminating,
        value == null ? Map.of() : Map.of(VolumeReplace.ANNOTATION, value));
  }

  static PersistentVolumeClaim claim(String name, boolean deleting) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).withUid(name + "-uid")
        .withDeletionTimestamp(deleting ? "2026-01-01T00:00:00Z" : null).endMetadata()
        .build();
  }

  @Test
  void onlyTrueAnnotatedPodsBelowReplicasCountLowestFirst() {
    Rollout r = Rollouts.rollout("basic-tikv", 4).allReady(OLD)
        .pod(pod(3, "true", false)).pod(pod(1, "true", false)).pod(pod(2, "yes", false))
        .build();
    assertEquals(List.of("basic-tikv-1", "basic-tikv-3"),
        VolumeReplace.annotated(r).stream().map(ObservedPod::name).toList());
    assertEquals(List.of("basic-tikv-2"), VolumeReplace.ignored(r));
  }

  @ParameterizedTest(name = "annotated={0} was={1} allBack={2} -> {3}")
  @CsvSource({
    "true,  false, true,  true",
    "true,  true,  true,  true",
    "false, true,  false, true",
    "false, true,  true,  false",
    "false, false, false, false",
  })
  void inProgressTable(boolean annotated, boolean was, boolean allBack, boolean expected) {
    assertEquals(expected, VolumeReplace.inProgress(annotated, was, allBack));
  }

  @ParameterizedTest(name = "spec {0} -> {1}")
  @CsvSource({",1", "0,0", "2,2", "-1,0"})
  void spareDefaultsToOneAsUpstream(Integer spec, int expected) {
    assertEquals(expected, VolumeReplace.spare(spec));
  }

  @Test
  void claimsGoFirstEachGuardedByItsUid() {
    Map<String, PersistentVolumeClaim> claims = new TreeMap<>();
    claims.put("tikv-basic-tikv-1", claim("tikv-basic-tikv-1", false));
    claims.put("raft-basic-tikv-1", claim("raft-basic-tikv-1", true));
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        VolumeReplace.dropVolumes(pod(1, "true", false), claims, "TiKV"));
    assertEquals(new VolumeReplace.DeleteClaims(Map.of("tikv-basic-tikv-1", "tikv-basic-tikv-1-uid")),
        a.action());
    assertEquals("replacing the volumes of basic-tikv-1: deleting volume claim tikv-basic-tikv-1",
        a.message());
    assertEquals(VolumeReplace.DELETING_EVENT, a.action().reason());
  }

  @Test
  void thenThePodByItsUid() {
    Map<String, PersistentVolumeClaim> claims =
        Map.of("tikv-basic-tikv-1", claim("tikv-basic-tikv-1", true));
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        VolumeReplace.dropVolumes(pod(1, "true", false), claims, "TiKV"));
    assertEquals(new VolumeReplace.DeletePod("basic-tikv-1", "uid-1"), a.action());
    assertEquals(new VolumeReplace.DeletePod("basic-tikv-1", "uid-1"),
        assertInstanceOf(MemberDecision.Act.class,
            VolumeReplace.dropVolumes(pod(1, "true", false), Map.of(), "TiKV")).action());
  }

  @Test
  void aTerminatingPodIsWaitedFor() {
    assertEquals(
        MemberDecision.waitFor(
            "replacing the volumes of basic-tikv-1: waiting for the pod to be deleted"),
        VolumeReplace.dropVolumes(pod(1, "true", true), Map.of(), "TiKV"));
  }
}
