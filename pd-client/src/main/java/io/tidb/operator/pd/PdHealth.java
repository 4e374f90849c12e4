package io.tidb.operator.pd;

import java.util.List;

/**
 * One member's entry in {@code GET /pd/api/v1/health}.
 *
 * @param memberId unsigned 64-bit etcd member id (see {@link #memberIdText()})
 * @param clientUrls empty for a member that was added but never started
 */
public record PdHealth(String name, long memberId, List<String> clientUrls, boolean healthy) {

  public PdHealth {
    clientUrls = List.copyOf(clientUrls);
  }

  /** The member id in decimal, as upstream stores it in status. */
  public String memberIdText() {
    return Long.toUnsignedString(memberId);
  }

  /** The first client URL, or null. */
  public String clientUrl() {
    return clientUrls.isEmpty() ? null : clientUrls.get(0);
  }
}
