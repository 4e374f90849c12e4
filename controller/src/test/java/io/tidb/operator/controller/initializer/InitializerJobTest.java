package io.tidb.operator.controller.initializer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class InitializerJobTest {

  private static final InitializerSettings SETTINGS =
      new InitializerSettings("registry/tidb-operator-java/controller:v1", InitializerSettings.DEFAULT_TIDB_ADDRESS_TEMPLATE);

  private static TidbInitializer ti(String spec) {
    TidbInitializer ti = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: init, namespace: ns, uid: u-1, labels: {team: db}}
        spec:
        """ + spec.indent(2), TidbInitializer.class);
    return ti;
  }

  private static TidbCluster tc(String tidb) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: demo, namespace: ns}
        spec:
          tidb:
        """ + tidb.indent(4), TidbCluster.class);
  }

  @Test
  void theUpstreamExampleBecomesAJobWithSecretsOnlyInTheEnvironment() {
    Job job = InitializerJob.build(ti("""
        image: tnir/mysqlclient
        imagePullPolicy: IfNotPresent
        cluster: {name: demo}
        initSql: create database hello;
        passwordSecret: tidb-secret
        timezone: UTC
        permitHost: 10.0.0.%
        """), tc("replicas: 1"), List.of("app"), SETTINGS);
    assertEquals("demo-tidb-initializer", job.getMetadata().getName());
    assertEquals("init", job.getMetadata().getOwnerReferences().get(0).getName());
    assertEquals("u-1", job.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals("initializer", job.getMetadata().getLabels().get("app.kubernetes.io/component"));
    assertEquals("tidb-operator", job.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
    assertEquals("init", job.getMetadata().getLabels().get("tidb.pingcap.com/initializer"));
    assertEquals("db", job.getMetadata().getLabels().get("team"));
    assertEquals(0, job.getSpec().getBackoffLimit());
    assertEquals("Never", job.getSpec().getTemplate().getSpec().getRestartPolicy());
    assertEquals(Boolean.FALSE, job.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken());
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("registry/tidb-operator-java/controller:v1", c.getImage());
    assertEquals("IfNotPresent", c.getImagePullPolicy());
    assertEquals(List.of(), c.getCommand(), "the image's entry point");
    assertEquals(List.of("initializer", "--host", "demo-tidb.ns", "--port", "4000", "--permit-host", "10.0.0.%"), c.getArgs());
    assertEquals("FallbackToLogsOnError", c.getTerminationMessagePolicy());
    List<EnvVar> env = c.getEnv();
    assertEquals(List.of("TZ", "TIDB_ROOT_PASSWORD", "TIDB_USERS", "TIDB_USER_PASSWORD_1", "TIDB_INIT_SQL"),
        env.stream().map(EnvVar::getName).toList());
    assertEquals("root", env.get(1).getValueFrom().getSecretKeyRef().getKey());
    assertEquals("tidb-secret", env.get(1).getValueFrom().getSecretKeyRef().getName());
    assertNull(env.get(1).getValue());
    assertEquals("app", env.get(2).getValue());
    assertEquals("app", env.get(3).getValueFrom().getSecretKeyRef().getKey());
    assertEquals("create database hello;", env.get(4).getValue());
  }

  @Test
  void theConfigMapWinsOverInitSqlAndThePortAndDomainFollowTheCluster() {
    TidbCluster tc = tc("service: {port: 4001}");
    tc.getSpec().setClusterDomain("cluster.local");
    Job job = InitializerJob.build(ti("""
        image: x
        cluster: {name: demo}
        initSql: ignored
        initSqlConfigMap: sql
        """), tc, List.of(), SETTINGS);
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(List.of("initializer", "--host", "demo-tidb.ns.svc.cluster.local", "--port", "4001"), c.getArgs());
    assertEquals(1, c.getEnv().size());
    assertEquals("sql", c.getEnv().get(0).getValueFrom().getConfigMapKeyRef().getName());
    assertEquals("init-sql", c.getEnv().get(0).getValueFrom().getConfigMapKeyRef().getKey());
  }

  @Test
  void clientTlsMountsTheCertificateSecretAndVerifiesTheServer() {
    Job job = InitializerJob.build(ti("image: x\ncluster: {name: demo}\n"), tc("tlsClient: {enabled: true}"), List.of(), SETTINGS);
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(List.of("--tls-ca", "/var/lib/tidb-client-tls/ca.crt",
        "--tls-cert", "/var/lib/tidb-client-tls/tls.crt", "--tls-key", "/var/lib/tidb-client-tls/tls.key"),
        c.getArgs().subList(5, c.getArgs().size()));
    assertEquals("demo-tidb-client-secret", job.getSpec().getTemplate().getSpec().getVolumes().get(0).getSecret().getSecretName());
    Job plain = InitializerJob.build(ti("image: x\ncluster: {name: demo}\n"), tc("replicas: 1"), List.of(), SETTINGS);
    assertFalse(plain.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs().contains("--tls-ca"));
  }

  @Test
  void skipInternalClientCaPresentsTheClientCertificateWithoutVerifyingTheServer() {
    Job job = InitializerJob.build(ti("image: x\ncluster: {name: demo}\n"),
        tc("tlsClient: {enabled: true, skipInternalClientCA: true}"), List.of(), SETTINGS);
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(List.of("--tls-cert", "/var/lib/tidb-client-tls/tls.crt",
        "--tls-key", "/var/lib/tidb-client-tls/tls.key"), c.getArgs().subList(5, c.getArgs().size()));
  }

  @Test
  void thePodReachesOnlyTheSecretsAndConfigMapItsSpecNamesAndHasNoApiAccess() {
    Job job = InitializerJob.build(ti("""
        image: x
        cluster: {name: demo}
        passwordSecret: tidb-secret
        initSqlConfigMap: init-sql
        tlsClientSecretName: demo-client
        """), tc("tlsClient: {enabled: true}"), List.of("app", "reader"), SETTINGS);
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    Set<String> reached = new TreeSet<>();
    for (Container c : pod.getContainers()) {
      assertTrue(c.getEnvFrom() == null || c.getEnvFrom().isEmpty(), "no whole Secret or ConfigMap as environment");
      for (EnvVar e : c.getEnv()) {
        EnvVarSource from = e.getValueFrom();
        if (from == null) {
          continue;
        }
        assertNull(from.getFieldRef(), e.getName());
        assertNull(from.getResourceFieldRef(), e.getName());
        if (from.getSecretKeyRef() != null) {
          reached.add("Secret " + from.getSecretKeyRef().getName() + " key " + from.getSecretKeyRef().getKey());
        }
        if (from.getConfigMapKeyRef() != null) {
          reached.add("ConfigMap " + from.getConfigMapKeyRef().getName() + " key " + from.getConfigMapKeyRef().getKey());
        }
      }
    }
    for (Volume v : pod.getVolumes()) {
      assertNull(v.getProjected(), "no projected (service account token) volume");
      assertNull(v.getConfigMap(), v.getName());
      reached.add("Secret " + v.getSecret().getSecretName() + " volume");
    }
    assertEquals(Set.of("Secret tidb-secret key root", "Secret tidb-secret key app", "Secret tidb-secret key reader",
        "ConfigMap init-sql key init-sql", "Secret demo-client volume"), reached);
    assertEquals(Boolean.FALSE, pod.getAutomountServiceAccountToken(), "the pod cannot call the API server");
    assertNull(pod.getServiceAccountName(), "no ServiceAccount of the operator's, none given");
    assertEquals("restricted-sa", InitializerJob.build(ti("image: x\ncluster: {name: demo}\nserviceAccountName: restricted-sa\n"),
        tc("replicas: 1"), List.of(), SETTINGS).getSpec().getTemplate().getSpec().getServiceAccountName());
  }

  @Test
  void theAddressTemplateIsChecked() {
    assertEquals(new InitializerSettings.HostPort("127.0.0.1", 33306),
        new InitializerSettings("i", "127.0.0.1:33306").tidbAddress("ns", "tc", null, 4000));
    assertThrows(IllegalArgumentException.class, () -> new InitializerSettings("i", "{name}-tidb.{pod}:4000"));
    assertThrows(IllegalArgumentException.class, () -> new InitializerSettings("i", "no-port"));
  }
}
