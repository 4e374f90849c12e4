package io.tidb.operator.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Renders charts/tidb-operator with the built helm binary for the main value combinations. */
class ChartTemplateTest {

  static final String RELEASE = "tidb-operator";
  static final String NAMESPACE = "tidb-admin";
  static final String CONTROLLER = "tidb-operator-controller";
  static final String WEBHOOK = "tidb-operator-webhook";

  static final String NAMESPACE_SCOPED = "watchNamespaces: [team-a, team-b]\n";
  static final String CERT_MANAGER = "certManager: {enabled: true}\n";
  static final String LEADER_ELECTION = "controller: {leaderElection: {enabled: true}}\n";
  static final String LOCAL = "local: {webhookUrl: 'https://127.0.0.1:9443'}\n";

  static HelmCli helm;

  @BeforeAll
  static void findHelm() {
    helm = HelmCli.forProjectChart();
  }

  static RenderedChart render(String values) {
    return render(helm, values);
  }

  /** The chart rendered by {@code helm} with {@code values}, for other test classes' own helm. */
  static RenderedChart render(HelmCli helm, String values) {
    return RenderedChart.parse(helm.template(RELEASE, NAMESPACE, values).requireSuccess().stdout());
  }

  @ParameterizedTest(name = "helm lint --strict is clean with [{0}]")
  @ValueSource(strings = {"", NAMESPACE_SCOPED, CERT_MANAGER, LEADER_ELECTION, LOCAL,
      NAMESPACE_SCOPED + CERT_MANAGER + LEADER_ELECTION})
  void lintIsClean(String values) {
    CommandResult lint = helm.lint(values).requireSuccess();
    assertTrue(lint.stdout().contains("1 chart(s) linted, 0 chart(s) failed"), lint.describe());
    assertFalse(lint.stdout().contains("[WARNING]"), lint.describe());
    assertFalse(lint.stdout().contains("[ERROR]"), lint.describe());
  }

  @Nested
  class Defaults {

    final RenderedChart chart = render("");

    @Test
    void controllerRunsOneReplicaThatIsStoppedBeforeItsSuccessorStarts() {
      Deployment controller = chart.get(Deployment.class, CONTROLLER);
      assertEquals(1, controller.getSpec().getReplicas());
      assertEquals("Recreate", controller.getSpec().getStrategy().getType());
      assertEquals(NAMESPACE, controller.getMetadata().getNamespace());
      assertEquals(CONTROLLER, controller.getSpec().getTemplate().getSpec().getServiceAccountName());
    }

    @Test
    void webhookRunsTwoReplicasBehindAServiceOn443AndABudget() {
      Deployment webhook = chart.get(Deployment.class, WEBHOOK);
      assertEquals(2, webhook.getSpec().getReplicas());
      Container container = webhook.getSpec().getTemplate().getSpec().getContainers().get(0);
      assertEquals(9443, container.getPorts().get(0).getContainerPort());
      assertEquals("https", container.getPorts().get(0).getName());

      Service service = chart.get(Service.class, WEBHOOK);
      assertEquals(443, service.getSpec().getPorts().get(0).getPort());
      assertEquals("https", service.getSpec().getPorts().get(0).getTargetPort().getStrVal());
      assertEquals(webhook.getSpec().getSelector().getMatchLabels(), service.getSpec().getSelector());

      PodDisruptionBudget pdb = chart.get(PodDisruptionBudget.class, WEBHOOK);
      assertEquals(1, pdb.getSpec().getMinAvailable().getIntVal());
      assertEquals(webhook.getSpec().getSelector().getMatchLabels(), pdb.getSpec().getSelector().getMatchLabels());
      Map<String, String> podLabels = webhook.getSpec().getTemplate().getMetadata().getLabels();
      assertTrue(podLabels.entrySet().containsAll(service.getSpec().getSelector().entrySet()));
    }

    @Test
    void aSingleWebhookReplicaGetsNoBudgetThatWouldOnlyBlockDrains() {
      RenderedChart single = render("webhook: {replicas: 1}\n");
      assertEquals(1, single.get(Deployment.class, WEBHOOK).getSpec().getReplicas());
      assertTrue(single.all(PodDisruptionBudget.class).isEmpty(), single.summary());
    }

    @ParameterizedTest(name = "{0} runs with two malloc arenas unless the value is 0")
    @ValueSource(strings = {"controller", "webhook"})
    void jvmContainersRunWithTwoMallocArenasUnlessTheValueIsZero(String component) {
      String name = component.equals("controller") ? CONTROLLER : WEBHOOK;
      Map<String, String> env = env(chart.get(Deployment.class, name));
      assertEquals("2", env.get("MALLOC_ARENA_MAX"), env.toString());
      assertTrue(env.get("JAVA_TOOL_OPTIONS").contains("-XX:TrimNativeHeapInterval="), env.toString());
      RenderedChart glibcDefault = render(component + ": {mallocArenaMax: 0}\n");
      assertFalse(env(glibcDefault.get(Deployment.class, name)).containsKey("MALLOC_ARENA_MAX"));
      assertTrue(env(glibcDefault.get(Deployment.class, name)).containsKey("JAVA_TOOL_OPTIONS"));
    }

    @Test
    void validatingWebhookChecksTidbClusterCreatesAndUpdatesAndFailsClosed() {
      ValidatingWebhookConfiguration config = chart.get(ValidatingWebhookConfiguration.class, WEBHOOK);
      assertEquals(1, config.getWebhooks().size());
      ValidatingWebhook hook = config.getWebhooks().get(0);
      assertEquals("Fail", hook.getFailurePolicy());
      assertEquals("None", hook.getSideEffects());
      assertEquals("Equivalent", hook.getMatchPolicy());
      assertEquals(List.of("v1"), hook.getAdmissionReviewVersions());
      assertTrue(hook.getTimeoutSeconds() <= 10, "timeoutSeconds " + hook.getTimeoutSeconds());
      assertEquals(List.of("pingcap.com"), hook.getRules().get(0).getApiGroups());
      assertEquals(List.of("v1alpha1"), hook.getRules().get(0).getApiVersions());
      assertEquals(List.of("tidbclusters", "tidbinitializers", "tidbmonitors", "dmclusters", "backups",
          "restores", "backupschedules"), hook.getRules().get(0).getResources());
      assertEquals(List.of("CREATE", "UPDATE"), hook.getRules().get(0).getOperations());
      assertEquals(1, hook.getMatchConditions().size());
      assertEquals(io.tidb.operator.webhook.WebhookMatchConditions.NAME, hook.getMatchConditions().get(0).getName());
      assertEquals(io.tidb.operator.webhook.WebhookMatchConditions.EXPRESSION,
          hook.getMatchConditions().get(0).getExpression());
      assertEquals(WEBHOOK, hook.getClientConfig().getService().getName());
      assertEquals(NAMESPACE, hook.getClientConfig().getService().getNamespace());
      assertEquals("/validate", hook.getClientConfig().getService().getPath());
      assertEquals(443, hook.getClientConfig().getService().getPort());
      assertEquals(List.of(notIn(NAMESPACE)), hook.getNamespaceSelector().getMatchExpressions());
    }

    @Test
    void mutatingWebhookDefaultsOnCreateOnly() {
      MutatingWebhookConfiguration config = chart.get(MutatingWebhookConfiguration.class, WEBHOOK);
      MutatingWebhook hook = config.getWebhooks().get(0);
      assertEquals("Fail", hook.getFailurePolicy());
      assertEquals("None", hook.getSideEffects());
      assertEquals("Equivalent", hook.getMatchPolicy());
      assertEquals(List.of("v1"), hook.getAdmissionReviewVersions());
      assertEquals(List.of("CREATE"), hook.getRules().get(0).getOperations());
      assertEquals(List.of("tidbclusters", "tidbmonitors", "dmclusters", "backups", "restores", "backupschedules"),
          hook.getRules().get(0).getResources());
      assertEquals("/mutate", hook.getClientConfig().getService().getPath());
      assertEquals(List.of(notIn(NAMESPACE)), hook.getNamespaceSelector().getMatchExpressions());
    }

    @Test
    void caBundleIsNeverRenderedSoUpgradesKeepTheInjectedOne() {
      assertNull(chart.get(ValidatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0)
          .getClientConfig().getCaBundle());
      assertNull(chart.get(MutatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0)
          .getClientConfig().getCaBundle());
      assertTrue(chart.all(Secret.class).isEmpty(), "the webhook creates its own certificate Secret");
      assertFalse(helm.template(RELEASE, NAMESPACE, "").stdout().contains("caBundle:"));
    }

    @Test
    void webhookGetsAMountedCopyOfItsOwnSecretWithoutTheCaKey() {
      Deployment webhook = chart.get(Deployment.class, WEBHOOK);
      Map<String, String> flags = flags(webhook);
      PodSpec pod = webhook.getSpec().getTemplate().getSpec();
      Volume volume = pod.getVolumes().stream()
          .filter(v -> v.getSecret() != null).findFirst().orElseThrow();
      assertEquals(flags.get("--secret"), volume.getSecret().getSecretName());
      assertTrue(volume.getSecret().getOptional(), "absent until the webhook's first start creates it");
      assertEquals(List.of("tls.crt", "tls.key"),
          volume.getSecret().getItems().stream().map(KeyToPath::getKey).toList(), "never ca.key");
      assertEquals(List.of("tls.crt", "tls.key"),
          volume.getSecret().getItems().stream().map(KeyToPath::getPath).toList());
      VolumeMount mount = container(webhook).getVolumeMounts().stream()
          .filter(m -> m.getName().equals(volume.getName())).findFirst().orElseThrow();
      assertEquals(flags.get("--secret-mount-dir"), mount.getMountPath());
      assertTrue(mount.getReadOnly());
    }

    @Test
    void controllerGetsAClusterRoleWithOnlyWhatItUses() {
      ClusterRole role = chart.get(ClusterRole.class, CONTROLLER);
      Map<String, Set<String>> verbs = verbsByResource(role.getRules());
      Set<String> read = Set.of("get", "list", "watch");
      Set<String> apply = Set.of("get", "list", "watch", "create", "patch");
      assertEquals(read, verbs.get("pingcap.com/tidbclusters"));
      assertEquals(Set.of("patch"), verbs.get("pingcap.com/tidbclusters/status"));
      for (String owned : List.of("/services", "/configmaps", "/serviceaccounts",
          "apps/deployments", "rbac.authorization.k8s.io/roles", "rbac.authorization.k8s.io/rolebindings")) {
        assertEquals(apply, verbs.get(owned), owned);
      }
      Set<String> applyAndDelete = new java.util.TreeSet<>(apply);
      applyAndDelete.add("delete");
      assertEquals(applyAndDelete, verbs.get("apps/statefulsets"), "suspendStatefulSet");
      assertEquals(Set.of("get", "list", "watch", "delete"), verbs.get("/pods"),
          "delete-pod annotations, PD failover");
      assertEquals(Set.of("get", "list", "watch", "patch", "delete"), verbs.get("/persistentvolumeclaims"));
      assertEquals(Set.of("create"), verbs.get("/events"));
      assertEquals(Set.of("get", "list", "watch", "patch"), verbs.get("/persistentvolumes"), "pvReclaimPolicy");
      assertEquals(Set.of("get", "list"), verbs.get("storage.k8s.io/storageclasses"), "volume expansion allowed?");
      assertEquals(Set.of("get"), verbs.get("/nodes"), "TiProxy's zone labels");
      assertEquals(read, verbs.get("pingcap.com/tidbinitializers"));
      assertEquals(Set.of("patch"), verbs.get("pingcap.com/tidbinitializers/status"));
      assertEquals(union(apply, Set.of("delete")), verbs.get("batch/jobs"),
          "a TidbInitializer's and a Backup's Job; a Backup's running Job deleted before its data is cleaned");
      assertEquals(Set.of("get", "list", "watch", "patch", "create", "delete"), verbs.get("pingcap.com/backups"),
          "finalizer; a schedule's Backups created and deleted by retention");
      assertEquals(Set.of("get", "list", "watch", "patch"), verbs.get("pingcap.com/restores"));
      assertEquals(Set.of("get", "list", "watch", "patch"), verbs.get("pingcap.com/backupschedules"));
      assertEquals(Set.of("get", "patch"), verbs.get("pingcap.com/backups/status"),
          "and granted on to each Backup's Job for its one Backup");
      assertEquals(Set.of("get", "create", "patch"), verbs.get("/secrets"),
          "by name only, never listed or watched: a TidbInitializer's passwordSecret; createPassword's"
              + " <cluster>-init created, never updated; a monitor's own Secrets applied, TLS clusters'"
              + " client certificates read");
      assertEquals(Set.of("get", "list", "watch", "patch"), verbs.get("pingcap.com/tidbmonitors"), "finalizer");
      assertEquals(Set.of("patch"), verbs.get("pingcap.com/tidbmonitors/status"));
      assertEquals(read, verbs.get("pingcap.com/dmclusters"), "the DMCluster informer; a monitor's DM clusters");
      assertEquals(Set.of("patch"), verbs.get("pingcap.com/dmclusters/status"));
      assertEquals(apply, verbs.get("networking.k8s.io/ingresses"));
      assertEquals(Set.of("get", "create", "patch", "delete"), verbs.get("rbac.authorization.k8s.io/clusterroles"),
          "a clusterScoped monitor's ClusterRole");
      assertEquals(Set.of("get", "create", "patch", "delete"),
          verbs.get("rbac.authorization.k8s.io/clusterrolebindings"));
      assertEquals(Set.of("pingcap.com/tidbclusters", "pingcap.com/tidbclusters/status", "/services", "/configmaps",
          "/serviceaccounts", "apps/statefulsets", "apps/deployments", "rbac.authorization.k8s.io/roles",
          "rbac.authorization.k8s.io/rolebindings", "/pods", "/persistentvolumeclaims", "/events",
          "/persistentvolumes", "storage.k8s.io/storageclasses", "/nodes", "pingcap.com/tidbinitializers",
          "pingcap.com/tidbinitializers/status", "batch/jobs", "/secrets", "pingcap.com/tidbmonitors",
          "pingcap.com/tidbmonitors/status", "pingcap.com/dmclusters", "pingcap.com/dmclusters/status",
          "networking.k8s.io/ingresses",
          "rbac.authorization.k8s.io/clusterroles", "rbac.authorization.k8s.io/clusterrolebindings",
          "pingcap.com/backups", "pingcap.com/restores", "pingcap.com/backupschedules", "pingcap.com/backups/status",
          "pingcap.com/restores/status", "pingcap.com/backupschedules/status"),
          verbs.keySet());
      verbs.forEach((resource, v) -> assertTrue(
          !v.contains("update") && (!v.contains("delete") || resource.equals("/persistentvolumeclaims")
              || resource.equals("/pods") || resource.equals("apps/statefulsets")
              || resource.equals("batch/jobs") || resource.equals("pingcap.com/backups")
              || resource.startsWith("rbac.authorization.k8s.io/clusterrole")),
          "the controller never replaces objects, and deletes only removed members' volume claims,"
              + " pods a delete-pod annotation names or a PD failover replaces, suspended StatefulSets and"
              + " clusterScoped monitors' ClusterRoles (owner references delete the rest): " + verbs));
      assertNoWildcards(role.getRules());

      ClusterRoleBinding binding = chart.get(ClusterRoleBinding.class, CONTROLLER);
      assertEquals(CONTROLLER, binding.getRoleRef().getName());
      assertEquals(CONTROLLER, binding.getSubjects().get(0).getName());
      assertEquals(NAMESPACE, binding.getSubjects().get(0).getNamespace());
      assertTrue(chart.find(Role.class, NAMESPACE, CONTROLLER + "-leader-election").isEmpty());
    }

    @Test
    void webhookMayTouchOnlyItsSecretAndItsTwoConfigurations() {
      Role secrets = chart.get(Role.class, WEBHOOK);
      assertEquals(NAMESPACE, secrets.getMetadata().getNamespace());
      assertNoWildcards(secrets.getRules());
      for (PolicyRule rule : secrets.getRules()) {
        assertEquals(List.of("secrets"), rule.getResources());
        if (rule.getVerbs().contains("create")) {
          assertEquals(List.of("create"), rule.getVerbs(), "create cannot be limited by name; nothing else may ride on it");
        } else {
          assertEquals(List.of(WEBHOOK + "-tls"), rule.getResourceNames());
          assertEquals(List.of("get", "update"), rule.getVerbs());
        }
      }
      ClusterRole configs = chart.get(ClusterRole.class, WEBHOOK);
      assertEquals(1, configs.getRules().size());
      PolicyRule rule = configs.getRules().get(0);
      assertEquals(Set.of("validatingwebhookconfigurations", "mutatingwebhookconfigurations"), Set.copyOf(rule.getResources()));
      assertEquals(List.of(WEBHOOK), rule.getResourceNames());
      assertEquals(Set.of("get", "patch"), Set.copyOf(rule.getVerbs()));
      assertEquals(WEBHOOK, chart.get(RoleBinding.class, WEBHOOK).getSubjects().get(0).getName());
      assertEquals(WEBHOOK, chart.get(ClusterRoleBinding.class, WEBHOOK).getSubjects().get(0).getName());
    }

    @Test
    void webhookFlagsNameTheObjectsTheChartCreates() {
      Map<String, String> flags = flags(chart.get(Deployment.class, WEBHOOK));
      assertEquals(NAMESPACE, flags.get("--namespace"));
      chart.get(Service.class, flags.get("--service"));
      chart.get(ValidatingWebhookConfiguration.class, flags.get("--validating-webhook-configuration"));
      chart.get(MutatingWebhookConfiguration.class, flags.get("--mutating-webhook-configuration"));
      PolicyRule secretRule = chart.get(Role.class, WEBHOOK).getRules().stream()
          .filter(r -> r.getResourceNames() != null && !r.getResourceNames().isEmpty()).findFirst().orElseThrow();
      assertEquals(List.of(flags.get("--secret")), secretRule.getResourceNames());
      assertEquals("9443", flags.get("--port"));
    }

    @Test
    void controllerWatchesAllNamespacesAndRunsDiscoveryFromItsOwnImage() {
      Deployment controller = chart.get(Deployment.class, CONTROLLER);
      Map<String, String> flags = flags(controller);
      assertEquals("", flags.get("--watch-namespaces"));
      assertEquals(container(controller).getImage(), flags.get("--discovery-image"));
      assertEquals("tidb-operator-java/controller:0.1.0", container(controller).getImage());
      assertFalse(flags.containsKey("--leader-election"));
    }

    @Test
    void failoverIsOnWithUpstreamsPeriods() {
      Map<String, String> flags = flags(chart.get(Deployment.class, CONTROLLER));
      assertEquals("true", flags.get("--auto-failover"));
      assertEquals("5m", flags.get("--pd-failover-period"));
      assertEquals("5m", flags.get("--tikv-failover-period"));
      assertEquals("5m", flags.get("--tidb-failover-period"));
      assertEquals("5m", flags.get("--tiflash-failover-period"));
    }

    @Test
    void failoverValuesBecomeFlags() {
      Map<String, String> flags = flags(render(
          "controller: {autoFailover: false, pdFailoverPeriod: 10m, tikvFailoverPeriod: 1h30m,"
              + " tidbFailoverPeriod: 90s, tiflashFailoverPeriod: 7m}\n").get(Deployment.class, CONTROLLER));
      assertEquals("false", flags.get("--auto-failover"));
      assertEquals("10m", flags.get("--pd-failover-period"));
      assertEquals("1h30m", flags.get("--tikv-failover-period"));
      assertEquals("90s", flags.get("--tidb-failover-period"));
      assertEquals("7m", flags.get("--tiflash-failover-period"));
    }

    @Test
    void podsRunLockedDown() {
      for (String name : List.of(CONTROLLER, WEBHOOK)) {
        PodSpec pod = chart.get(Deployment.class, name).getSpec().getTemplate().getSpec();
        assertTrue(pod.getSecurityContext().getRunAsNonRoot(), name);
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType(), name);
        Container c = pod.getContainers().get(0);
        assertFalse(c.getSecurityContext().getAllowPrivilegeEscalation(), name);
        assertTrue(c.getSecurityContext().getReadOnlyRootFilesystem(), name);
        assertTrue(c.getSecurityContext().getRunAsNonRoot(), name);
        assertEquals(List.of("ALL"), c.getSecurityContext().getCapabilities().getDrop(), name);
        assertEquals("RuntimeDefault", c.getSecurityContext().getSeccompProfile().getType(), name);
        assertNotNull(c.getResources().getRequests().get("cpu"), name);
        assertNotNull(c.getResources().getLimits().get("memory"), name);
        assertNotNull(c.getLivenessProbe(), name);
        assertNotNull(c.getReadinessProbe(), name);
        assertTrue(c.getVolumeMounts().stream().anyMatch(m -> "/tmp".equals(m.getMountPath())),
            name + ": a read-only root needs a writable /tmp for the JVM");
      }
      assertEquals("/readyz", container(chart.get(Deployment.class, WEBHOOK)).getReadinessProbe().getHttpGet().getPath());
      assertEquals("HTTPS", container(chart.get(Deployment.class, WEBHOOK)).getReadinessProbe().getHttpGet().getScheme());
    }

    @Test
    void everyObjectCarriesTheStandardLabels() {
      for (HasMetadata object : chart.objects()) {
        Map<String, String> labels = object.getMetadata().getLabels();
        String what = object.getKind() + "/" + object.getMetadata().getName();
        assertNotNull(labels, what);
        assertEquals("tidb-operator", labels.get("app.kubernetes.io/name"), what);
        assertEquals(RELEASE, labels.get("app.kubernetes.io/instance"), what);
        assertEquals("Helm", labels.get("app.kubernetes.io/managed-by"), what);
        assertEquals("0.1.0", labels.get("app.kubernetes.io/version"), what);
        assertTrue(Set.of("controller", "webhook").contains(labels.get("app.kubernetes.io/component")), what);
      }
      assertEquals(2, chart.all(ServiceAccount.class).size());
    }
  }

  @Nested
  class NamespaceScoped {

    final RenderedChart chart = render(NAMESPACE_SCOPED);

    @Test
    void clusterVolumeAccessAddsOnlyPersistentVolumesAndStorageClassesClusterWide() {
      assertTrue(chart.find(ClusterRole.class, CONTROLLER + "-volumes").isEmpty(), "opt-in");
      RenderedChart withVolumes = render(NAMESPACE_SCOPED + "rbac:\n  create: true\n  clusterVolumeAccess: true\n");
      ClusterRole volumes = withVolumes.get(ClusterRole.class, CONTROLLER + "-volumes");
      assertEquals(Map.of("/persistentvolumes", Set.of("get", "list", "watch", "patch"), "storage.k8s.io/storageclasses",
          Set.of("get", "list")), verbsByResource(volumes.getRules()));
      ClusterRoleBinding binding = withVolumes.get(ClusterRoleBinding.class, CONTROLLER + "-volumes");
      assertEquals(CONTROLLER + "-volumes", binding.getRoleRef().getName());
      assertEquals(NAMESPACE, binding.getSubjects().get(0).getNamespace());
      assertTrue(withVolumes.find(ClusterRole.class, CONTROLLER).isEmpty());
      assertTrue(render("rbac:\n  create: true\n  clusterVolumeAccess: true\n")
          .find(ClusterRole.class, CONTROLLER + "-volumes").isEmpty(),
          "a cluster-scoped install has the rules in its ClusterRole already");
    }

    @Test
    void clusterNodeAccessAddsOnlyGetOnNodesClusterWide() {
      assertTrue(chart.find(ClusterRole.class, CONTROLLER + "-nodes").isEmpty(), "opt-in");
      RenderedChart withNodes = render(NAMESPACE_SCOPED + "rbac:\n  create: true\n  clusterNodeAccess: true\n");
      ClusterRole nodes = withNodes.get(ClusterRole.class, CONTROLLER + "-nodes");
      assertEquals(Map.of("/nodes", Set.of("get")), verbsByResource(nodes.getRules()));
      ClusterRoleBinding binding = withNodes.get(ClusterRoleBinding.class, CONTROLLER + "-nodes");
      assertEquals(CONTROLLER + "-nodes", binding.getRoleRef().getName());
      assertEquals(NAMESPACE, binding.getSubjects().get(0).getNamespace());
      assertEquals(Set.of("get"), verbsByResource(render("").get(ClusterRole.class, CONTROLLER).getRules())
          .get("/nodes"), "a cluster-scoped install reads Nodes by name");
      assertTrue(render("rbac:\n  create: true\n  clusterNodeAccess: true\n")
          .find(ClusterRole.class, CONTROLLER + "-nodes").isEmpty(),
          "a cluster-scoped install has the rule in its ClusterRole already");
    }

    @Test
    void controllerGetsARolePerWatchedNamespaceAndNothingClusterWide() {
      assertTrue(chart.find(ClusterRole.class, CONTROLLER).isEmpty());
      assertTrue(chart.find(ClusterRoleBinding.class, CONTROLLER).isEmpty());
      ClusterRole clusterScoped = render("").get(ClusterRole.class, CONTROLLER);
      List<PolicyRule> namespaced = clusterScoped.getRules().stream()
          .filter(r -> !r.getResources().contains("persistentvolumes") && !r.getResources().contains("storageclasses")
              && !r.getResources().contains("clusterroles") && !r.getResources().contains("nodes"))
          .toList();
      assertEquals(clusterScoped.getRules().size() - 4, namespaced.size());
      for (String ns : List.of("team-a", "team-b")) {
        Role role = chart.find(Role.class, ns, CONTROLLER).orElseThrow(() -> new AssertionError("no Role in " + ns));
        assertEquals(namespaced, role.getRules(),
            "same rules as the cluster-scoped install but the cluster-scoped volume, Node and ClusterRole objects, which no Role can grant");
        RoleBinding binding = chart.find(RoleBinding.class, ns, CONTROLLER).orElseThrow();
        assertEquals("Role", binding.getRoleRef().getKind());
        assertEquals(NAMESPACE, binding.getSubjects().get(0).getNamespace());
      }
      assertEquals("team-a,team-b", flags(chart.get(Deployment.class, CONTROLLER)).get("--watch-namespaces"));
    }

    @Test
    void webhooksInterceptOnlyTheWatchedNamespaces() {
      List<LabelSelectorRequirement> expected = List.of(notIn(NAMESPACE),
          new LabelSelectorRequirement("kubernetes.io/metadata.name", "In", List.of("team-a", "team-b")));
      assertEquals(expected, chart.get(ValidatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0)
          .getNamespaceSelector().getMatchExpressions());
      assertEquals(expected, chart.get(MutatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0)
          .getNamespaceSelector().getMatchExpressions());
    }

    @Test
    void watchingTheReleaseNamespaceIsRefusedWithTheReason() {
      CommandResult result = helm.template(RELEASE, NAMESPACE, "watchNamespaces: [team-a, tidb-admin]\n");
      assertFalse(result.succeeded());
      assertTrue(result.stderr().contains("watchNamespaces: \"tidb-admin\" is the release namespace"), result.describe());
    }
  }

  @Nested
  class CertManager {

    final RenderedChart chart = render(CERT_MANAGER);

    @Test
    void certManagerIssuesTheServingCertificateAndInjectsTheCa() {
      HasMetadata serving = chart.ofKind("Certificate").stream()
          .filter(c -> c.getMetadata().getName().equals(WEBHOOK + "-serving")).findFirst().orElseThrow();
      assertEquals(2, chart.ofKind("Issuer").size(), "a self-signed Issuer and a CA Issuer");
      String injectFrom = NAMESPACE + "/" + WEBHOOK + "-serving";
      assertEquals(injectFrom, chart.get(ValidatingWebhookConfiguration.class, WEBHOOK).getMetadata().getAnnotations()
          .get("cert-manager.io/inject-ca-from"));
      assertEquals(injectFrom, chart.get(MutatingWebhookConfiguration.class, WEBHOOK).getMetadata().getAnnotations()
          .get("cert-manager.io/inject-ca-from"));
      assertNull(chart.get(ValidatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0).getClientConfig().getCaBundle());

      Map<String, Object> spec = specOf(serving);
      assertTrue(((List<?>) spec.get("dnsNames")).contains(WEBHOOK + "." + NAMESPACE + ".svc"), spec.toString());
      PodSpec pod = chart.get(Deployment.class, WEBHOOK).getSpec().getTemplate().getSpec();
      String mounted = pod.getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow()
          .getSecret().getSecretName();
      assertEquals(spec.get("secretName"), mounted);
    }

    @Test
    void webhookNeedsNoApiAccessWithCertManager() {
      assertTrue(chart.find(Role.class, NAMESPACE, WEBHOOK).isEmpty());
      assertTrue(chart.find(ClusterRole.class, WEBHOOK).isEmpty());
      PodSpec pod = chart.get(Deployment.class, WEBHOOK).getSpec().getTemplate().getSpec();
      assertFalse(pod.getAutomountServiceAccountToken());
      Map<String, String> flags = flags(chart.get(Deployment.class, WEBHOOK));
      assertTrue(flags.containsKey("--cert-dir"), flags.toString());
      assertFalse(flags.containsKey("--secret"), flags.toString());
    }

    @Test
    void aGivenIssuerReplacesTheChartsOwn() {
      RenderedChart withIssuer = render("certManager: {enabled: true, issuerRef: {kind: ClusterIssuer, name: corp-ca}}\n");
      assertTrue(withIssuer.ofKind("Issuer").isEmpty());
      HasMetadata serving = withIssuer.ofKind("Certificate").get(0);
      assertEquals(Map.of("kind", "ClusterIssuer", "name", "corp-ca"), specOf(serving).get("issuerRef"));
    }
  }

  @Nested
  class LeaderElection {

    final RenderedChart chart = render(LEADER_ELECTION);

    @Test
    void twoControllerReplicasElectALeaderOnALease() {
      Deployment controller = chart.get(Deployment.class, CONTROLLER);
      assertEquals(2, controller.getSpec().getReplicas());
      assertEquals("RollingUpdate", controller.getSpec().getStrategy().getType());
      Map<String, String> flags = flags(controller);
      assertTrue(flags.containsKey("--leader-election"), flags.toString());
      assertEquals(NAMESPACE, flags.get("--leader-election-namespace"));

      Role lease = chart.find(Role.class, NAMESPACE, CONTROLLER + "-leader-election").orElseThrow();
      Map<String, Set<String>> verbs = verbsByResource(lease.getRules());
      assertEquals(Set.of("create", "get", "update", "patch"), verbs.get("coordination.k8s.io/leases"));
      assertTrue(lease.getRules().stream().filter(r -> !r.getVerbs().contains("create"))
          .allMatch(r -> List.of(flags.get("--leader-election-lease")).equals(r.getResourceNames())));
    }
  }

  @Nested
  class LocalRun {

    @Test
    void webhookConfigurationsCallTheLocalUrl() {
      RenderedChart chart = RenderedChart.parse(helm.template(RELEASE, NAMESPACE, LOCAL,
          "templates/webhook/validating-webhook-configuration.yaml",
          "templates/webhook/mutating-webhook-configuration.yaml").requireSuccess().stdout());
      assertEquals(2, chart.objects().size(), chart.summary());
      ValidatingWebhook validating = chart.get(ValidatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0);
      assertEquals("https://127.0.0.1:9443/validate", validating.getClientConfig().getUrl());
      assertNull(validating.getClientConfig().getService());
      assertEquals("https://127.0.0.1:9443/mutate",
          chart.get(MutatingWebhookConfiguration.class, WEBHOOK).getWebhooks().get(0).getClientConfig().getUrl());
    }

    @Test
    void aPlainHttpUrlIsRefused() {
      CommandResult result = helm.template(RELEASE, NAMESPACE, "local: {webhookUrl: 'http://127.0.0.1:9443'}\n");
      assertFalse(result.succeeded());
      assertTrue(result.stderr().contains("at '/local/webhookUrl'"), result.describe());
    }
  }

  @Nested
  class Schema {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "webhook: {failurePolicy: Sometimes}",
        "watchNamespaces: team-a",
        "controller: {workers: 0}",
        "controller: {kubeApiQps: -1}",
        "controller: {mallocArenaMax: -1}",
        "webhook: {mallocArenaMax: two}",
        "controller: {tikvFailoverPeriod: soon}",
        "controller: {autoFailover: maybe}",
        "webhook: {timeoutSeconds: 60}",
        "image: {pullPolicy: Sometimes}",
        "unknownKey: 1"})
    void mistypedValuesAreRefusedBeforeAnythingIsRendered(String values) {
      CommandResult result = helm.template(RELEASE, NAMESPACE, values + "\n");
      assertFalse(result.succeeded(), result.describe());
      assertTrue(result.stderr().contains("values don't meet the specifications of the schema"), result.describe());
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  static LabelSelectorRequirement notIn(String namespace) {
    return new LabelSelectorRequirement("kubernetes.io/metadata.name", "NotIn", List.of(namespace));
  }

  static Container container(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  /** The container's environment variables with a literal value, by name. */
  static Map<String, String> env(Deployment deployment) {
    Map<String, String> env = new java.util.LinkedHashMap<>();
    container(deployment).getEnv().stream()
        .filter(variable -> variable.getValue() != null)
        .forEach(variable -> env.put(variable.getName(), variable.getValue()));
    return env;
  }

  /** The container's {@code --flag=value} arguments; a bare {@code --flag} maps to "true". */
  static Map<String, String> flags(Deployment deployment) {
    return container(deployment).getArgs().stream()
        .collect(Collectors.toMap(
            arg -> arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg,
            arg -> arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "true"));
  }

  /** Verbs by "group/resource" (the core group is ""), merged over all rules. */
  static Map<String, Set<String>> verbsByResource(List<PolicyRule> rules) {
    Map<String, Set<String>> result = new java.util.TreeMap<>();
    for (PolicyRule rule : rules) {
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          result.computeIfAbsent(group + "/" + resource, k -> new java.util.TreeSet<>()).addAll(rule.getVerbs());
        }
      }
    }
    return result;
  }

  static void assertNoWildcards(List<PolicyRule> rules) {
    for (PolicyRule rule : rules) {
      assertFalse(rule.getVerbs().contains("*"), rule.toString());
      assertFalse(rule.getResources().contains("*"), rule.toString());
      assertFalse(rule.getApiGroups().contains("*"), rule.toString());
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> specOf(HasMetadata generic) {
    return (Map<String, Object>) ((io.fabric8.kubernetes.api.model.GenericKubernetesResource) generic)
        .getAdditionalProperties().get("spec");
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new java.util.TreeSet<>(a);
    out.addAll(b);
    return out;
  }
}
