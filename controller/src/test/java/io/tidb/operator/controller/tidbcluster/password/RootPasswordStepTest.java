package io.tidb.operator.controller.tidbcluster.password;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbPasswordInitializer;
import io.tidb.operator.api.v1alpha1.cluster.TidbStatus;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.password.RootPasswordPlan.Login;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RootPasswordStepTest {

  private static final InetSocketAddress TIDB = InetSocketAddress.createUnresolved("basic-tidb.default", 4000);

  /** Secrets by name; counts creates. */
  static final class FakeSecrets implements PasswordSecrets {
    final Map<String, Secret> stored = new HashMap<>();
    int gets;
    int creates;

    @Override
    public Optional<Secret> get(String namespace, String name) {
      gets++;
      return Optional.ofNullable(stored.get(name));
    }

    @Override
    public Secret createIfAbsent(Secret secret) {
      creates++;
      Secret copy = ApiObjects.deepCopy(secret);
      copy.getMetadata().setUid("secret-uid-" + creates);
      return stored.computeIfAbsent(secret.getMetadata().getName(), n -> copy);
    }
  }

  /** Answers with a programmed outcome; records each password it was asked to set. */
  static final class FakeRoot implements RootAccount {
    Login answer = Login.SET;
    final List<String> passwords = new ArrayList<>();

    @Override
    public Login setPassword(InetSocketAddress tidb, String password) {
      assertEquals(TIDB, tidb);
      passwords.add(password);
      return answer;
    }
  }

  private final FakeSecrets secrets = new FakeSecrets();
  private final FakeRoot root = new FakeRoot();
  private final RootPasswordStep step = new RootPasswordStep(secrets, root, tc -> TIDB);
  private RecordingEventRecorder events;

  private static TidbCluster asking() {
    TidbCluster tc = TestClusters.load("basic");
    TidbPasswordInitializer init = new TidbPasswordInitializer();
    init.setCreatePassword(true);
    tc.getSpec().getTidb().setInitializer(init);
    return tc;
  }

  private ClusterContext ctx(TidbCluster tc, boolean tidbHealthy, boolean initialized) {
    TidbClusterStatus status = new TidbClusterStatus();
    TidbStatus tidb = new TidbStatus();
    TidbMember m = new TidbMember();
    m.setName("basic-tidb-0");
    m.setHealth(tidbHealthy);
    tidb.setMembers(new HashMap<>(Map.of("basic-tidb-0", m)));
    if (initialized) {
      tidb.setPasswordInitialized(true);
    }
    status.setTidb(tidb);
    events = new RecordingEventRecorder();
    return new ClusterContext(
        new ResourceContext<>(tc, tc, status, new FakeOwnedObjects(), new FakeApplier(), events, ClusterContexts.NOW),
        new FakeClusterApi(),
        new FakeVolumeClaims());
  }

  private static String password(Secret s) {
    return new String(Base64.getDecoder().decode(s.getData().get("root")), StandardCharsets.UTF_8);
  }

  @Test
  void runsOnlyWhenTheClusterAsks() {
    assertTrue(step.enabled(asking()));
    assertFalse(step.enabled(TestClusters.load("basic")));
  }

  @Test
  void waitsForTidbWithoutTouchingSecretsOrTidb() {
    ClusterContext ctx = ctx(asking(), false, false);
    assertInstanceOf(StepResult.InProgress.class, step.apply(ctx));
    assertEquals(0, secrets.gets + secrets.creates);
    assertTrue(root.passwords.isEmpty());
    assertNull(ctx.status().getTidb().getPasswordInitialized());
  }

  @Test
  void firstBringUpGeneratesTheSecretSetsRootAndRecordsIt() {
    ClusterContext ctx = ctx(asking(), true, false);
    assertSame(StepResult.CONTINUE, step.apply(ctx));
    assertEquals(1, secrets.creates);
    Secret s = secrets.stored.get("basic-init");
    String generated = password(s);
    assertEquals(13, generated.length());
    assertEquals(List.of(generated), root.passwords, "root gets the Secret's password");
    assertEquals(Boolean.TRUE, ctx.status().getTidb().getPasswordInitialized());
    assertEquals(List.of("PasswordSecretCreated", "RootPasswordSet"), events.reasons());
    events.events.forEach(e -> assertFalse(e.message().contains(generated), "no password in " + e));
    assertFalse(ApiObjects.toJson(ctx.status()).contains(generated), "no password in the status");
  }

  @Test
  void anExistingSecretIsUsedAsItIsAndNeverRewritten() {
    secrets.stored.put("basic-init", new SecretBuilder().withNewMetadata().withName("basic-init").endMetadata()
        .addToData("root", Base64.getEncoder().encodeToString("chosen-by-user".getBytes(StandardCharsets.UTF_8)))
        .build());
    ClusterContext ctx = ctx(asking(), true, false);
    step.apply(ctx);
    assertEquals(0, secrets.creates);
    assertEquals(List.of("chosen-by-user"), root.passwords);
    assertEquals(List.of("RootPasswordSet"), events.reasons());
    assertEquals(Boolean.TRUE, ctx.status().getTidb().getPasswordInitialized());
  }

  @Test
  void tidbNotAcceptingYetKeepsTheSecretAndRetriesWithIt() {
    root.answer = Login.RETRY;
    ClusterContext first = ctx(asking(), true, false);
    assertInstanceOf(StepResult.InProgress.class, step.apply(first));
    assertNull(first.status().getTidb().getPasswordInitialized());
    String generated = password(secrets.stored.get("basic-init"));

    root.answer = Login.SET;
    ClusterContext second = ctx(asking(), true, false);
    step.apply(second);
    assertEquals(1, secrets.creates, "the Secret is created once");
    assertEquals(List.of(generated, generated), root.passwords);
    assertEquals(List.of("RootPasswordSet"), events.reasons());
    assertEquals(Boolean.TRUE, second.status().getTidb().getPasswordInitialized());
  }

  @Test
  void aPasswordSetEarlierCountsAsDoneWithoutAnEvent() {
    root.answer = Login.ALREADY_SET;
    ClusterContext ctx = ctx(asking(), true, false);
    step.apply(ctx);
    assertEquals(Boolean.TRUE, ctx.status().getTidb().getPasswordInitialized());
    assertEquals(List.of("PasswordSecretCreated"), events.reasons());
  }

  @Test
  void rootWithAnotherPasswordIsLeftAloneWithAWarning() {
    root.answer = Login.DENIED;
    ClusterContext ctx = ctx(asking(), true, false);
    step.apply(ctx);
    assertEquals(Boolean.TRUE, ctx.status().getTidb().getPasswordInitialized());
    assertEquals(List.of("PasswordSecretCreated", "RootPasswordNotSet"), events.reasons());
  }

  @Test
  void aSecretWithoutRootIsReportedAndNothingIsSet() {
    secrets.stored.put("basic-init", new SecretBuilder().withNewMetadata().withName("basic-init").endMetadata()
        .addToData("other", "eA==").build());
    ClusterContext ctx = ctx(asking(), true, false);
    assertSame(StepResult.CONTINUE, step.apply(ctx));
    assertTrue(root.passwords.isEmpty());
    assertEquals(0, secrets.creates);
    assertEquals(List.of(RootPasswordStep.REASON_INVALID), events.reasons());
    assertNull(ctx.status().getTidb().getPasswordInitialized());
  }

  @Test
  void onceInitializedNothingIsReadOrWritten() {
    ClusterContext ctx = ctx(asking(), true, true);
    assertSame(StepResult.CONTINUE, step.apply(ctx));
    assertEquals(0, secrets.gets + secrets.creates);
    assertTrue(root.passwords.isEmpty());
    assertTrue(events.events.isEmpty());
  }
}
