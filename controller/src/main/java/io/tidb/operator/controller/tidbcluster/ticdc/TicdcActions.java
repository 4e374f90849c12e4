package io.tidb.operator.controller.tidbcluster.ticdc;

import io.tidb.operator.controller.tidbcluster.member.MemberAction;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;

/** The TiCDC calls the graceful shutdown decides on. */
final class TicdcActions {

  private TicdcActions() {}

  /** {@code POST /api/v1/owner/resign} on the TiCDC server of {@code pod}. */
  record ResignOwner(String pod) implements MemberAction {
    @Override
    public String reason() {
      return "TiCDCOwnerResigned";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().resignTicdcOwner(pod);
    }
  }
}
