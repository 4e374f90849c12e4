package io.tidb.operator.dmapi;

/** The dm-master leader as {@code GET /apis/v1alpha1/members?leader=true} reports it. */
public record DmLeaderInfo(String name, String addr) {}
