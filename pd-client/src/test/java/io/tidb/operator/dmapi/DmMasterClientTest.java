package io.tidb.operator.dmapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.dmsim.DmSimulatorServer;
import io.tidb.operator.dmsim.SimulatedDmClusters;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.PodInstance;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pd.ComponentHttp;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The DM master client against the DM simulator: real paths, JSON shapes, refusals and faults. */
class DmMasterClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns", "dc");
  private final ComponentHttp http = ComponentHttp.plain(Duration.ofSeconds(5));
  private DmSimulatorServer sim;

  @BeforeEach
  void start() throws Exception {
    sim = DmSimulatorServer.start(new SimulatedDmClusters());
    sim.cluster(KEY).syncPods(
        List.of(pod("dc-dm-master-0"), pod("dc-dm-master-1"), pod("dc-dm-master-2")),
        List.of(pod("dc-dm-worker-0")));
    sim.cluster(KEY).addSource("mysql-replica-01");
  }

  @AfterEach
  void stop() {
    sim.close();
  }

  private static PodInstance pod(String name) {
    return new PodInstance(name, name + "-uid", true);
  }

  private DmMasterClient service() {
    return new DmMasterClient(http, sim.serviceUrl(KEY), Duration.ofSeconds(2));
  }

  private DmMasterClient member(String name) {
    return new DmMasterClient(http, sim.memberUrl(KEY, name), Duration.ofSeconds(2));
  }

  @Test
  void listsMastersWorkersAndTheLeader() {
    List<DmMasterInfo> masters = service().masters();
    assertEquals(3, masters.size());
    assertEquals("dc-dm-master-0", masters.get(0).name());
    assertTrue(masters.get(0).alive());
    assertEquals(List.of("http://dc-dm-master-0.dc-dm-master-peer.ns.svc:8261"), masters.get(0).clientUrls());
    assertEquals(List.of(new DmWorkerInfo("dc-dm-worker-0", "dc-dm-worker-0.dc-dm-worker-peer.ns.svc:8262",
        "bound", "mysql-replica-01")), service().workers());
    assertEquals(new DmLeaderInfo("dc-dm-master-0", "dc-dm-master-0.dc-dm-master-peer.ns.svc:8261"),
        service().leader());
    assertEquals(List.of("GET /apis/v1alpha1/members?master=true", "GET /apis/v1alpha1/members?worker=true",
        "GET /apis/v1alpha1/members?leader=true"),
        sim.calls().stream().map(RecordedCall::request).toList());
  }

  @Test
  void evictLeaderGoesToTheMemberAndDeleteMasterToTheService() {
    member("dc-dm-master-0").evictLeader();
    assertEquals("dc-dm-master-1", service().leader().name());
    service().deleteMaster("dc-dm-master-0");
    assertEquals(2, service().masters().size());
    List<RecordedCall> calls = sim.calls();
    assertEquals("dc-dm-master-0", calls.get(0).instance());
    assertEquals("PUT /apis/v1alpha1/leader/1", calls.get(0).request());
    assertEquals("DELETE /apis/v1alpha1/members/master/dc-dm-master-0", calls.get(2).request());
  }

  @Test
  void aRefusalIsReportedWithDmsMessage() {
    DmApiException e = assertThrows(DmApiException.class, () -> service().deleteWorker("dc-dm-worker-0"));
    assertEquals(DmApiException.Reason.REFUSED, e.reason());
    assertTrue(e.getMessage().contains("is still online"), e.getMessage());
  }

  @Test
  void injectedServerErrorsAndSlownessFailTheCall() {
    sim.faults().add(FaultRule.fail("/apis/v1alpha1/members", 503).times(1));
    DmApiException failed = assertThrows(DmApiException.class, () -> service().masters());
    assertEquals(DmApiException.Reason.HTTP_STATUS, failed.reason());
    assertEquals(503, failed.status());
    sim.faults().add(FaultRule.slow("/apis/v1alpha1/members", Duration.ofSeconds(3)).times(1));
    DmMasterClient impatient = new DmMasterClient(http, sim.serviceUrl(KEY), Duration.ofMillis(300));
    assertEquals(DmApiException.Reason.UNREACHABLE,
        assertThrows(DmApiException.class, impatient::masters).reason());
    assertEquals(3, service().masters().size(), "the rules ran out");
  }

  @Test
  void aMemberThatDoesNotRunIsUnreachable() {
    sim.cluster(KEY).syncPods(List.of(pod("dc-dm-master-0"), pod("dc-dm-master-1"),
        new PodInstance("dc-dm-master-2", "dc-dm-master-2-uid", false)), List.of());
    assertEquals(503, assertThrows(DmApiException.class, () -> member("dc-dm-master-2").evictLeader()).status());
  }
}
