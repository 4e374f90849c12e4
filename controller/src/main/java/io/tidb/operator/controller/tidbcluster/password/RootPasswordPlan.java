package io.tidb.operator.controller.tidbcluster.password;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decisions behind {@code spec.tidb.initializer.createPassword}, as upstream makes them: once
 * TiDB is up, the Secret {@code <cluster>-init} (key {@code root}) is created with a random
 * password unless it exists (an existing one is never rewritten), root's password is set to the
 * Secret's, and {@code status.tidb.passwordInitialized} records that it is done for good.
 */
public final class RootPasswordPlan {

  /** Upstream's key of root's password in the Secret. */
  public static final String ROOT_KEY = "root";

  /** What the step does next. */
  public enum Action {
    /** Not asked for, or done already ({@code status.tidb.passwordInitialized}). */
    NONE,
    /** No TiDB member is healthy yet. */
    WAIT_FOR_TIDB,
    /** The Secret does not exist: create it with a new password, then set root's password. */
    CREATE_SECRET,
    /** The Secret exists with a password: set root's password to it. */
    SET_PASSWORD,
    /** The Secret exists without a usable {@code root} key: report, change nothing. */
    SECRET_WITHOUT_PASSWORD
  }

  /**
   * @param asked {@code spec.tidb.initializer.createPassword}
   * @param initialized {@code status.tidb.passwordInitialized}
   * @param tidbUp at least one TiDB member is healthy
   * @param secret the Secret {@code <cluster>-init}, if it exists
   */
  public record Facts(boolean asked, boolean initialized, boolean tidbUp, Optional<Secret> secret) {}

  /** How logging in to TiDB as root and setting the password went. */
  public enum Login {
    /** root had no password (a new TiDB); it now has the Secret's. */
    SET,
    /** root already accepts the Secret's password (an earlier reconcile set it). */
    ALREADY_SET,
    /** root refuses both no password and the Secret's: someone else set another one. */
    DENIED,
    /** TiDB did not answer, or refused the statement: try again later. */
    RETRY
  }

  /**
   * What a login outcome means.
   *
   * @param initialized whether {@code status.tidb.passwordInitialized} becomes true
   * @param warning a Warning Event's message, when the user must know something went wrong
   */
  public record Verdict(boolean initialized, Optional<String> warning) {}

  private RootPasswordPlan() {}

  /** {@code <cluster>-init}, upstream's name. */
  public static String secretName(String cluster) {
    return cluster + "-init";
  }

  /** Whether the cluster asks for a generated root password. */
  public static boolean asked(TidbCluster tc) {
    TidbSpec tidb = tc.getSpec().getTidb();
    return tidb != null
        && tidb.getInitializer() != null
        && Boolean.TRUE.equals(tidb.getInitializer().getCreatePassword());
  }

  /** {@code status.tidb.passwordInitialized}. */
  public static boolean initialized(TidbClusterStatus status) {
    return status != null
        && status.getTidb() != null
        && Boolean.TRUE.equals(status.getTidb().getPasswordInitialized());
  }

  /** At least one TiDB member healthy in the status being built (probed this reconcile). */
  public static boolean tidbUp(TidbClusterStatus status) {
    Map<String, TidbMember> members =
        status == null || status.getTidb() == null ? null : status.getTidb().getMembers();
    return members != null
        && members.values().stream().anyMatch(m -> Boolean.TRUE.equals(m.getHealth()));
  }

  public static Action next(Facts facts) {
    if (!facts.asked() || facts.initialized()) {
      return Action.NONE;
    }
    if (!facts.tidbUp()) {
      return Action.WAIT_FOR_TIDB;
    }
    if (facts.secret().isEmpty()) {
      return Action.CREATE_SECRET;
    }
    return password(facts.secret().get()).isPresent()
        ? Action.SET_PASSWORD
        : Action.SECRET_WITHOUT_PASSWORD;
  }

  /** The Secret's {@code root} password, when it has a non-empty one. */
  public static Optional<String> password(Secret secret) {
    if (secret.getData() != null && secret.getData().get(ROOT_KEY) != null) {
      String value =
          new String(Base64.getDecoder().decode(secret.getData().get(ROOT_KEY)), StandardCharsets.UTF_8);
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }
    if (secret.getStringData() != null && secret.getStringData().get(ROOT_KEY) != null) {
      String value = secret.getStringData().get(ROOT_KEY);
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }
    return Optional.empty();
  }

  /**
   * The Secret to create: upstream's name, key and labels ({@code app.kubernetes.io/name},
   * {@code managed-by}, {@code instance}), owned by the cluster so it goes with it.
   */
  public static Secret secret(TidbCluster tc, String password) {
    List<OwnerReference> owners = OwnerRefs.of(tc);
    return new SecretBuilder()
        .withNewMetadata()
        .withName(secretName(tc.getMetadata().getName()))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.cluster(Labels.instanceOf(tc)))
        .withOwnerReferences(owners)
        .endMetadata()
        .withType("Opaque")
        .addToData(ROOT_KEY, Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  /**
   * Upstream gives up when root refuses the login (someone set a password already): the status
   * says initialized, so the operator stops trying, and a Warning says the Secret is not root's.
   */
  public static Verdict after(Login login, String secretName) {
    switch (login) {
      case SET:
      case ALREADY_SET:
        return new Verdict(true, Optional.empty());
      case DENIED:
        return new Verdict(true, Optional.of(
            "TiDB refuses root's login both without a password and with the one in Secret "
                + secretName + " (key " + ROOT_KEY + "): root's password was set by someone else and"
                + " is left alone; the Secret does not hold it"));
      default:
        return new Verdict(false, Optional.empty());
    }
  }

  /** The message for a Secret that exists but has no password under {@code root}. */
  public static String secretWithoutPassword(String secretName) {
    return "Secret " + secretName + " exists but has no non-empty key " + ROOT_KEY
        + ": spec.tidb.initializer.createPassword uses an existing Secret as it is and never rewrites"
        + " it; add the key " + ROOT_KEY + " or delete the Secret to have a password generated";
  }
}
