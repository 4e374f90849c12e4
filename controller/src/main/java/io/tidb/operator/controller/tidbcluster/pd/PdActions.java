package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.controller.tidbcluster.member.MemberAction;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;

/** The PD calls PD's scale-in and upgrade rules decide on. */
public final class PdActions {

  private PdActions() {}

  /** {@code POST /pd/api/v1/leader/transfer/{to}}. */
  public record TransferLeader(String from, String to) implements MemberAction {
    @Override
    public String reason() {
      return "PDLeaderTransferred";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().transferPdLeader(to);
    }
  }

  /** {@code DELETE /pd/api/v1/members/name/{member}}; a member already gone is fine. */
  public record DeleteMember(String member) implements MemberAction {
    @Override
    public String reason() {
      return "PDMemberDeleted";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().deletePdMember(member);
    }
  }

  /**
   * {@code DELETE /pd/api/v1/members/id/{id}} for the member of pod {@code pod}; a member
   * already gone is fine.
   */
  public record DeleteMemberById(String pod, String memberId) implements MemberAction {
    @Override
    public String reason() {
      return "PDMemberDeleted";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().deletePdMemberById(memberId);
    }
  }
}
