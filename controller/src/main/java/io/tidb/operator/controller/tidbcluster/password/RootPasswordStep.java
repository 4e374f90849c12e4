package io.tidb.operator.controller.tidbcluster.password;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbStatus;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code spec.tidb.initializer.createPassword}: after TiDB, once TiDB is up, the Secret {@code
 * <cluster>-init} is created if absent and root's password set to it; then {@code
 * status.tidb.passwordInitialized} ends the step for good. The decisions are {@link
 * RootPasswordPlan}'s; this step only reads, creates and logs in. Neither the password nor any
 * message of the server's reaches a log line, an Event or the status.
 */
public final class RootPasswordStep implements ComponentStep {

  private static final Logger LOG = LoggerFactory.getLogger(RootPasswordStep.class);

  /** A Warning: the Secret exists without a password under {@code root}. */
  public static final String REASON_INVALID = "PasswordSecretInvalid";

  private final PasswordSecrets secrets;
  private final RootAccount root;
  private final TidbSqlAddress address;

  public RootPasswordStep(PasswordSecrets secrets, RootAccount root, TidbSqlAddress address) {
    this.secrets = secrets;
    this.root = root;
    this.address = address;
  }

  @Override
  public String name() {
    return "tidb-password";
  }

  @Override
  public boolean enabled(TidbCluster cluster) {
    return RootPasswordPlan.asked(cluster);
  }

  @Override
  public void observe(ClusterContext ctx) {
    // Its only state is status.tidb.passwordInitialized, written by apply.
  }

  @Override
  public StepResult apply(ClusterContext ctx) {
    TidbCluster tc = ctx.cluster();
    boolean initialized = RootPasswordPlan.initialized(ctx.status());
    boolean tidbUp = RootPasswordPlan.tidbUp(ctx.status());
    String name = RootPasswordPlan.secretName(ctx.name());
    Optional<Secret> secret =
        initialized || !tidbUp ? Optional.empty() : secrets.get(ctx.namespace(), name);
    switch (RootPasswordPlan.next(new RootPasswordPlan.Facts(true, initialized, tidbUp, secret))) {
      case WAIT_FOR_TIDB:
        return StepResult.inProgress("TiDB to be up, to set the generated root password");
      case CREATE_SECRET:
        String generated = RandomRootPassword.generate();
        Secret stored = secrets.createIfAbsent(RootPasswordPlan.secret(tc, generated));
        if (RootPasswordPlan.password(stored).filter(generated::equals).isPresent()) {
          LOG.info("event=password_secret_created namespace={} cluster={} secret={}",
              ctx.namespace(), ctx.name(), name);
          ctx.events().normal(tc, "PasswordSecretCreated",
              "generated a random root password into Secret " + name + " (key "
                  + RootPasswordPlan.ROOT_KEY + ")");
        }
        return setPassword(ctx, stored);
      case SET_PASSWORD:
        return setPassword(ctx, secret.get());
      case SECRET_WITHOUT_PASSWORD:
        ctx.events().warning(tc, REASON_INVALID, RootPasswordPlan.secretWithoutPassword(name));
        return StepResult.CONTINUE;
      default:
        return StepResult.CONTINUE;
    }
  }

  private StepResult setPassword(ClusterContext ctx, Secret secret) {
    String name = secret.getMetadata().getName();
    Optional<String> password = RootPasswordPlan.password(secret);
    if (password.isEmpty()) {
      ctx.events().warning(ctx.cluster(), REASON_INVALID, RootPasswordPlan.secretWithoutPassword(name));
      return StepResult.CONTINUE;
    }
    RootPasswordPlan.Login login = root.setPassword(address.of(ctx.cluster()), password.get());
    RootPasswordPlan.Verdict verdict = RootPasswordPlan.after(login, name);
    if (!verdict.initialized()) {
      return StepResult.inProgress("TiDB to accept root's login, to set the password of Secret " + name);
    }
    TidbStatus status = ctx.status().getTidb() == null ? new TidbStatus() : ctx.status().getTidb();
    status.setPasswordInitialized(true);
    ctx.status().setTidb(status);
    LOG.info("event=root_password_initialized namespace={} cluster={} secret={} login={}",
        ctx.namespace(), ctx.name(), name, login);
    if (verdict.warning().isPresent()) {
      ctx.events().warning(ctx.cluster(), "RootPasswordNotSet", verdict.warning().get());
    } else if (login == RootPasswordPlan.Login.SET) {
      ctx.events().normal(ctx.cluster(), "RootPasswordSet",
          "root's password set to the one in Secret " + name + " (key " + RootPasswordPlan.ROOT_KEY + ")");
    }
    return StepResult.CONTINUE;
  }
}
