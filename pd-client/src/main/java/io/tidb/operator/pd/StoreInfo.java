package io.tidb.operator.pd;

import java.time.Instant;
import java.util.Map;

/**
 * One store of {@code GET /pd/api/v1/stores} or {@code /store/{id}}.
 *
 * @param labels store labels in PD's order ({@code engine=tiflash} marks TiFlash)
 * @param capacity PD's size text, e.g. "100GiB"
 * @param available PD's size text, e.g. "95.12GiB"
 * @param lastHeartbeat the last heartbeat, or null when PD reports none
 */
public record StoreInfo(
    long id,
    String address,
    Map<String, String> labels,
    StoreState state,
    String version,
    String statusAddress,
    int leaderCount,
    int regionCount,
    String capacity,
    String available,
    Instant lastHeartbeat) {

  public StoreInfo {
    labels = Map.copyOf(labels);
  }

  public boolean isTiFlash() {
    return "tiflash".equals(labels.get("engine"));
  }

  /** The host part of the address up to the first dot: the pod name for operator pods. */
  public String podName() {
    int dot = address.indexOf('.');
    int colon = address.indexOf(':');
    int end = dot >= 0 ? dot : colon >= 0 ? colon : address.length();
    return address.substring(0, end);
  }
}
