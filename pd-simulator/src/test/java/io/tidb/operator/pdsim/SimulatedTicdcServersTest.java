package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatedTicdcServersTest {

  private final SimulatedTicdcServers cdc = new SimulatedTicdcServers(new ClusterKey("ns", "tc"));

  private void start(String... pods) {
    cdc.syncPods(java.util.Arrays.stream(pods).map(p -> new PodInstance(p, p + "-uid", true))
        .toList());
  }

  private String captureOf(String pod) {
    return cdc.captures().stream().filter(c -> c.pod().equals(pod)).findFirst().orElseThrow().id();
  }

  private int answer(String pod, String method, String path, String body) {
    return cdc.answer(pod, SimRequest.of(method, path, body), "v8.5.7").status();
  }

  @Test
  void aResignPrefersACaptureThatIsNotDraining() {
    start("tc-ticdc-0", "tc-ticdc-1", "tc-ticdc-2");
    cdc.setOwner("tc-ticdc-1");
    assertEquals(202, answer("tc-ticdc-2", "PUT", "/api/v1/captures/drain",
        "{\"capture_id\":\"" + captureOf("tc-ticdc-2") + "\"}"));
    assertEquals(202, answer("tc-ticdc-1", "POST", "/api/v1/owner/resign", null));
    assertEquals(Optional.of("tc-ticdc-0"), cdc.owner());
  }

  @Test
  void withOnlyADrainingCaptureLeftItTakesOwnershipAndAloneTheOwnerKeepsIt() {
    start("tc-ticdc-0", "tc-ticdc-1");
    cdc.setOwner("tc-ticdc-0");
    assertEquals(202, answer("tc-ticdc-1", "PUT", "/api/v1/captures/drain",
        "{\"capture_id\":\"" + captureOf("tc-ticdc-1") + "\"}"));
    assertEquals(202, answer("tc-ticdc-0", "POST", "/api/v1/owner/resign", null));
    assertEquals(Optional.of("tc-ticdc-1"), cdc.owner(),
        "two captures hand ownership over while one drains, or an upgrade could never go on");

    cdc.syncPods(List.of(new PodInstance("tc-ticdc-0", "tc-ticdc-0-uid", true)));
    assertEquals(Optional.of("tc-ticdc-0"), cdc.owner());
    assertEquals(202, answer("tc-ticdc-0", "POST", "/api/v1/owner/resign", null));
    assertEquals(Optional.of("tc-ticdc-0"), cdc.owner(), "alone, the owner stays");
  }
}
