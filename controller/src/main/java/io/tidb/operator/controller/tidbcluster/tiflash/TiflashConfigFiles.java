package io.tidb.operator.controller.tidbcluster.tiflash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiflashConfig;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;

/**
 * TiFlash's two config templates, {@code config_templ.toml} (TiFlash) and {@code
 * proxy_templ.toml} (its embedded TiKV proxy): the user's {@code spec.tiflash.config.config} and
 * {@code .proxy} with upstream's defaults filled in where the user set nothing (the defaults
 * upstream uses for TiFlash v5.4 and later). {@code POD_NUM} stands for the pod's ordinal; the
 * init container replaces it ({@link TiflashScripts#init}). With cluster TLS the certificate
 * paths are forced in and the plain ports removed, as upstream does.
 *
 * @param config the TiFlash config template
 * @param proxy the proxy config template
 */
public record TiflashConfigFiles(String config, String proxy) {

  static final String CLUSTER_LOG = "/data0/logs/flash_cluster_manager.log";
  static final String ERROR_LOG = "/data0/logs/error.log";
  static final String SERVER_LOG = "/data0/logs/server.log";

  /** The rendered templates of {@code tc}'s TiFlash. */
  public static TiflashConfigFiles of(TidbCluster tc) {
    TiflashSpec spec = tc.getSpec().getTiflash();
    TiflashConfig given = spec.getConfig();
    ComponentConfig common =
        given == null || given.getConfig() == null ? ComponentConfig.empty() : given.getConfig();
    ComponentConfig proxy =
        given == null || given.getProxy() == null ? ComponentConfig.empty() : given.getProxy();

    String cluster = tc.getMetadata().getName();
    String ns = tc.getMetadata().getNamespace();
    String domain = MemberPods.clusterDomain(tc);
    boolean ipv6 = Boolean.TRUE.equals(tc.getSpec().getPreferIPv6());
    String listen = ipv6 ? "[::]" : "0.0.0.0";
    String podHost =
        Names.podHost(
            Names.member(cluster, TiflashObjects.COMPONENT) + "-POD_NUM",
            Names.peerService(cluster, TiflashObjects.COMPONENT), ns, domain);

    if (common.get("path").isEmpty() && common.get("storage.main.dir").isEmpty()) {
      ArrayNode dirs = JsonNodeFactory.instance.arrayNode();
      int claims = spec.getStorageClaims() == null ? 0 : spec.getStorageClaims().size();
      for (int i = 0; i < Math.max(1, claims); i++) {
        dirs.add("/data" + i + "/db");
      }
      common = common.with("storage.main.dir", dirs);
    }
    if (common.get("raft.kvstore_path").isEmpty()) {
      common = ifAbsent(common, "storage.raft.dir",
          JsonNodeFactory.instance.arrayNode().add("/data0/kvstore"));
    }
    common = ifAbsent(common, "tmp_path", text("/data0/tmp"));
    boolean plainPorts = TiflashVersion.before710(TiflashObjects.version(tc));
    if (plainPorts) {
      common = ifAbsent(common, "tcp_port", LongNode.valueOf(TiflashObjects.TCP_PORT));
      common = ifAbsent(common, "http_port", LongNode.valueOf(TiflashObjects.HTTP_PORT));
    }
    common = ifAbsent(common, "flash.tidb_status_addr", text(tidbStatusAddress(tc)));
    boolean mounted = TiflashObjects.mountsConfigInContainer(tc);
    if (!mounted) {
      common = ifAbsent(common, "flash.service_addr", text(listen + ":" + TiflashObjects.FLASH_PORT));
    }
    common = ifAbsent(common, "flash.flash_cluster.log", text(CLUSTER_LOG));
    common = ifAbsent(common, "flash.proxy.addr", text(listen + ":" + TiflashObjects.PROXY_PORT));
    if (!mounted) {
      common = ifAbsent(common, "flash.proxy.advertise-addr",
          text(podHost + ":" + TiflashObjects.PROXY_PORT));
    }
    common = ifAbsent(common, "flash.proxy.data-dir", text("/data0/proxy"));
    common = ifAbsent(common, "flash.proxy.config", text(mounted
        ? TiflashObjects.CONFIG_DIR + "/" + TiflashObjects.PROXY_TEMPLATE : "/data0/proxy.toml"));
    common = ifAbsent(common, "logger.errorlog", text(ERROR_LOG));
    common = ifAbsent(common, "logger.log", text(SERVER_LOG));
    common = ifAbsent(common, "raft.pd_addr", text(pdAddress(tc)));
    if (ipv6) {
      common = ifAbsent(common, "listen_host", text("::"));
      common = ifAbsent(common, "status.metrics_port", LongNode.valueOf(TiflashObjects.METRICS_PORT));
    }

    proxy = ifAbsent(proxy, "log-level", text("info"));
    if (!mounted) {
      proxy = ifAbsent(proxy, "server.engine-addr", text(podHost + ":" + TiflashObjects.FLASH_PORT));
      proxy = ifAbsent(proxy, "server.advertise-status-addr",
          text(podHost + ":" + TiflashObjects.PROXY_STATUS_PORT));
    }
    proxy = ifAbsent(proxy, "server.status-addr", text(listen + ":" + TiflashObjects.PROXY_STATUS_PORT));

    if (MemberPods.tlsCluster(tc)) {
      String dir = TiflashObjects.TLS_DIR;
      common = common.with("security.ca_path", text(dir + "/ca.crt"))
          .with("security.cert_path", text(dir + "/tls.crt"))
          .with("security.key_path", text(dir + "/tls.key"));
      if (plainPorts) {
        common = ifAbsent(common, "tcp_port_secure", LongNode.valueOf(TiflashObjects.TCP_PORT));
        common = ifAbsent(common, "https_port", LongNode.valueOf(TiflashObjects.HTTP_PORT));
      }
      common = without(common, "http_port");
      common = without(common, "tcp_port");
      proxy = proxy.with("security.ca-path", text(dir + "/ca.crt"))
          .with("security.cert-path", text(dir + "/tls.crt"))
          .with("security.key-path", text(dir + "/tls.key"));
      if (common.get("security.cert_allowed_cn").isPresent()
          && proxy.get("security.cert-allowed-cn").isEmpty()) {
        proxy = proxy.with("security.cert-allowed-cn", common.get("security.cert_allowed_cn").get());
      }
    }
    return new TiflashConfigFiles(common.toToml(), proxy.toToml());
  }

  /**
   * The placeholder for PD's address across Kubernetes clusters ({@code spec.acrossK8s}): the init
   * container replaces it with discovery's answer ({@link TiflashScripts#init}), as upstream's.
   */
  static final String PD_ADDR_PLACEHOLDER = "PD_ADDR";

  /**
   * {@code raft.pd_addr} as upstream sets it: {@link #PD_ADDR_PLACEHOLDER} across Kubernetes
   * clusters; the referenced cluster's PD Service {@code <ref>-pd.<ref-ns>.svc[.<domain>]:2379}
   * for a heterogeneous cluster without PD of its own; its own {@code <tc>-pd.<ns>.svc:2379}
   * otherwise.
   */
  static String pdAddress(TidbCluster tc) {
    if (Boolean.TRUE.equals(tc.getSpec().getAcrossK8s())) {
      return PD_ADDR_PLACEHOLDER;
    }
    if (!PdOwner.of(tc).referenced()) {
      return Names.member(tc.getMetadata().getName(), ClusterAddresses.PD) + "."
          + tc.getMetadata().getNamespace() + ".svc:" + ClusterAddresses.PD_CLIENT_PORT;
    }
    return Names.member(tc.getSpec().getCluster().getName(), ClusterAddresses.PD) + "."
        + referenceHost(tc) + ":" + ClusterAddresses.PD_CLIENT_PORT;
  }

  /** {@code <ref-ns>.svc[.<ref cluster domain>]}: where the referenced cluster's Services are. */
  private static String referenceHost(TidbCluster tc) {
    var ref = tc.getSpec().getCluster();
    String namespace = ref.getNamespace() == null || ref.getNamespace().isBlank()
        ? tc.getMetadata().getNamespace() : ref.getNamespace();
    String domain = ref.getClusterDomain() == null || ref.getClusterDomain().isBlank()
        ? "" : "." + ref.getClusterDomain();
    return namespace + ".svc" + domain;
  }

  /**
   * {@code flash.tidb_status_addr} as upstream sets it: the cluster's own TiDB Service, or, for a
   * heterogeneous cluster without TiDB, the referenced cluster's ({@code <ref>-tidb}, its
   * headless {@code <ref>-tidb-peer} across Kubernetes clusters) in the reference's namespace
   * and cluster domain.
   */
  static String tidbStatusAddress(TidbCluster tc) {
    var spec = tc.getSpec();
    if (spec.getTidb() != null || !PdOwner.heterogeneous(tc)) {
      return Names.member(tc.getMetadata().getName(), ClusterAddresses.TIDB) + "."
          + tc.getMetadata().getNamespace() + ".svc:" + ClusterAddresses.TIDB_STATUS_PORT;
    }
    String ref = spec.getCluster().getName();
    String service = Boolean.TRUE.equals(spec.getAcrossK8s())
        ? Names.peerService(ref, ClusterAddresses.TIDB)
        : Names.member(ref, ClusterAddresses.TIDB);
    return service + "." + referenceHost(tc) + ":" + ClusterAddresses.TIDB_STATUS_PORT;
  }

  /** The file a log-tailer sidecar follows: the configured path of {@code key}. */
  static String logFile(TidbCluster tc, String key, String fallback) {
    TiflashConfig given = tc.getSpec().getTiflash().getConfig();
    if (given == null || given.getConfig() == null) {
      return fallback;
    }
    return given.getConfig().get(key).filter(JsonNode::isTextual).map(JsonNode::asText)
        .orElse(fallback);
  }

  private static ComponentConfig ifAbsent(ComponentConfig c, String key, JsonNode value) {
    return c.get(key).isPresent() ? c : c.with(key, value);
  }

  private static ComponentConfig without(ComponentConfig c, String key) {
    var tree = c.tree();
    if (!tree.has(key)) {
      return c;
    }
    tree.remove(key);
    return ComponentConfig.of(tree);
  }

  private static JsonNode text(String s) {
    return TextNode.valueOf(s);
  }
}
