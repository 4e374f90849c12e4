package io.tidb.operator.pdsim;

import java.time.Instant;

/**
 * One request the simulator received.
 *
 * @param cluster the cluster it was for, or null when the URL named none
 * @param component "pd" or "tidb", or null when the URL named none
 * @param instance the PD member or TiDB pod it was sent to, or null for the PD service
 * @param path the path relative to the server, e.g. {@code /pd/api/v1/stores}
 * @param query the raw query string, or null
 * @param status the status the simulator answered
 */
public record RecordedCall(
    Instant time, ClusterKey cluster, String component, String instance, String method,
    String path, String query, String body, int status) {

  /** {@code METHOD path[?query]}, e.g. {@code DELETE /pd/api/v1/store/4}. */
  public String request() {
    return method + " " + path + (query == null ? "" : "?" + query);
  }
}
