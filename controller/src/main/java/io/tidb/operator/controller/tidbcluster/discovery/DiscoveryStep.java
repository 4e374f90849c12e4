package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;

/**
 * Discovery: per cluster a ServiceAccount, Role, RoleBinding, Deployment (this operator's image in
 * discovery mode) and Service, so PD pods learn whether to bootstrap or join. Runs whenever the
 * cluster has PD.
 */
public final class DiscoveryStep implements ComponentStep {

  private final String image;

  /** @param image the discovery Deployment's image: this operator's own image */
  public DiscoveryStep(String image) {
    this.image = image;
  }

  /** The keys of the objects built from the cluster alone ({@link ClusterContext#derived}). */
  private enum Built { SERVICE_ACCOUNT, ROLE, ROLE_BINDING, DEPLOYMENT, SERVICE }

  @Override
  public String name() {
    return "discovery";
  }

  @Override
  public boolean enabled(TidbCluster cluster) {
    return cluster.getSpec().getPd() != null;
  }

  @Override
  public void observe(ClusterContext ctx) {
    // Discovery has no status of its own.
  }

  @Override
  public StepResult apply(ClusterContext ctx) {
    TidbCluster tc = ctx.cluster();
    // Functions of the cluster alone: built once per version of it.
    ctx.apply(ctx.derived(Built.SERVICE_ACCOUNT, () -> DiscoveryObjects.serviceAccount(tc)));
    ctx.apply(ctx.derived(Built.ROLE, () -> DiscoveryObjects.role(tc)));
    ctx.apply(ctx.derived(Built.ROLE_BINDING, () -> DiscoveryObjects.roleBinding(tc)));
    ctx.apply(ctx.derived(Built.DEPLOYMENT, () -> DiscoveryObjects.deployment(tc, image)));
    ctx.apply(ctx.derived(Built.SERVICE, () -> DiscoveryObjects.service(tc)));
    return StepResult.CONTINUE;
  }
}
