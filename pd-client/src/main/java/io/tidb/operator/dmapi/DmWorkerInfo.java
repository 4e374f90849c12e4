package io.tidb.operator.dmapi;

/**
 * A dm-worker as {@code GET /apis/v1alpha1/members?worker=true} lists it.
 *
 * @param stage {@code free}, {@code bound} or {@code offline}
 * @param source the upstream source the worker is bound to, or empty
 */
public record DmWorkerInfo(String name, String addr, String stage, String source) {

  public static final String FREE = "free";
  public static final String BOUND = "bound";
  public static final String OFFLINE = "offline";

  public boolean bound() {
    return BOUND.equals(stage);
  }

  public boolean offline() {
    return OFFLINE.equals(stage);
  }
}
