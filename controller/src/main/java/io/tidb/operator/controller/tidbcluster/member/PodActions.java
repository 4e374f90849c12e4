package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;

/** Pod calls the care rules decide on. */
public final class PodActions {

  private PodActions() {}

  /** Event reason of a pod the operator deleted because an annotation asked for it. */
  public static final String POD_DELETED = "PodDeleted";

  /**
   * Deletes a pod (only if it still has {@code uid}); its StatefulSet creates it again, without
   * the annotation that asked for the deletion.
   */
  public record DeletePod(String pod, String uid) implements MemberAction {
    @Override
    public String reason() {
      return POD_DELETED;
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.deletions().deletePod(pod, uid);
    }
  }
}
