package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WrittenObjectsTest {

  private final List<String> recorded = new ArrayList<>();
  private final EventRecorder events =
      (about, type, reason, message) -> recorded.add(type.value() + " " + reason + ": " + message);

  private static TidbCluster cluster() {
    TidbCluster tc = new TidbCluster();
    tc.getMetadata().setName("basic");
    return tc;
  }

  private static HasMetadata service(String name) {
    return new ServiceBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  @Test
  void oneObjectReadsAsUpstreamsEvent() {
    WrittenObjects written = new WrittenObjects();
    written.add(ApplyOutcome.CREATED,
        new StatefulSetBuilder().withNewMetadata().withName("basic-pd").endMetadata().build());
    written.record(events, cluster());
    assertEquals(List.of("Normal SuccessfulCreate: create StatefulSet basic-pd in TidbCluster basic successful"),
        recorded);
  }

  @Test
  void aReconcilesWritesAreOneEventPerVerbInTheOrderWritten() {
    WrittenObjects written = new WrittenObjects();
    written.add(ApplyOutcome.CREATED, service("basic-pd"));
    written.add(ApplyOutcome.UNCHANGED, service("basic-tikv-peer"));
    written.add(ApplyOutcome.UPDATED,
        new ConfigMapBuilder().withNewMetadata().withName("basic-tikv-1").endMetadata().build());
    written.add(ApplyOutcome.CREATED, service("basic-pd-peer"));
    written.add(ApplyOutcome.CREATED,
        new StatefulSetBuilder().withNewMetadata().withName("basic-pd").endMetadata().build());
    written.record(events, cluster());
    assertEquals(List.of(
        "Normal SuccessfulCreate: create Service basic-pd, Service basic-pd-peer and StatefulSet"
            + " basic-pd in TidbCluster basic successful",
        "Normal SuccessfulUpdate: update ConfigMap basic-tikv-1 in TidbCluster basic successful"),
        recorded);
  }

  @Test
  void whatWasRecordedIsNotRecordedAgain() {
    WrittenObjects written = new WrittenObjects();
    written.record(events, cluster());
    assertEquals(List.of(), recorded, "nothing written, no Event");
    written.add(ApplyOutcome.CREATED, service("basic-pd"));
    written.record(events, cluster());
    written.record(events, cluster());
    assertEquals(1, recorded.size());
  }
}
