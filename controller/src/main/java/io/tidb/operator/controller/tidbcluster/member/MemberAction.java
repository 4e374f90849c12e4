package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;

/**
 * One call a scale or upgrade rule decided on: a value (rules return it, tests compare it) that
 * knows how to carry itself out against the cluster's PD or the API server.
 */
public interface MemberAction {

  /** The Event reason recorded when the action is carried out, e.g. {@code PDMemberDeleted}. */
  String reason();

  void perform(ClusterContext ctx) throws IOException;
}
