package io.tidb.operator.pd;

import java.util.List;

/**
 * A PD member ({@code pdpb.Member}).
 *
 * @param memberId unsigned 64-bit etcd member id (see {@link #memberIdText()})
 * @param binaryVersion e.g. "v8.5.1"; empty where PD does not report it ({@code GET /leader})
 */
public record PdMemberInfo(
    String name, long memberId, List<String> peerUrls, List<String> clientUrls,
    String binaryVersion) {

  public PdMemberInfo {
    peerUrls = List.copyOf(peerUrls);
    clientUrls = List.copyOf(clientUrls);
  }

  public String memberIdText() {
    return Long.toUnsignedString(memberId);
  }
}
