package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DiscoveryObjectsTest {
  private static final String IMAGE = "tidb-operator-java:test";

  @ParameterizedTest
  @ValueSource(strings = {"basic", "full"})
  void matchesGoldenObjects(String name) {
    TidbCluster tc = TestClusters.load(name);
    Golden.assertYaml(name + "/discovery-serviceaccount.yaml", DiscoveryObjects.serviceAccount(tc));
    Golden.assertYaml(name + "/discovery-role.yaml", DiscoveryObjects.role(tc));
    Golden.assertYaml(name + "/discovery-rolebinding.yaml", DiscoveryObjects.roleBinding(tc));
    Golden.assertYaml(name + "/discovery-deployment.yaml", DiscoveryObjects.deployment(tc, IMAGE));
    Golden.assertYaml(name + "/discovery-service.yaml", DiscoveryObjects.service(tc));
  }

  @Test
  void deploymentRunsTheOperatorImageInDiscoveryMode() {
    Deployment d = DiscoveryObjects.deployment(TestClusters.load("basic"), IMAGE);
    assertEquals("basic-discovery", d.getMetadata().getName());
    assertEquals(1, d.getSpec().getReplicas());
    assertEquals("Recreate", d.getSpec().getStrategy().getType());
    assertEquals("basic-discovery", d.getSpec().getTemplate().getSpec().getServiceAccountName());
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(IMAGE, c.getImage());
    assertEquals(List.of(), c.getCommand(), "the image's entry point runs");
    assertEquals(List.of("discovery"), c.getArgs());
    assertEquals(List.of(10261, 10262), c.getPorts().stream().map(p -> p.getContainerPort()).collect(Collectors.toList()));
    assertEquals("basic", c.getEnv().stream().filter(e -> e.getName().equals("TC_NAME")).findFirst().orElseThrow().getValue());
    assertEquals("metadata.namespace", c.getEnv().stream().filter(e -> e.getName().equals("MY_POD_NAMESPACE"))
        .findFirst().orElseThrow().getValueFrom().getFieldRef().getFieldPath());
    assertNull(c.getReadinessProbe());
    assertEquals(Labels.component("basic", ClusterAddresses.DISCOVERY), d.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void deploymentMountsPdCertificateWithClusterTls() {
    Deployment d = DiscoveryObjects.deployment(TestClusters.load("full"), IMAGE);
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("/var/lib/pd-tls", c.getVolumeMounts().get(0).getMountPath());
    assertEquals("full-pd-cluster-secret", d.getSpec().getTemplate().getSpec().getVolumes().get(0).getSecret().getSecretName());
    assertEquals("true", c.getEnv().stream().filter(e -> e.getName().equals("TC_TLS_ENABLED")).findFirst().orElseThrow().getValue());
    assertEquals(10261, c.getReadinessProbe().getTcpSocket().getPort().getIntVal());
    assertEquals(5, c.getReadinessProbe().getPeriodSeconds());
  }

  @Test
  void withDiscoveryMtlsTheDiscoverySecretIsMountedAndTheModeSet() {
    TidbCluster tc = TestClusters.load("full");
    tc.getSpec().getTlsCluster().setEnableDiscoveryMTLS(true);
    Deployment d = DiscoveryObjects.deployment(tc, IMAGE);
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("/var/lib/discovery-tls", c.getVolumeMounts().stream()
        .filter(m -> m.getName().equals("discovery-tls")).findFirst().orElseThrow().getMountPath());
    assertEquals("full-discovery-cluster-secret", d.getSpec().getTemplate().getSpec().getVolumes()
        .stream().filter(v -> v.getName().equals("discovery-tls")).findFirst().orElseThrow()
        .getSecret().getSecretName());
    assertEquals("true", c.getEnv().stream().filter(e -> e.getName().equals("DISCOVERY_MTLS_ENABLED"))
        .findFirst().orElseThrow().getValue());

    tc.getSpec().getTlsCluster().setEnabled(false);
    Container plain = DiscoveryObjects.deployment(tc, IMAGE).getSpec().getTemplate().getSpec()
        .getContainers().get(0);
    assertTrue(plain.getEnv().stream().noneMatch(e -> e.getName().equals("DISCOVERY_MTLS_ENABLED")),
        "enableDiscoveryMTLS counts only with tlsCluster.enabled, as upstream's");
  }

  @Test
  void aClusterWithoutPdOfItsOwnMountsNoPdCertificate() {
    TidbCluster tc = TestClusters.load("full");
    tc.getSpec().setPd(null);
    Deployment d = DiscoveryObjects.deployment(tc, IMAGE);
    assertTrue(d.getSpec().getTemplate().getSpec().getVolumes().stream()
        .noneMatch(v -> v.getName().equals("pd-tls")), "there is no <tc>-pd-cluster-secret");
    assertEquals("true", d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
        .filter(e -> e.getName().equals("TC_TLS_ENABLED")).findFirst().orElseThrow().getValue());
  }

  @Test
  void serviceExposesDiscoveryAndProxyPorts() {
    var svc = DiscoveryObjects.service(TestClusters.load("basic"));
    assertEquals("basic-discovery", svc.getMetadata().getName());
    assertEquals(List.of("discovery", "proxy"), svc.getSpec().getPorts().stream().map(p -> p.getName()).collect(Collectors.toList()));
    assertEquals(List.of(10261, 10262), svc.getSpec().getPorts().stream().map(p -> p.getPort()).collect(Collectors.toList()));
  }

  @Test
  void withClusterTlsTheRoleReadsTheClientSecretByNameAndNothingElse() {
    Role role = DiscoveryObjects.role(TestClusters.load("full"));
    assertEquals(2, role.getRules().size(), role.getRules().toString());
    var secrets = role.getRules().get(1);
    assertEquals(List.of(""), secrets.getApiGroups());
    assertEquals(List.of("secrets"), secrets.getResources());
    assertEquals(List.of("full-cluster-client-secret"), secrets.getResourceNames());
    assertEquals(List.of("get"), secrets.getVerbs());
  }

  @Test
  void roleGrantsGetOnThisClusterOnly() {
    Role role = DiscoveryObjects.role(TestClusters.load("basic"));
    assertEquals(1, role.getRules().size(), role.getRules().toString());
    assertEquals(List.of("pingcap.com"), role.getRules().get(0).getApiGroups());
    assertEquals(List.of("tidbclusters"), role.getRules().get(0).getResources());
    assertEquals(List.of("basic"), role.getRules().get(0).getResourceNames());
    assertEquals(List.of("get"), role.getRules().get(0).getVerbs());
    RoleBinding binding = DiscoveryObjects.roleBinding(TestClusters.load("basic"));
    assertEquals("basic-discovery", binding.getRoleRef().getName());
    assertEquals("ServiceAccount", binding.getSubjects().get(0).getKind());
    assertEquals("default", binding.getSubjects().get(0).getNamespace());
    assertTrue(binding.getMetadata().getOwnerReferences().get(0).getController());
  }
}
