package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.controller.tidbcluster.ClusterApiFactory;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A TLS cluster's log-backup checkpoint is read from PD's etcd over HTTPS with the cluster's
 * client certificate ({@code <cluster>-cluster-client-secret}), as every other PD call; the PD
 * simulator here serves HTTPS only and requires a client certificate of the cluster's CA.
 */
class LogCheckpointsTlsTest {

  private static final TestCertificates CA = TestCertificates.newCa("log-checkpoint-tls-ca");
  private final ServingCertificate client = CA.peer(List.of("TiDB"));
  private final Map<String, Secret> secrets = new java.util.HashMap<>();
  private final TidbCluster cluster = ApiObjects.parse("""
      apiVersion: pingcap.com/v1alpha1
      kind: TidbCluster
      metadata: {name: basic, namespace: ns}
      spec: {version: v8.5.7, tlsCluster: {enabled: true}}
      """, TidbCluster.class);
  private PdSimulatorServer pd;
  private LogCheckpoints checkpoints;

  @BeforeEach
  void start() throws Exception {
    pd = PdSimulatorServer.startTls(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0),
        CA.server(CA.peer(TestCertificates.componentNames("basic", "ns", "pd"))));
    pd.clusters().pd(new ClusterKey("ns", "basic")).addMember("basic-pd-0", 1L);
    ClusterApiFactory clusters = new ClusterApiFactory(new ComponentUrls(pd.pdUrlTemplate(), pd.tidbStatusUrlTemplate(),
        pd.pdMemberUrlTemplate(), Duration.ofSeconds(5)),
        (namespace, name) -> Optional.ofNullable(secrets.get(namespace + "/" + name)), Clock.systemUTC());
    checkpoints = LogCheckpoints.fromPd(clusters, LogCheckpoints.DEFAULT_PERIOD);
    secrets.put("ns/basic-cluster-client-secret", CA.secret("ns", "basic-cluster-client-secret", client));
    byte[] tso = ByteBuffer.allocate(8).putLong(464_000_000_000_262_144L).array();
    clusters.pdEtcd(cluster).put("/tidb/br-stream/checkpoint/pitr/central_global", tso);
  }

  @AfterEach
  void stop() {
    pd.close();
  }

  @Test
  void readWithTheClusterClientCertificate() {
    Map<String, byte[]> read = checkpoints.source().read(cluster, LogCheckpoint.prefix("pitr"));
    assertArrayEquals(ByteBuffer.allocate(8).putLong(464_000_000_000_262_144L).array(),
        read.get("/tidb/br-stream/checkpoint/pitr/central_global"));
    assertEquals(Optional.of("464000000000262144"), LogCheckpoint.tsoOf(read));
    assertTrue(!pd.clientCertificates().isEmpty() && pd.clientCertificates().stream().allMatch(c -> c.equals(client.certificate())),
        "every call presented the cluster's client certificate");
    assertTrue(pd.calls().stream().anyMatch(c -> c.request().equals("POST /v3/kv/range")), pd.calls().toString());
  }

  @Test
  void withoutTheClientSecretNothingIsRead() {
    secrets.clear();
    assertThrows(RuntimeException.class, () -> checkpoints.source().read(cluster, LogCheckpoint.prefix("pitr")));
  }
}
