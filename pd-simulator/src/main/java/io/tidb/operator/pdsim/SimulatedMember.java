package io.tidb.operator.pdsim;

/**
 * A snapshot of one PD member.
 *
 * @param memberId the etcd member id, an unsigned 64-bit number ({@link Long#toUnsignedString})
 * @param healthy whether the member answers (its pod is running)
 * @param regionsLoaded whether {@code /pd/api/v2/ready} answers 200 on this member
 */
public record SimulatedMember(
    String name, long memberId, String clientUrl, String peerUrl, boolean healthy,
    boolean regionsLoaded) {}
