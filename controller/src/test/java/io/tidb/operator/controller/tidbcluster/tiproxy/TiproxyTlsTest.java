package io.tidb.operator.controller.tidbcluster.tiproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbTlsClient;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.api.v1alpha1.cluster.TlsCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TiProxy's two certificate layouts, upstream's settings and mounts. */
class TiproxyTlsTest {

  private static TidbCluster cluster(String tiproxyYaml, boolean tlsCluster, String tidbTls) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTiproxy(ApiObjects.parse("baseImage: pingcap/tiproxy\n" + tiproxyYaml,
        TiproxySpec.class));
    if (tlsCluster) {
      TlsCluster t = new TlsCluster();
      t.setEnabled(true);
      tc.getSpec().setTlsCluster(t);
    }
    if (tidbTls != null) {
      tc.getSpec().getTidb().setTlsClient(ApiObjects.parse(tidbTls, TidbTlsClient.class));
    }
    return tc;
  }

  private static Map<String, String> config(TiproxyTls.Plan p) {
    Map<String, String> out = new LinkedHashMap<>();
    p.config().forEach((k, v) -> out.put(k, v.asText()));
    return new java.util.TreeMap<>(out);
  }

  private static List<String> mounts(TiproxyTls.Plan p) {
    Map<String, String> secretOf = new LinkedHashMap<>();
    for (Volume v : p.volumes()) {
      secretOf.put(v.getName(), v.getSecret().getSecretName());
    }
    return p.mounts().stream()
        .map((VolumeMount m) -> secretOf.get(m.getName()) + " at " + m.getMountPath()).toList();
  }

  @Test
  void withoutTlsNothingIsMountedOrSet() {
    TiproxyTls.Plan p = TiproxyTls.of(cluster("certLayout: v1\n", false, null));
    assertEquals(Map.of(), p.config());
    assertEquals(List.of(), p.volumes());
  }

  @Test
  void legacyClusterTlsOnly() {
    TiproxyTls.Plan p = TiproxyTls.of(cluster("", true, null));
    assertEquals(List.of(
        "basic-cluster-client-secret at /var/lib/cluster-client-tls",
        "basic-tiproxy-cluster-secret at /var/lib/tiproxy-http-server-tls"), mounts(p));
    assertEquals(new java.util.TreeMap<>(Map.of(
        "security.cluster-tls.ca", "/var/lib/cluster-client-tls/ca.crt",
        "security.cluster-tls.cert", "/var/lib/cluster-client-tls/tls.crt",
        "security.cluster-tls.key", "/var/lib/cluster-client-tls/tls.key",
        "security.server-http-tls.ca", "/var/lib/tiproxy-http-server-tls/ca.crt",
        "security.server-http-tls.cert", "/var/lib/tiproxy-http-server-tls/tls.crt",
        "security.server-http-tls.key", "/var/lib/tiproxy-http-server-tls/tls.key",
        "security.server-http-tls.skip-ca", "true")), config(p));
  }

  @Test
  void legacyTidbTlsUsesTidbsServerSecretAndAClientSecretTowardsTidb() {
    TiproxyTls.Plan p = TiproxyTls.of(cluster("tlsClientSecretName: my-client\n", true,
        "enabled: true\n"));
    assertEquals(List.of(
        "basic-cluster-client-secret at /var/lib/cluster-client-tls",
        "basic-tidb-server-secret at /var/lib/tiproxy-server-tls",
        "my-client at /var/lib/tiproxy-sql-tls"), mounts(p));
    Map<String, String> c = config(p);
    assertEquals("true", c.get("security.server-tls.skip-ca"));
    assertEquals("/var/lib/tiproxy-server-tls/tls.crt", c.get("security.server-tls.cert"));
    assertEquals("/var/lib/tiproxy-sql-tls/ca.crt", c.get("security.sql-tls.ca"));
    assertEquals("/var/lib/tiproxy-sql-tls/tls.key", c.get("security.sql-tls.key"));
    assertEquals("/var/lib/tiproxy-server-tls/tls.crt", c.get("security.server-http-tls.cert"),
        "the HTTP API serves TiDB's server certificate");
  }

  @Test
  void legacyTowardsTidbFollowsTheSkipAnnotationSslEnableTidbAndTheTlsClientFlags() {
    TidbCluster skipped = cluster("", false, "enabled: true\n");
    skipped.getMetadata().setAnnotations(Map.of(TiproxyTls.SKIP_TLS_ANNOTATION, ""));
    TiproxyTls.Plan p = TiproxyTls.of(skipped);
    assertEquals(List.of("basic-tidb-server-secret at /var/lib/tiproxy-server-tls"), mounts(p));
    assertEquals(null, config(p).get("security.sql-tls.ca"));

    skipped.getSpec().getTiproxy().setSslEnableTiDB(true);
    assertEquals(List.of("basic-tidb-server-secret at /var/lib/tiproxy-server-tls",
        "basic-tidb-client-secret at /var/lib/tiproxy-sql-tls"), mounts(TiproxyTls.of(skipped)));

    Map<String, String> c = config(TiproxyTls.of(cluster("", false,
        "enabled: true\nskipInternalClientCA: true\ndisableClientAuthn: true\n")));
    assertEquals("true", c.get("security.sql-tls.skip-ca"));
    assertEquals(null, c.get("security.sql-tls.ca"));
    assertEquals(null, c.get("security.sql-tls.cert"), "no client certificate without authn");
  }

  @Test
  void aUsersSkipCaSettingsAreKept() {
    Map<String, String> c = config(TiproxyTls.of(cluster("""
        config:
          security:
            server-tls:
              skip-ca: false
            sql-tls:
              skip-ca: false
        """, false, "enabled: true\nskipInternalClientCA: true\n")));
    assertEquals(null, c.get("security.server-tls.skip-ca"));
    assertEquals(null, c.get("security.sql-tls.skip-ca"));
    assertEquals("/var/lib/tiproxy-sql-tls/ca.crt", c.get("security.sql-tls.ca"));
  }

  @Test
  void v1UsesTiproxysOwnClusterCertificateAndTidbsServerCa() {
    TiproxyTls.Plan p = TiproxyTls.of(cluster("certLayout: v1\n", true, "enabled: true\n"));
    assertEquals(List.of(
        "basic-cluster-client-secret at /var/lib/cluster-client-tls",
        "basic-tiproxy-cluster-secret at /var/lib/tiproxy-tls",
        "basic-tidb-server-secret at /var/lib/tiproxy-server-tls"), mounts(p));
    assertEquals(new java.util.TreeMap<>(Map.ofEntries(
        Map.entry("security.cluster-tls.ca", "/var/lib/tiproxy-tls/ca.crt"),
        Map.entry("security.cluster-tls.cert", "/var/lib/tiproxy-tls/tls.crt"),
        Map.entry("security.cluster-tls.key", "/var/lib/tiproxy-tls/tls.key"),
        Map.entry("security.server-tls.cert", "/var/lib/tiproxy-server-tls/tls.crt"),
        Map.entry("security.server-tls.key", "/var/lib/tiproxy-server-tls/tls.key"),
        Map.entry("security.server-tls.skip-ca", "true"),
        Map.entry("security.sql-tls.ca", "/var/lib/tiproxy-server-tls/ca.crt"),
        Map.entry("security.server-http-tls.ca", "/var/lib/tiproxy-tls/ca.crt"),
        Map.entry("security.server-http-tls.cert", "/var/lib/tiproxy-tls/tls.crt"),
        Map.entry("security.server-http-tls.key", "/var/lib/tiproxy-tls/tls.key"),
        Map.entry("security.server-http-tls.skip-ca", "true"))), config(p));
  }

  @Test
  void theSettingsReachTheConfigMapAndTheMountsThePod() {
    TidbCluster tc = cluster("certLayout: v1\n", true, "enabled: true\n");
    Map<String, JsonNode> forced = TiproxyObjects.forcedConfig(tc);
    assertEquals("/var/lib/tiproxy-server-tls/ca.crt", forced.get("security.sql-tls.ca").asText());
    var cm = TiproxyObjects.configMap(tc, java.util.Optional.empty());
    var sts = TiproxyObjects.statefulSet(tc, cm,
        io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan.holding(1));
    assertEquals(true, sts.getSpec().getTemplate().getSpec().getContainers().get(0)
        .getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/var/lib/tiproxy-server-tls")));
  }
}
