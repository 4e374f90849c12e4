package io.tidb.operator.controller.dmcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.defaulting.dm.DmClusterDefaulter;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The objects a DMCluster gets: names, labels, ports, owner, pod settings, volumes. */
class DmObjectsTest {

  private static DmCluster dc(String specYaml) {
    DmCluster dc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: DMCluster
        metadata: {name: dm, namespace: ns, uid: 1111-2222}
        spec:
        """ + specYaml.indent(2), DmCluster.class);
    return DmClusterDefaulter.withDefaults(dc);
  }

  private static final String BASIC = """
      version: v8.5.7
      nodeSelector: {disk: ssd}
      imagePullPolicy: Always
      master:
        replicas: 3
        storageSize: 5Gi
        requests: {cpu: "1", storage: 5Gi}
        nodeSelector: {zone: a}
        service: {type: NodePort, masterNodePort: 30261}
        config: {log-level: debug}
      worker: {replicas: 2, version: v8.5.6}
      """;

  private static Container main(StatefulSet sts) {
    return sts.getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  @Test
  void masterStatefulSetFollowsUpstreamsLayout() {
    StatefulSet sts = DmObjects.masterStatefulSet(dc(BASIC), new StatefulSetPlan(3, 2));
    assertEquals("dm-dm-master", sts.getMetadata().getName());
    assertEquals("dm-dm-master-peer", sts.getSpec().getServiceName());
    assertEquals(3, sts.getSpec().getReplicas());
    assertEquals(2, sts.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
    assertEquals("Parallel", sts.getSpec().getPodManagementPolicy());
    assertEquals(Map.of("app.kubernetes.io/name", "dm-cluster", "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/instance", "dm", "app.kubernetes.io/component", "dm-master"),
        sts.getSpec().getSelector().getMatchLabels());
    assertEquals("DMCluster", sts.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals("1111-2222", sts.getMetadata().getOwnerReferences().get(0).getUid());
    Container c = main(sts);
    assertEquals("dm-master", c.getName());
    assertEquals("pingcap/dm:v8.5.7", c.getImage());
    assertEquals("Always", c.getImagePullPolicy());
    assertEquals(Map.of("cpu", new io.fabric8.kubernetes.api.model.Quantity("1")), c.getResources().getRequests(),
        "storage is the claim's, not the container's");
    assertEquals(Map.of("disk", "ssd", "zone", "a"), sts.getSpec().getTemplate().getSpec().getNodeSelector());
    assertEquals("5Gi", sts.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests()
        .get("storage").toString());
    assertEquals("dm-master", sts.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
    assertTrue(c.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/var/lib/dm-master")));
  }

  @Test
  void workerUsesItsOwnVersionAndTheDefaultVolumeSize() {
    StatefulSet sts = DmObjects.workerStatefulSet(dc(BASIC), new StatefulSetPlan(2, 0));
    assertEquals("pingcap/dm:v8.5.6", main(sts).getImage());
    assertEquals("dm-dm-worker-peer", sts.getSpec().getServiceName());
    assertEquals("10Gi", sts.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests()
        .get("storage").toString());
    assertTrue(main(sts).getEnv().stream().anyMatch(e -> e.getName().equals("HEADLESS_SERVICE_NAME")
        && e.getValue().equals("dm-dm-worker-peer")));
  }

  @Test
  void servicesExposeUpstreamsPorts() {
    Service client = DmObjects.masterService(dc(BASIC));
    assertEquals("dm-dm-master", client.getMetadata().getName());
    assertEquals("NodePort", client.getSpec().getType());
    assertEquals(8261, client.getSpec().getPorts().get(0).getPort());
    assertEquals(30261, client.getSpec().getPorts().get(0).getNodePort());
    assertEquals("end-user", client.getMetadata().getLabels().get("app.kubernetes.io/used-by"));
    Service peer = DmObjects.masterPeerService(dc(BASIC));
    assertEquals("None", peer.getSpec().getClusterIP());
    assertEquals(java.util.List.of(8261, 8291), peer.getSpec().getPorts().stream().map(p -> p.getPort()).toList());
    assertEquals(8262, DmObjects.workerPeerService(dc(BASIC)).getSpec().getPorts().get(0).getPort());
  }

  @Test
  void tlsMountsTheClusterSecretAndConfiguresIt() {
    DmCluster tls = dc(BASIC + "tlsCluster: {enabled: true}\n");
    StatefulSet sts = DmObjects.masterStatefulSet(tls, StatefulSetPlan.holding(3));
    assertTrue(sts.getSpec().getTemplate().getSpec().getVolumes().stream()
        .anyMatch(v -> v.getSecret() != null && v.getSecret().getSecretName().equals("dm-dm-master-cluster-secret")));
    String toml = DmConfigFiles.masterConfig(tls);
    assertTrue(toml.contains("ssl-ca = '/var/lib/dm-master-tls/ca.crt'"), toml);
    assertTrue(toml.contains("log-level = 'debug'"), toml);
    assertTrue(DmConfigFiles.masterScript(tls).contains("--peer-urls=https://0.0.0.0:8291"));
    assertFalse(DmConfigFiles.masterConfig(dc(BASIC)).contains("ssl-ca"));
  }

  @Test
  void startScriptsAskDiscoveryAndJoinTheMasters() {
    String master = DmConfigFiles.masterScript(dc(BASIC));
    assertTrue(master.contains("/new/${peer}/dm"), master);
    assertTrue(master.contains("nslookup"), master);
    assertTrue(DmConfigFiles.masterScript(dc(BASIC.replace("replicas: 3", "replicas: 3\n  startUpScriptVersion: v1")))
        .contains("dig"));
    String worker = DmConfigFiles.workerScript(dc(BASIC));
    assertTrue(worker.contains("--join=dm-dm-master:8261"), worker);
    assertNull(DmObjects.masterService(dc("master: {replicas: 1}\n")).getSpec().getPorts().get(0).getNodePort());
  }

  @Test
  void tlsClientSecretNamesAreMountedIntoMastersAndWorkersAsUpstream() {
    DmCluster d = dc(BASIC + "tlsClientSecretNames: [mysql-tls, tidb-tls]\n");
    for (StatefulSet sts : new StatefulSet[] {DmObjects.masterStatefulSet(d, new StatefulSetPlan(3, 0)),
        DmObjects.workerStatefulSet(d, new StatefulSetPlan(2, 0))}) {
      for (String secret : new String[] {"mysql-tls", "tidb-tls"}) {
        assertTrue(main(sts).getVolumeMounts().stream().anyMatch(m -> m.getName().equals(secret)
            && m.getMountPath().equals("/var/lib/source-tls/" + secret) && Boolean.TRUE.equals(m.getReadOnly())),
            sts.getMetadata().getName() + " mounts " + secret);
        assertTrue(sts.getSpec().getTemplate().getSpec().getVolumes().stream().anyMatch(v -> v.getName().equals(secret)
            && v.getSecret() != null && secret.equals(v.getSecret().getSecretName())));
      }
    }
  }

  @Test
  void theDiscoveryServiceIsUpstreamsDmDiscovery() {
    DmCluster d = dc(BASIC + "discovery: {nodeSelector: {pool: discovery}}\n");
    io.fabric8.kubernetes.api.model.apps.Deployment dep = DmDiscoveryObjects.deployment(d, "operator:1");
    assertEquals("dm-dm-discovery", dep.getMetadata().getName());
    assertEquals(Map.of("app.kubernetes.io/name", "dm-cluster", "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/instance", "dm-dm", "app.kubernetes.io/component", "discovery"),
        dep.getSpec().getSelector().getMatchLabels());
    assertEquals("DMCluster", dep.getMetadata().getOwnerReferences().get(0).getKind());
    Container c = dep.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("operator:1", c.getImage());
    assertEquals(java.util.List.of("discovery"), c.getArgs());
    assertTrue(c.getEnv().stream().anyMatch(e -> e.getName().equals("TC_NAME") && "dm".equals(e.getValue())));
    assertEquals("dm-dm-discovery", dep.getSpec().getTemplate().getSpec().getServiceAccountName());
    assertEquals(Map.of("disk", "ssd", "pool", "discovery"), dep.getSpec().getTemplate().getSpec().getNodeSelector());
    Service svc = DmDiscoveryObjects.service(d);
    assertEquals(10261, svc.getSpec().getPorts().get(0).getPort());
    assertEquals(dep.getSpec().getSelector().getMatchLabels(), svc.getSpec().getSelector());

    var plain = DmDiscoveryObjects.role(d).getRules();
    assertEquals(1, plain.size());
    assertEquals(java.util.List.of("dmclusters"), plain.get(0).getResources());
    assertEquals(java.util.List.of("dm"), plain.get(0).getResourceNames());
    assertEquals(java.util.List.of("get"), plain.get(0).getVerbs());
    var tls = DmDiscoveryObjects.role(dc(BASIC + "tlsCluster: {enabled: true}\n")).getRules();
    assertEquals(java.util.List.of("dm-dm-client-secret"), tls.get(1).getResourceNames());
    assertEquals(java.util.List.of("get"), tls.get(1).getVerbs());
  }

  @Test
  void theMasterScriptAsksTheDmDiscoveryAndSeparatesItsAnswer() {
    String script = DmConfigFiles.masterScript(dc(BASIC));
    assertTrue(script.contains("http://${cluster}-dm-discovery.${NAMESPACE}:10261/new/${peer}/dm"), script);
    assertTrue(script.contains("ARGS=\"${ARGS} ${flags}\""), "the discovery answer is a separate argument");
  }
}
