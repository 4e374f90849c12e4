package io.tidb.operator.controller.discovery;

import java.util.List;

/**
 * One entry of PD's {@code GET /pd/api/v1/members}, reduced to what discovery reads.
 *
 * @param name the member name (pod name, or full DNS name with a cluster domain); empty for a member
 *     that was added but never started
 * @param peerUrls its {@code peer_urls}
 * @param clientUrls its {@code client_urls}
 */
public record PdMember(String name, List<String> peerUrls, List<String> clientUrls) {
  public PdMember {
    name = name == null ? "" : name;
    peerUrls = peerUrls == null ? List.of() : List.copyOf(peerUrls);
    clientUrls = clientUrls == null ? List.of() : List.copyOf(clientUrls);
  }
}
