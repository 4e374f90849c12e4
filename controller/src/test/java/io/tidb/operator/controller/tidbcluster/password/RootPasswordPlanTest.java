package io.tidb.operator.controller.tidbcluster.password;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.password.RootPasswordPlan.Action;
import io.tidb.operator.controller.tidbcluster.password.RootPasswordPlan.Facts;
import io.tidb.operator.controller.tidbcluster.password.RootPasswordPlan.Login;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RootPasswordPlanTest {

  private static final Secret WITH_PASSWORD = secret(Map.of("root", "s3cr3t"));

  private static Secret secret(Map<String, String> data) {
    SecretBuilder b = new SecretBuilder().withNewMetadata().withName("basic-init").endMetadata();
    data.forEach((k, v) -> b.addToData(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return b.build();
  }

  private static TidbCluster cluster(String yaml) {
    TidbCluster tc = ApiObjects.parse(yaml, TidbCluster.class);
    tc.getMetadata().setNamespace("ns");
    tc.getMetadata().setUid("uid-1");
    return tc;
  }

  private static final String ASKED = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbCluster
      metadata: {name: basic}
      spec:
        tidb: {replicas: 1, initializer: {createPassword: true}}
      """;

  @Test
  void nothingUnlessAskedAndNotDoneYet() {
    assertEquals(Action.NONE, RootPasswordPlan.next(new Facts(false, false, true, Optional.empty())));
    assertEquals(Action.NONE, RootPasswordPlan.next(new Facts(true, true, true, Optional.empty())));
    assertEquals(Action.NONE, RootPasswordPlan.next(new Facts(true, true, true, Optional.of(WITH_PASSWORD))));
  }

  @Test
  void waitsForTidbBeforeAnything() {
    assertEquals(Action.WAIT_FOR_TIDB, RootPasswordPlan.next(new Facts(true, false, false, Optional.empty())));
    assertEquals(Action.WAIT_FOR_TIDB, RootPasswordPlan.next(new Facts(true, false, false, Optional.of(WITH_PASSWORD))));
  }

  @Test
  void createsTheSecretOnlyWhenAbsentAndOtherwiseUsesIt() {
    assertEquals(Action.CREATE_SECRET, RootPasswordPlan.next(new Facts(true, false, true, Optional.empty())));
    assertEquals(Action.SET_PASSWORD, RootPasswordPlan.next(new Facts(true, false, true, Optional.of(WITH_PASSWORD))));
    assertEquals(Action.SECRET_WITHOUT_PASSWORD,
        RootPasswordPlan.next(new Facts(true, false, true, Optional.of(secret(Map.of("user", "x"))))));
    assertEquals(Action.SECRET_WITHOUT_PASSWORD,
        RootPasswordPlan.next(new Facts(true, false, true, Optional.of(secret(Map.of("root", ""))))));
  }

  @Test
  void readsThePasswordFromDataOrStringData() {
    assertEquals(Optional.of("s3cr3t"), RootPasswordPlan.password(WITH_PASSWORD));
    Secret stringData = new SecretBuilder().addToStringData("root", "plain").build();
    assertEquals(Optional.of("plain"), RootPasswordPlan.password(stringData));
    assertEquals(Optional.empty(), RootPasswordPlan.password(new Secret()));
  }

  @Test
  void theSecretHasUpstreamsNameKeyLabelsAndOwner() {
    Secret s = RootPasswordPlan.secret(cluster(ASKED), "pw");
    assertEquals("basic-init", s.getMetadata().getName());
    assertEquals("ns", s.getMetadata().getNamespace());
    assertEquals(Map.of("app.kubernetes.io/name", "tidb-cluster", "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/instance", "basic"), s.getMetadata().getLabels());
    assertEquals("TidbCluster", s.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals("uid-1", s.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals(Optional.of("pw"), RootPasswordPlan.password(s));
    assertEquals(Map.of("root", Base64.getEncoder().encodeToString("pw".getBytes(StandardCharsets.UTF_8))), s.getData());
  }

  @Test
  void readsSpecAndStatus() {
    assertTrue(RootPasswordPlan.asked(cluster(ASKED)));
    assertFalse(RootPasswordPlan.asked(cluster(ASKED.replace("createPassword: true", "createPassword: false"))));
    assertFalse(RootPasswordPlan.asked(cluster(ASKED.replace(", initializer: {createPassword: true}", ""))));
    TidbCluster up = cluster(ASKED + """
        status:
          tidb:
            passwordInitialized: true
            members:
              basic-tidb-0: {name: basic-tidb-0, health: false}
              basic-tidb-1: {name: basic-tidb-1, health: true}
        """);
    assertTrue(RootPasswordPlan.initialized(up.getStatus()));
    assertTrue(RootPasswordPlan.tidbUp(up.getStatus()));
    TidbCluster down = cluster(ASKED + """
        status:
          tidb:
            members:
              basic-tidb-0: {name: basic-tidb-0, health: false}
        """);
    assertFalse(RootPasswordPlan.initialized(down.getStatus()));
    assertFalse(RootPasswordPlan.tidbUp(down.getStatus()));
    assertFalse(RootPasswordPlan.tidbUp(null));
  }

  @Test
  void loginOutcomes() {
    assertEquals(new RootPasswordPlan.Verdict(true, Optional.empty()), RootPasswordPlan.after(Login.SET, "basic-init"));
    assertEquals(new RootPasswordPlan.Verdict(true, Optional.empty()),
        RootPasswordPlan.after(Login.ALREADY_SET, "basic-init"));
    assertEquals(new RootPasswordPlan.Verdict(false, Optional.empty()), RootPasswordPlan.after(Login.RETRY, "basic-init"));
    RootPasswordPlan.Verdict denied = RootPasswordPlan.after(Login.DENIED, "basic-init");
    assertTrue(denied.initialized(), "upstream stops trying once root has another password");
    assertTrue(denied.warning().orElseThrow().contains("Secret basic-init"));
  }
}
