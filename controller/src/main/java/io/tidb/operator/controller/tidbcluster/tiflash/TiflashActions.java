package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.MemberAction;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;

/** The PD calls TiFlash's rules decide on. */
final class TiflashActions {

  private TiflashActions() {}

  /**
   * {@code DELETE /pd/api/v1/store/{id}}: the store goes Offline and PD moves its replicas away
   * until it is Tombstone.
   */
  record DeleteStore(String storeId, String pod) implements MemberAction {
    @Override
    public String reason() {
      return "StoreDeleted";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().deleteStore(storeId);
    }
  }
}
