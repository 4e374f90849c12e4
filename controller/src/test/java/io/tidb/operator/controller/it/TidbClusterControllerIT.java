package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.it.RequestRecorder.Request;
import io.tidb.operator.controller.tidbcluster.pipeline.CheckedVolumes;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The controller against the full local control plane (StatefulSet controller, scheduler, kwok
 * nodes, garbage collector) with the PD simulator in PD's place. Tests share one namespace and run
 * in order: the first brings {@code basic} up, the second checks a settled operator writes
 * nothing.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TidbClusterControllerIT {

  /** A short heartbeat, so reconciles without events happen while a test watches. */
  private static final Duration RESYNC = Duration.ofSeconds(4);
  /** When the cluster was first Ready. */
  private static Instant readyAt;

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "controller-it", RESYNC);
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static <T extends HasMetadata> T object(Class<T> kind, String name) {
    T obj = h.admin.resources(kind).inNamespace(h.namespace).withName(name).get();
    assertNotNull(obj, kind.getSimpleName() + " " + name + " exists");
    return obj;
  }

  private static StatefulSet sts(String name) {
    return object(StatefulSet.class, name);
  }

  private static void assertOwnedBy(HasMetadata obj, TidbCluster tc, String component) {
    Map<String, String> labels = obj.getMetadata().getLabels();
    String what = obj.getKind() + " " + obj.getMetadata().getName();
    assertEquals("tidb-operator", labels.get("app.kubernetes.io/managed-by"), what);
    assertEquals(tc.getMetadata().getName(), labels.get("app.kubernetes.io/instance"), what);
    assertEquals(component, labels.get("app.kubernetes.io/component"), what);
    OwnerReference ref = obj.getMetadata().getOwnerReferences().get(0);
    assertEquals("TidbCluster", ref.getKind(), what);
    assertEquals(tc.getMetadata().getUid(), ref.getUid(), what);
    assertTrue(ref.getController(), what);
  }

  private static String configMapOf(StatefulSet sts) {
    return sts.getSpec().getTemplate().getSpec().getVolumes().stream()
        .filter(v -> "config".equals(v.getName()))
        .findFirst()
        .orElseThrow()
        .getConfigMap()
        .getName();
  }

  /**
   * Events are recorded after the write they report, so wait for them rather than look once. On
   * timeout the failure shows the events seen last.
   */
  private static void awaitEvent(String cluster, String reason, String messagePart) {
    Await.until(
        "Event " + reason + " \"" + messagePart + "\" for " + cluster,
        ControllerHarness.CONVERGE,
        () -> h.events(cluster).stream().map(e -> e.getReason() + ": " + e.getMessage()).toList(),
        seen -> seen.stream().anyMatch(e -> e.startsWith(reason + ": ") && e.contains(messagePart)));
  }

  @Test
  @Order(1)
  void bringsUpEveryObjectAndReportsWhatPdSays() {
    h.create(Fixtures.basic("basic"));
    // A component's phase follows its StatefulSet's status, which may trail what PD reports by
    // a reconcile: Ready can come a moment before every phase is Normal.
    TidbCluster tc = h.await("basic", "Ready with PD, TiKV and TiDB phase Normal", t ->
        Fixtures.ready(t) && t.getStatus().getPd() != null && t.getStatus().getTikv() != null
            && t.getStatus().getTidb() != null
            && "Normal".equals(t.getStatus().getPd().getPhase())
            && "Normal".equals(t.getStatus().getTikv().getPhase())
            && "Normal".equals(t.getStatus().getTidb().getPhase()));
    readyAt = Instant.now();

    // Services
    Service pdClient = object(Service.class, "basic-pd");
    assertOwnedBy(pdClient, tc, "pd");
    assertEquals(2379, pdClient.getSpec().getPorts().get(0).getPort());
    Service pdPeer = object(Service.class, "basic-pd-peer");
    assertEquals("None", pdPeer.getSpec().getClusterIP());
    assertTrue(pdPeer.getSpec().getPublishNotReadyAddresses());
    assertOwnedBy(object(Service.class, "basic-tikv-peer"), tc, "tikv");
    assertOwnedBy(object(Service.class, "basic-tidb-peer"), tc, "tidb");
    assertOwnedBy(object(Service.class, "basic-tidb"), tc, "tidb");

    // What the operator's client reads of managedFields: its own apply entry, not the others'.
    StatefulSet pdAsAdminReads = object(StatefulSet.class, "basic-pd");
    assertTrue(pdAsAdminReads.getMetadata().getManagedFields().stream()
        .anyMatch(m -> !"tidb-operator".equals(m.getManager())), "the StatefulSet controller's status entry");
    StatefulSet pdAsOperatorReads = h.operator().client().apps().statefulSets().inNamespace(h.namespace)
        .withName("basic-pd").get();
    assertEquals(List.of("tidb-operator Apply"), pdAsOperatorReads.getMetadata().getManagedFields().stream()
        .map(m -> m.getManager() + " " + m.getOperation()).toList());

    // StatefulSets: replicas, the partition the operator holds, image, storage, config
    for (String[] c :
        List.of(
            new String[] {"pd", "3", "pingcap/pd:v8.5.7"},
            new String[] {"tikv", "3", "pingcap/tikv:v8.5.7"},
            new String[] {"tidb", "2", "pingcap/tidb:v8.5.7"})) {
      StatefulSet s = sts("basic-" + c[0]);
      assertOwnedBy(s, tc, c[0]);
      int replicas = Integer.parseInt(c[1]);
      assertEquals(replicas, s.getSpec().getReplicas(), c[0]);
      assertEquals(replicas, s.getSpec().getUpdateStrategy().getRollingUpdate().getPartition(), c[0]);
      assertEquals("basic-" + c[0] + "-peer", s.getSpec().getServiceName());
      assertEquals(
          c[2],
          s.getSpec().getTemplate().getSpec().getContainers().stream()
              .filter(container -> c[0].equals(container.getName()))
              .findFirst()
              .orElseThrow()
              .getImage());
      ConfigMap cm = object(ConfigMap.class, configMapOf(s));
      assertOwnedBy(cm, tc, c[0]);
      assertTrue(cm.getMetadata().getName().matches("basic-" + c[0] + "-[0-9a-f]{8}"),
          "RollingUpdate names the ConfigMap by digest: " + cm.getMetadata().getName());
      assertTrue(cm.getData().containsKey("config-file"));
      assertTrue(cm.getData().containsKey("startup-script"));
    }
    assertEquals(
        "1Gi",
        sts("basic-tikv").getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources()
            .getRequests().get("storage").toString());

    // Discovery
    Deployment discovery = object(Deployment.class, "basic-discovery");
    assertOwnedBy(discovery, tc, "discovery");
    assertEquals(
        "tidb-operator-java/controller:it",
        discovery.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    object(Service.class, "basic-discovery");
    object(ServiceAccount.class, "basic-discovery");
    object(Role.class, "basic-discovery");
    object(RoleBinding.class, "basic-discovery");

    // Pods run on the kwok nodes
    List<Pod> pods =
        h.admin.pods().inNamespace(h.namespace)
            .withLabel("app.kubernetes.io/instance", "basic").list().getItems();
    assertEquals(
        8,
        pods.stream()
            .filter(p -> !"discovery".equals(p.getMetadata().getLabels().get("app.kubernetes.io/component")))
            .filter(p -> "Running".equals(p.getStatus().getPhase()))
            .count());

    // Status, from the simulator
    var status = tc.getStatus();
    assertEquals(3, status.getPd().getMembers().size());
    assertTrue(status.getPd().getMembers().values().stream().allMatch(m -> m.getHealth()));
    assertNotNull(status.getPd().getLeader());
    assertTrue(status.getClusterID().matches("\\d+"), status.getClusterID());
    assertEquals(3, status.getTikv().getStores().size());
    assertTrue(status.getTikv().getStores().values().stream().allMatch(s -> "Up".equals(s.getState())));
    assertTrue(status.getTikv().getBootStrapped());
    assertEquals(2, status.getTidb().getMembers().size());
    assertTrue(status.getTidb().getMembers().values().stream().allMatch(m -> m.getHealth()));
    for (var component : List.of(status.getPd(), status.getTikv(), status.getTidb())) {
      assertEquals("Normal", component.getPhase());
      assertTrue(component.getSynced());
      assertNotNull(component.getStatefulSet());
      assertNotNull(component.getImage());
    }
    assertEquals("True", Fixtures.condition(tc, "Valid").orElseThrow().getStatus());
    assertEquals("Ready", Fixtures.condition(tc, "Ready").orElseThrow().getReason());

    // Events for the actions
    awaitEvent("basic", "SuccessfulCreate", "StatefulSet basic-pd");
    awaitEvent("basic", "SuccessfulCreate", "StatefulSet basic-tidb");
    assertTrue(h.events("basic").stream().allMatch(e -> "Normal".equals(e.getType())));
    assertEquals(List.of(), h.events("basic").stream().map(e -> e.getReason())
            .filter(r -> r.equals("Upgraded") || r.equals("RollingUpdate")).toList(),
        "a bring-up is no upgrade");

    // Issue 19: each new claim's volume is labelled without being read, and no claim or volume
    // patch is preceded by a GET of it.
    assertEquals(List.of(), h.operator().reads().all().stream()
            .filter(r -> r.path().contains("/persistentvolumes/")).toList());
  }

  /**
   * Issue 19: a settled cluster's heartbeat reconciles write nothing and read nothing from the API
   * server (claims come from their informer, volumes found right are not read again).
   */
  @Test
  @Order(2)
  void aSettledClusterIsReconciledWithoutAnyWriteOrRead() {
    h.awaitReady("basic");
    var op = h.operator();
    // A window of at least three heartbeat reconciles in which the operator neither writes nor
    // GETs or LISTs anything (its informers' watches stay open and are not counted).
    Await.until(
        "three reconciles in a row without a write or a read",
        ControllerHarness.CONVERGE,
        () -> {
          int writes = op.writes().count();
          int reads = op.reads().count();
          double reconciles = op.reconciles();
          Await.until(
              "three more reconciles",
              RESYNC.multipliedBy(6),
              op::reconciles,
              r -> r >= reconciles + 3);
          List<Request> seen = new java.util.ArrayList<>(op.writes().since(writes));
          seen.addAll(op.reads().since(reads));
          return seen;
        },
        List::isEmpty);

    // The volumes patched unread while the cluster came up are checked again
    // CheckedVolumes.UNREAD_TRUST after their patch (the reconcile asks to run then): from the
    // cache of the volumes the operator labelled (LabelledVolumes), not with a GET each.
    Instant checked = readyAt.plus(CheckedVolumes.UNREAD_TRUST).plus(RESYNC.multipliedBy(2));
    Duration left = Duration.between(Instant.now(), checked);
    if (!left.isNegative()) {
      Await.until("the volumes' check is due", left.plusSeconds(5), Instant::now,
          now -> now.isAfter(checked));
    }
    assertEquals(List.of(), op.reads().all().stream()
        .filter(r -> r.path().contains("/persistentvolumes/")).toList());
    assertTrue(op.reads().all().contains(new Request("get", "/api/v1/persistentvolumes")),
        "the labelled volumes are listed for their cache: " + op.reads().all());
  }

  @Test
  @Order(3)
  void scalesOutTikvAndTidb() {
    h.edit("basic", tc -> {
      tc.getSpec().getTikv().setReplicas(4);
      tc.getSpec().getTidb().setReplicas(3);
      return tc;
    });
    h.await("basic", "4 TiKV stores and 3 TiDB members, Ready, TiKV phase Normal", t ->
            Fixtures.ready(t)
                && t.getStatus().getTikv().getStores().size() == 4
                && t.getStatus().getTidb().getMembers().size() == 3
                // The phase follows the StatefulSet's status, which may trail PD's view of the
                // new store by one reconcile.
                && "Normal".equals(t.getStatus().getTikv().getPhase()));
    assertEquals(4, sts("basic-tikv").getSpec().getReplicas());
    assertEquals(3, sts("basic-tidb").getSpec().getReplicas());
    awaitEvent("basic", "ScaledOut", "TiKV scaled out from 3 to 4");
    awaitEvent("basic", "ScaledOut", "TiDB scaled out from 2 to 3");
  }

  @Test
  @Order(4)
  void tidbScalesInOneMemberAtATime() {
    h.edit("basic", tc -> {
      tc.getSpec().getTidb().setReplicas(1);
      return tc;
    });
    h.await("basic", "1 TiDB member, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTidb().getMembers().size() == 1);
    assertEquals(1, sts("basic-tidb").getSpec().getReplicas());
    awaitEvent("basic", "ScaledIn", "TiDB scaled in from 3 to 2");
    awaitEvent("basic", "ScaledIn", "TiDB scaled in from 2 to 1");
    h.edit("basic", t -> {
      t.getSpec().getTidb().setReplicas(3);
      return t;
    });
    h.await("basic", "3 TiDB members, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTidb().getMembers().size() == 3);
  }

  @Test
  @Order(5)
  void inPlaceConfigChangeRewritesTheSameConfigMap() {
    h.create(Fixtures.small("inplace", "InPlace"));
    h.awaitReady("inplace");
    StatefulSet before = sts("inplace-tikv");
    String cmName = configMapOf(before);
    assertEquals("inplace-tikv", cmName);

    h.edit("inplace", tc -> {
      tc.getSpec().getTikv().setConfig(
          tc.getSpec().getTikv().getConfig().with("log.level", TextNode.valueOf("warn")));
      return tc;
    });
    Await.until("ConfigMap inplace-tikv rewritten", ControllerHarness.CONVERGE,
        () -> object(ConfigMap.class, "inplace-tikv").getData().get("config-file"),
        toml -> toml.contains("warn"));
    StatefulSet after = sts("inplace-tikv");
    assertEquals(cmName, configMapOf(after));
    assertEquals(before.getMetadata().getGeneration(), after.getMetadata().getGeneration(),
        "the pod template did not change, so no pod restarts");
    awaitEvent("inplace", "ConfigChanged", "in place in ConfigMap inplace-tikv");
    h.awaitReady("inplace");
  }

  @Test
  @Order(6)
  void rollingUpdateConfigChangeMountsANewConfigMap() {
    h.create(Fixtures.small("rolling", "RollingUpdate"));
    h.awaitReady("rolling");
    String oldName = configMapOf(sts("rolling-tikv"));

    h.edit("rolling", tc -> {
      tc.getSpec().getTikv().setConfig(
          tc.getSpec().getTikv().getConfig().with("log.level", TextNode.valueOf("warn")));
      return tc;
    });
    String newName =
        Await.until("StatefulSet rolling-tikv mounts a new ConfigMap", ControllerHarness.CONVERGE,
            () -> configMapOf(sts("rolling-tikv")), name -> !name.equals(oldName));
    assertTrue(object(ConfigMap.class, newName).getData().get("config-file").contains("warn"));
    object(ConfigMap.class, oldName);
    awaitEvent("rolling", "ConfigChanged", "now mounts ConfigMap " + newName);
    // The pod rolls: the operator lowers the partition, the StatefulSet controller replaces it,
    // and the partition goes back to the replica count once every pod runs the new revision.
    awaitEvent("rolling", "RollingUpdate", "upgrading rolling-tikv-0");
    h.await("rolling", "Ready after the roll", t ->
        Fixtures.ready(t) && "Normal".equals(t.getStatus().getTikv().getPhase()));
    StatefulSet rolled = sts("rolling-tikv");
    assertEquals(1, rolled.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
    assertEquals(rolled.getStatus().getUpdateRevision(), rolled.getStatus().getCurrentRevision());
    awaitEvent("rolling", "Upgraded", "TiKV upgraded");
    assertEquals(List.of(), h.pdMutations("rolling"),
        "a single TiKV store rolls without leader eviction: there is nowhere to move its leaders");
  }

  @Test
  @Order(7)
  void pausedClusterSyncsStatusButWritesNothingElse() {
    h.create(Fixtures.small("paused", "InPlace"));
    h.awaitReady("paused");
    TidbCluster edited = h.edit("paused", tc -> {
      tc.getSpec().setPaused(true);
      tc.getSpec().getTidb().setReplicas(2);
      return tc;
    });
    int from = h.operator().writes().count();
    h.await("paused", "status of generation " + edited.getMetadata().getGeneration(), t ->
        edited.getMetadata().getGeneration().equals(t.getStatus().getObservedGeneration()));
    double reconciles = h.operator().reconciles();
    Await.until("two more reconciles", RESYNC.multipliedBy(6),
        () -> h.operator().reconciles(), r -> r >= reconciles + 2);
    assertEquals(1, sts("paused-tidb").getSpec().getReplicas());
    List<Request> writes = h.operator().writes().since(from).stream()
        .filter(w -> w.path().contains("paused")).toList();
    assertTrue(writes.stream().allMatch(w -> w.path().endsWith("/tidbclusters/paused/status")),
        writes.toString());

    h.edit("paused", tc -> {
      tc.getSpec().setPaused(false);
      return tc;
    });
    h.await("paused", "2 TiDB members after unpausing", t ->
        Fixtures.ready(t) && t.getStatus().getTidb().getMembers().size() == 2);
  }

  @Test
  @Order(8)
  void invalidSpecGetsAConditionAndAWarningAndNothingElse() {
    int from = h.operator().writes().count();
    h.create(Fixtures.invalid("broken"));
    TidbCluster tc = h.await("broken", "Valid=False", t ->
        Fixtures.condition(t, "Valid").filter(c -> "False".equals(c.getStatus())).isPresent());
    var valid = Fixtures.condition(tc, "Valid").orElseThrow();
    assertEquals("FailedValidation", valid.getReason());
    // the controller checks the stored-object rules: a missing version is refused on create only
    assertFalse(valid.getMessage().contains("version"), valid.getMessage());
    assertTrue(
        valid.getMessage().contains("spec.tikv.evictLeaderTimeout: Invalid value: \"5 minutes\""),
        valid.getMessage());
    Event warning = Await.until("FailedValidation event", Duration.ofSeconds(30),
        () -> h.events("broken").stream().filter(e -> "FailedValidation".equals(e.getReason())).findFirst(),
        Optional::isPresent).orElseThrow();
    assertEquals("Warning", warning.getType());
    assertEquals(valid.getMessage(), warning.getMessage());
    for (Class<? extends HasMetadata> kind :
        List.of(StatefulSet.class, Service.class, ConfigMap.class, Deployment.class)) {
      assertTrue(h.admin.resources(kind).inNamespace(h.namespace)
          .withLabel("app.kubernetes.io/instance", "broken").list().getItems().isEmpty(), kind.getSimpleName());
    }
    List<Request> writes = h.operator().writes().since(from).stream()
        .filter(w -> w.path().contains("broken") || w.path().endsWith("/events")).toList();
    assertTrue(writes.stream().allMatch(w ->
            w.path().endsWith("/tidbclusters/broken/status") || w.path().endsWith("/events")),
        writes.toString());
    h.admin.resource(tc).delete();
  }

  @Test
  @Order(9)
  void restartedOperatorConvergesWithoutRewritingWhatExists() {
    h.create(Fixtures.small("restart", "RollingUpdate"));
    Await.until("PD StatefulSet of restart", ControllerHarness.CONVERGE,
        () -> h.admin.apps().statefulSets().inNamespace(h.namespace).withName("restart-pd").get(),
        s -> s != null);
    h.stopOperator();
    var op = h.startOperator();
    h.awaitReady("restart");
    List<Request> writes = op.writes().all();
    for (String name : List.of("restart-pd", "restart-pd-peer", "restart-discovery")) {
      assertTrue(writes.stream().noneMatch(w -> w.path().endsWith("/" + name)),
          name + " existed and matched, so it is not written again: " + writes);
    }
    // Clusters that were already settled get no write at all from the new operator.
    assertTrue(writes.stream().noneMatch(w -> w.path().contains("/basic")), writes.toString());
    assertTrue(writes.stream().noneMatch(w -> w.path().contains("/inplace")), writes.toString());
  }

  @Test
  @Order(10)
  void deletingTheClusterDeletesItsObjectsThroughOwnerReferences() {
    TidbCluster tc = h.get("inplace");
    h.admin.resource(tc).delete();
    Await.until("inplace's StatefulSets garbage-collected", ControllerHarness.CONVERGE,
        () -> h.admin.apps().statefulSets().inNamespace(h.namespace)
            .withLabel("app.kubernetes.io/instance", "inplace").list().getItems(),
        List::isEmpty);
    Await.until("inplace's Services and ConfigMaps garbage-collected", ControllerHarness.CONVERGE,
        () -> h.admin.services().inNamespace(h.namespace)
                .withLabel("app.kubernetes.io/instance", "inplace").list().getItems().size()
            + h.admin.configMaps().inNamespace(h.namespace)
                .withLabel("app.kubernetes.io/instance", "inplace").list().getItems().size(),
        n -> n == 0);
    assertNotNull(h.get("basic"), "other clusters stay");
    sts("basic-pd");
  }
}
