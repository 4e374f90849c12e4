package io.tidb.operator.controller.tidbcluster.pump;

import io.tidb.operator.controller.tidbcluster.member.MemberAction;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;

/** The Pump calls the scale-in decides on. */
final class PumpActions {

  private PumpActions() {}

  /** {@code PUT /state/<nodeId>/close} on the pump of {@code pod}: it goes offline. */
  record Offline(String pod, String nodeId) implements MemberAction {
    @Override
    public String reason() {
      return "PumpOffline";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().offlinePump(pod, nodeId);
    }
  }
}
