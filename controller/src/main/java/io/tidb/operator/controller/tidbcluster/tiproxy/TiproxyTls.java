package io.tidb.operator.controller.tidbcluster.tiproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbTlsClient;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TiProxy's certificates, upstream's two layouts ({@code spec.tiproxy.certLayout}): which Secrets
 * are mounted where, and the {@code security.*} settings that point at them. Cluster TLS is
 * {@code spec.tlsCluster.enabled}; TiDB TLS is {@code spec.tidb.tlsClient.enabled}, under which
 * TiProxy serves its SQL port with TiDB's server certificate and, with {@code
 * spec.tiproxy.sslEnableTiDB} or without the annotation {@value #SKIP_TLS_ANNOTATION}, talks TLS
 * to TiDB.
 *
 * <p>Legacy (unset, or any value but {@code v1}): the cluster client certificate for the cluster
 * (PD) connections; TiDB's server Secret at {@value #SERVER_DIR} for the SQL port; a TiDB client
 * Secret ({@code spec.tiproxy.tlsClientSecretName}, default {@code <tc>-tidb-client-secret}) at
 * {@value #SQL_DIR} for the connections to TiDB; the HTTP API with TiDB's server certificate when
 * TiDB TLS is on, else with TiProxy's cluster certificate at {@value #HTTP_DIR}.
 *
 * <p>{@code v1}: TiProxy's own cluster certificate ({@code <tc>-tiproxy-cluster-secret}) at
 * {@value #CLUSTER_DIR} for the cluster connections and the HTTP API; TiDB's server Secret for the
 * SQL port, whose CA also checks TiDB's certificate (TiProxy presents no client certificate to
 * TiDB).
 *
 * <p>A user's {@code security.server-tls.skip-ca} and {@code security.sql-tls.skip-ca} are kept.
 */
final class TiproxyTls {

  /** The certificate layout upstream calls v1. */
  static final String LAYOUT_V1 = "v1";

  /** TidbCluster annotation: TiProxy does not use TLS towards TiDB (unless sslEnableTiDB). */
  static final String SKIP_TLS_ANNOTATION = "tidb.tidb.pingcap.com/skip-tls-when-connect-tidb";

  static final String SQL_DIR = "/var/lib/tiproxy-sql-tls";
  static final String SERVER_DIR = "/var/lib/tiproxy-server-tls";
  static final String HTTP_DIR = "/var/lib/tiproxy-http-server-tls";
  static final String CLUSTER_DIR = "/var/lib/tiproxy-tls";

  static final String CLUSTER_VOLUME = "tiproxy-tls";
  static final String SERVER_VOLUME = "tidb-server-tls";
  static final String SQL_VOLUME = "tidb-client-tls";

  private TiproxyTls() {}

  /** The settings, volumes and mounts; all empty without TLS. */
  record Plan(Map<String, JsonNode> config, List<Volume> volumes, List<VolumeMount> mounts) {}

  static Plan of(TidbCluster tc) {
    TiproxySpec tiproxy = tc.getSpec().getTiproxy();
    ComponentConfig user = tiproxy.getConfig() == null ? ComponentConfig.empty() : tiproxy.getConfig();
    String cluster = tc.getMetadata().getName();
    boolean tlsCluster = MemberPods.tlsCluster(tc);
    TidbTlsClient tidbTls = tidbTls(tc.getSpec().getTidb());
    boolean tlsTidb = tidbTls != null;
    boolean toTidb = tlsTidb && (Boolean.TRUE.equals(tiproxy.getSslEnableTiDB())
        || tc.getMetadata().getAnnotations() == null
        || !tc.getMetadata().getAnnotations().containsKey(SKIP_TLS_ANNOTATION));
    boolean skipCaToTidb = toTidb && user.get("security.sql-tls.skip-ca").isEmpty()
        && Boolean.TRUE.equals(tidbTls.getSkipInternalClientCA());
    Map<String, JsonNode> config = new LinkedHashMap<>();
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    String serverSecret = cluster + "-tidb-server-secret";
    if (LAYOUT_V1.equals(tiproxy.getCertLayout())) {
      if (tlsCluster) {
        config.putAll(paths("security.cluster-tls", CLUSTER_DIR));
        add(volumes, mounts, MemberPods.CLUSTER_CLIENT_VOLUME, MemberPods.CLUSTER_CLIENT_MOUNT,
            MemberPods.clusterClientSecret(cluster));
        add(volumes, mounts, CLUSTER_VOLUME, CLUSTER_DIR,
            MemberPods.clusterTlsSecret(cluster, TiproxyObjects.COMPONENT));
      }
      if (tlsTidb) {
        config.put("security.server-tls.cert", TextNode.valueOf(SERVER_DIR + "/tls.crt"));
        config.put("security.server-tls.key", TextNode.valueOf(SERVER_DIR + "/tls.key"));
        skipCaUnlessSet(config, user, "security.server-tls.skip-ca");
        if (skipCaToTidb) {
          config.put("security.sql-tls.skip-ca", BooleanNode.TRUE);
        } else if (toTidb) {
          config.put("security.sql-tls.ca", TextNode.valueOf(SERVER_DIR + "/ca.crt"));
        }
        add(volumes, mounts, SERVER_VOLUME, SERVER_DIR, serverSecret);
      }
      if (tlsCluster) {
        config.putAll(paths("security.server-http-tls", CLUSTER_DIR));
        config.put("security.server-http-tls.skip-ca", BooleanNode.TRUE);
      }
      return new Plan(config, volumes, mounts);
    }
    if (tlsCluster) {
      config.putAll(paths("security.cluster-tls", MemberPods.CLUSTER_CLIENT_MOUNT));
      add(volumes, mounts, MemberPods.CLUSTER_CLIENT_VOLUME, MemberPods.CLUSTER_CLIENT_MOUNT,
          MemberPods.clusterClientSecret(cluster));
    }
    if (tlsTidb) {
      config.putAll(paths("security.server-tls", SERVER_DIR));
      skipCaUnlessSet(config, user, "security.server-tls.skip-ca");
      add(volumes, mounts, SERVER_VOLUME, SERVER_DIR, serverSecret);
      if (toTidb) {
        if (skipCaToTidb) {
          config.put("security.sql-tls.skip-ca", BooleanNode.TRUE);
        } else {
          config.put("security.sql-tls.ca", TextNode.valueOf(SQL_DIR + "/ca.crt"));
        }
        if (!Boolean.TRUE.equals(tidbTls.getDisableClientAuthn())) {
          config.put("security.sql-tls.cert", TextNode.valueOf(SQL_DIR + "/tls.crt"));
          config.put("security.sql-tls.key", TextNode.valueOf(SQL_DIR + "/tls.key"));
        }
        String client = tiproxy.getTlsClientSecretName() != null
            ? tiproxy.getTlsClientSecretName() : cluster + "-tidb-client-secret";
        add(volumes, mounts, SQL_VOLUME, SQL_DIR, client);
      }
    }
    if (tlsCluster || tlsTidb) {
      config.putAll(paths("security.server-http-tls", tlsTidb ? SERVER_DIR : HTTP_DIR));
      config.put("security.server-http-tls.skip-ca", BooleanNode.TRUE);
    }
    if (tlsCluster && !tlsTidb) {
      add(volumes, mounts, CLUSTER_VOLUME, HTTP_DIR,
          MemberPods.clusterTlsSecret(cluster, TiproxyObjects.COMPONENT));
    }
    return new Plan(config, volumes, mounts);
  }

  private static TidbTlsClient tidbTls(TidbSpec tidb) {
    return tidb != null && tidb.getTlsClient() != null
        && Boolean.TRUE.equals(tidb.getTlsClient().getEnabled()) ? tidb.getTlsClient() : null;
  }

  private static Map<String, JsonNode> paths(String table, String dir) {
    return MemberPods.tlsPaths(table + ".ca", table + ".cert", table + ".key", dir);
  }

  private static void skipCaUnlessSet(Map<String, JsonNode> config, ComponentConfig user,
      String key) {
    if (user.get(key).isEmpty()) {
      config.put(key, BooleanNode.TRUE);
    }
  }

  private static void add(List<Volume> volumes, List<VolumeMount> mounts, String volume,
      String dir, String secret) {
    volumes.add(MemberPods.secretVolume(volume, secret));
    mounts.add(MemberPods.mount(volume, dir, true));
  }
}
