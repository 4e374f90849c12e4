package io.tidb.operator.dmapi;

import java.util.List;

/**
 * A dm-master member as {@code GET /apis/v1alpha1/members?master=true} lists it.
 *
 * @param memberId the etcd member ID (an unsigned 64-bit integer, sent as a string)
 * @param alive whether the member answers its peers
 */
public record DmMasterInfo(
    String name, String memberId, boolean alive, List<String> peerUrls, List<String> clientUrls) {

  public DmMasterInfo {
    peerUrls = List.copyOf(peerUrls);
    clientUrls = List.copyOf(clientUrls);
  }
}
