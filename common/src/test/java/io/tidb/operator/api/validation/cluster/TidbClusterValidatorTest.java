package io.tidb.operator.api.validation.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.StorageClaim;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per rule: a change to a valid cluster and the exact messages it must produce. */
class TidbClusterValidatorTest {

  private static TidbCluster with(Consumer<TidbCluster> change) {
    TidbCluster tc = TestClusters.basic();
    change.accept(tc);
    return tc;
  }

  private static List<String> messages(List<Violation> violations) {
    return violations.stream().map(Violation::message).toList();
  }

  private static Arguments row(String name, Consumer<TidbCluster> change, String... expected) {
    return Arguments.of(name, change, List.of(expected));
  }

  private static StorageVolume volume(String name, String size) {
    StorageVolume v = new StorageVolume();
    v.setName(name);
    v.setStorageSize(size);
    return v;
  }

  private static void annotate(TidbCluster tc, String key, String value) {
    Map<String, String> annotations = new HashMap<>();
    annotations.put(key, value);
    tc.getMetadata().setAnnotations(annotations);
  }

  private static void tiflashConfig(TidbCluster tc, String toml) {
    TiflashSpec tiflash = new TiflashSpec();
    StorageClaim claim = new StorageClaim();
    claim.setResources(new ResourceRequirementsBuilder().addToRequests("storage", new Quantity("100Gi")).build());
    tiflash.setStorageClaims(List.of(claim));
    io.tidb.operator.api.v1alpha1.cluster.TiflashConfig config = new io.tidb.operator.api.v1alpha1.cluster.TiflashConfig();
    config.setConfig(ComponentConfig.ofToml(toml));
    tiflash.setConfig(config);
    tc.getSpec().setTiflash(tiflash);
  }

  private static void tici(TidbCluster tc, String json) {
    tc.getSpec().setTici(io.tidb.operator.api.ApiObjects.parse(json, com.fasterxml.jackson.databind.JsonNode.class));
  }

  private static EnvVar env(String yamlish) {
    return io.tidb.operator.api.ApiObjects.parse(yamlish, EnvVar.class);
  }

  static Stream<Arguments> alwaysRules() {
    return Stream.of(
        row("valid cluster", tc -> { }),
        row("delete-slots valid", tc -> annotate(tc, "tikv.tidb.pingcap.com/delete-slots", "[1, 3]")),
        row("delete-slots not JSON", tc -> annotate(tc, "tikv.tidb.pingcap.com/delete-slots", "1,3"),
            "metadata.annotations[tikv.tidb.pingcap.com/delete-slots]: Invalid value: \"1,3\": "
                + "must be a JSON array of 32-bit integers, e.g. [1,3]"),
        row("delete-slots beyond int32", tc -> annotate(tc, "pd.tidb.pingcap.com/delete-slots", "[4294967296]"),
            "metadata.annotations[pd.tidb.pingcap.com/delete-slots]: Invalid value: \"[4294967296]\": "
                + "must be a JSON array of 32-bit integers, e.g. [1,3]"),
        row("delete-slots strings", tc -> annotate(tc, "tidb.tidb.pingcap.com/delete-slots", "[\"1\"]"),
            "metadata.annotations[tidb.tidb.pingcap.com/delete-slots]: Invalid value: \"[\"1\"]\": "
                + "must be a JSON array of 32-bit integers, e.g. [1,3]"),
        row("other annotations are free", tc -> annotate(tc, "example.com/delete-slots", "x")),
        row("pd storage missing", tc -> tc.getSpec().getPd().setRequests(null),
            "spec.pd.requests.storage: Required value: the data volume size is required"),
        row("tikv storage missing", tc -> tc.getSpec().getTikv().setRequests(Map.of("cpu", new Quantity("1"))),
            "spec.tikv.requests.storage: Required value: the data volume size is required"),
        row("pump storage missing", tc -> tc.getSpec().setPump(new PumpSpec()),
            "spec.pump.requests.storage: Required value: the data volume size is required"),
        row("malformed quantity", tc -> tc.getSpec().getTidb().setLimits(Map.of("memory", new Quantity("lots"))),
            "spec.tidb.limits.memory: Invalid value: \"lots\": must be a Kubernetes quantity such as 500m, 4Gi or 100G"),
        row("tiflash without claims", tc -> tc.getSpec().setTiflash(new TiflashSpec()),
            "spec.tiflash.storageClaims: Required value: TiFlash needs at least one storage claim"),
        row("tiflash claim without size", tc -> {
              TiflashSpec tiflash = new TiflashSpec();
              StorageClaim ok = new StorageClaim();
              ok.setResources(new ResourceRequirementsBuilder().addToRequests("storage", new Quantity("100Gi")).build());
              tiflash.setStorageClaims(List.of(ok, new StorageClaim()));
              tc.getSpec().setTiflash(tiflash);
            },
            "spec.tiflash.storageClaims[1].resources.requests.storage: Required value: "
                + "each TiFlash storage claim needs a size"),
        row("storage volume size malformed", tc -> tc.getSpec().getTikv().setStorageVolumes(
                List.of(volume("raft", "10Gi"), volume("log", "ten"))),
            "spec.tikv.storageVolumes[1].storageSize: Invalid value: \"ten\": must be a Kubernetes quantity such as 10Gi"),
        row("storage volume without name and size", tc -> tc.getSpec().getPd().setStorageVolumes(List.of(new StorageVolume())),
            "spec.pd.storageVolumes[0].name: Required value: must not be empty",
            "spec.pd.storageVolumes[0].storageSize: Required value: must not be empty"),
        row("env valueFrom and value", tc -> tc.getSpec().getPd().setEnv(List.of(env(
                "{\"name\":\"A\",\"value\":\"x\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}}"))),
            "spec.pd.env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"),
        row("env valueFrom empty", tc -> tc.getSpec().getPd().setEnv(List.of(env("{\"name\":\"A\",\"valueFrom\":{}}"))),
            "spec.pd.env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, "
                + "`configMapKeyRef` or `secretKeyRef`"),
        row("env valueFrom two sources", tc -> tc.getSpec().getTidb().setEnv(List.of(env(
                "{\"name\":\"A\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"},"
                    + "\"secretKeyRef\":{\"name\":\"s\",\"key\":\"k\"}}}"))),
            "spec.tidb.env[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time"),
        row("env secret ref without key", tc -> tc.getSpec().getTidb().setEnv(List.of(env(
                "{\"name\":\"\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"s\"}}}"))),
            "spec.tidb.env[0].name: Required value: must not be empty",
            "spec.tidb.env[0].valueFrom.secretKeyRef.key: Required value: must not be empty"),
        row("additional container without image", tc -> tc.getSpec().getTidb().setAdditionalContainers(
                List.of(new ContainerBuilder().withName("sidecar").build())),
            "spec.tidb.additionalContainers[0].image: Required value: an additional container needs an image "
                + "(only one named like the main container is merged into it)"),
        row("additional container merged into main", tc -> tc.getSpec().getTidb().setAdditionalContainers(
            List.of(new ContainerBuilder().withName("tidb").build()))),
        row("load balancer source range not a CIDR", tc -> tc.getSpec().getTidb().getService()
                .setLoadBalancerSourceRanges(List.of("10.0.0.0/8", "10.0.0.1", "example.com/8")),
            "spec.tidb.service.loadBalancerSourceRanges[1]: Invalid value: \"10.0.0.1\": must be a CIDR such as 10.0.0.0/8 or fd00::/8",
            "spec.tidb.service.loadBalancerSourceRanges[2]: Invalid value: \"example.com/8\": must be a CIDR such as 10.0.0.0/8 or fd00::/8"),
        row("pd addresses", tc -> tc.getSpec().setPdAddresses(List.of("http://pd-0.example:2379", "https://pd", "pd:2379", "ftp://pd")),
            "spec.pdAddresses[2]: Invalid value: \"pd:2379\": must be an http or https URL with a host, e.g. http://pd.example:2379",
            "spec.pdAddresses[3]: Invalid value: \"ftp://pd\": must be an http or https URL with a host, e.g. http://pd.example:2379"),
        row("start script version unknown, with an unknown flag", tc -> {
              tc.getSpec().setStartScriptVersion("v3");
              tc.getSpec().setStartScriptV2FeatureFlags(List.of("Fast", "NoWaitDNS", "Slow"));
            },
            "spec.startScriptVersion: Unsupported value: \"v3\": supported values: \"\" (the operator's default), v1, v2",
            "spec.startScriptV2FeatureFlags[0]: Unsupported value: \"Fast\": supported values: "
                + "WaitForDnsNameIpMatch, PreferPDAddressesOverDiscovery, BashShebang, NoWaitDNS",
            "spec.startScriptV2FeatureFlags[2]: Unsupported value: \"Slow\": supported values: "
                + "WaitForDnsNameIpMatch, PreferPDAddressesOverDiscovery, BashShebang, NoWaitDNS"),
        row("start script versions known", tc -> tc.getSpec().setStartScriptVersion("v2")),
        row("start script feature flags", tc -> tc.getSpec().setStartScriptV2FeatureFlags(List.of("BashShebang", "Fast")),
            "spec.startScriptV2FeatureFlags[1]: Unsupported value: \"Fast\": supported values: "
                + "WaitForDnsNameIpMatch, PreferPDAddressesOverDiscovery, BashShebang, NoWaitDNS"),
        row("scale policy parallelism", tc -> {
              ScalePolicy p = new ScalePolicy();
              p.setScaleInParallelism(0);
              p.setScaleOutParallelism(2);
              tc.getSpec().getTikv().setScalePolicy(p);
            },
            "spec.tikv.scalePolicy.scaleInParallelism: Invalid value: 0: must be greater than 0"),
        row("tikv dataSubDir absolute", tc -> tc.getSpec().getTikv().setDataSubDir("/data"),
            "spec.tikv.dataSubDir: Invalid value: \"/data\": must be a relative path without '..'"),
        row("tikv dataSubDir escapes", tc -> tc.getSpec().getTikv().setDataSubDir("data/../.."),
            "spec.tikv.dataSubDir: Invalid value: \"data/../..\": must be a relative path without '..'"),
        row("tikv dataSubDir fine", tc -> tc.getSpec().getTikv().setDataSubDir("data/..x")),
        row("raft log volume unknown", tc -> {
              tc.getSpec().getTikv().setStorageVolumes(List.of(volume("raft", "10Gi")));
              tc.getSpec().getTikv().setSeparateRaftLog(true);
              tc.getSpec().getTikv().setSeparateRocksDBLog(true);
              tc.getSpec().getTikv().setRaftLogVolumeName("wal");
              tc.getSpec().getTikv().setRocksDBLogVolumeName("raft");
            },
            "spec.tikv.raftLogVolumeName: Invalid value: \"wal\": must name one of spec.tikv.storageVolumes: [raft], "
                + "or one of spec.tikv.additionalVolumes that spec.tikv.additionalVolumeMounts mounts: []"),
        row("raft log volume unused when the raft log is not separate", tc -> {
              tc.getSpec().getTikv().setRaftLogVolumeName("wal");
              tc.getSpec().getTikv().setRocksDBLogVolumeName("wal");
            }),
        row("slow log volume unknown", tc -> tc.getSpec().getTidb().setSlowLogVolumeName("slow"),
            "spec.tidb.slowLogVolumeName: Invalid value: \"slow\": must name one of spec.tidb.storageVolumes: [], "
                + "or one of spec.tidb.additionalVolumes that spec.tidb.additionalVolumeMounts mounts: []"),
        row("slow log volume unused when the slow log is not separate", tc -> {
              tc.getSpec().getTidb().setSeparateSlowLog(false);
              tc.getSpec().getTidb().setSlowLogVolumeName("slow");
            }),
        row("slow log on a mounted additional volume", tc -> {
              tc.getSpec().getTidb().setSlowLogVolumeName("slow");
              tc.getSpec().getTidb().setAdditionalVolumes(List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder()
                  .withName("slow").withNewEmptyDir().endEmptyDir().build()));
              tc.getSpec().getTidb().setAdditionalVolumeMounts(List.of(new io.fabric8.kubernetes.api.model.VolumeMountBuilder()
                  .withName("slow").withMountPath("/var/log/slow").build()));
            }),
        row("slow log on an additional volume nobody mounts", tc -> {
              tc.getSpec().getTidb().setSlowLogVolumeName("slow");
              tc.getSpec().getTidb().setAdditionalVolumes(List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder()
                  .withName("slow").withNewEmptyDir().endEmptyDir().build()));
            },
            "spec.tidb.slowLogVolumeName: Invalid value: \"slow\": must name one of spec.tidb.storageVolumes: [], "
                + "or one of spec.tidb.additionalVolumes that spec.tidb.additionalVolumeMounts mounts: []"),
        row("evict leader timeout", tc -> tc.getSpec().getTikv().setEvictLeaderTimeout("10 minutes"),
            "spec.tikv.evictLeaderTimeout: Invalid value: \"10 minutes\": must be a duration such as 90s, 10m or 1h30m: "
                + "unknown unit \" minutes\" in duration \"10 minutes\""),
        row("wait leader transfer back timeout", tc -> tc.getSpec().getTikv().setWaitLeaderTransferBackTimeout("400"),
            "spec.tikv.waitLeaderTransferBackTimeout: Invalid value: \"400\": must be a duration such as 90s, 10m or 1h30m: "
                + "missing unit in duration \"400\""),
        row("durations fine", tc -> {
              tc.getSpec().getTikv().setEvictLeaderTimeout("1500m");
              tc.getSpec().getTikv().setWaitLeaderTransferBackTimeout("400s");
            }),
        row("annotation key not a qualified name", tc -> annotate(tc, "example.com/a b", "x"),
            "metadata.annotations: Invalid value: \"example.com/a b\": annotation key name part must consist of letters, "
                + "digits, '-', '_' or '.' and must start and end with a letter or digit, e.g. MyName or my.name"),
        row("delete-slots null means none", tc -> annotate(tc, "tiflash.tidb.pingcap.com/delete-slots", "null")),
        row("delete-slots of a component upstream does not read", tc -> annotate(tc, "pump.tidb.pingcap.com/delete-slots", "x")),
        row("delete-slots of TiCDC", tc -> annotate(tc, "ticdc.tidb.pingcap.com/delete-slots", "[1.5]"),
            "metadata.annotations[ticdc.tidb.pingcap.com/delete-slots]: Invalid value: \"[1.5]\": "
                + "must be a JSON array of 32-bit integers, e.g. [1,3]"),
        row("env name invalid in a component", tc -> tc.getSpec().getTikv().setEnv(List.of(env("{\"name\":\"MY VAR\"}"))),
            "spec.tikv.env[0].name: Invalid value: \"MY VAR\": must consist of letters, digits, '_', '-' or '.' and must "
                + "not start with a digit, e.g. MY_ENV.NAME"),
        row("env of an additional container", tc -> tc.getSpec().getTidb().setAdditionalContainers(List.of(
                new ContainerBuilder().withName("sidecar").withImage("busybox")
                    .withEnv(env("{\"name\":\"A\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"S\",\"key\":\"k\"}}}")).build())),
            "spec.tidb.additionalContainers[0].env[0].valueFrom.secretKeyRef.name: Invalid value: \"S\": must be a lowercase "
                + "RFC 1123 subdomain: lower-case letters, digits, '-' or '.', starting and ending with a letter or digit, "
                + "e.g. my-name or example.com"),
        row("env of discovery", tc -> {
              tc.getSpec().setDiscovery(new io.tidb.operator.api.v1alpha1.cluster.DiscoverySpec());
              tc.getSpec().getDiscovery().setEnv(List.of(env("{\"name\":\"A\",\"valueFrom\":{}}")));
            },
            "spec.discovery.env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, "
                + "`configMapKeyRef` or `secretKeyRef`"),
        row("evict leader timeout zero", tc -> tc.getSpec().getTikv().setEvictLeaderTimeout("0s"),
            "spec.tikv.evictLeaderTimeout: Invalid value: \"0s\": must be a positive duration such as 90s, 10m or 1h30m"),
        row("evict leader timeout negative", tc -> tc.getSpec().getTikv().setEvictLeaderTimeout("-1m"),
            "spec.tikv.evictLeaderTimeout: Invalid value: \"-1m\": must be a positive duration such as 90s, 10m or 1h30m"),
        row("tiflash overlap threshold in range", tc -> tiflashConfig(tc, "[flash]\noverlap_threshold = 0.6\n")),
        row("tiflash overlap threshold above 1", tc -> tiflashConfig(tc, "[flash]\noverlap_threshold = 1.5\n"),
            "spec.tiflash.config.config.flash.overlap_threshold: Invalid value: 1.5: must be between 0 and 1"),
        row("tiflash overlap threshold not a number", tc -> tiflashConfig(tc, "[flash]\noverlap_threshold = \"high\"\n"),
            "spec.tiflash.config.config.flash.overlap_threshold: Invalid value: \"\"high\"\": must be a number between 0 and 1"),
        row("tiflash log paths with a directory", tc -> tiflashConfig(tc,
            "[logger]\nlog = \"/data0/logs/server.log\"\nerrorlog = \"/data0/logs/error.log\"\n"
                + "[flash.flash_cluster]\nlog = \"/data0/logs/cluster.log\"\n[flash.proxy]\nlog-file = \"/data0/logs/proxy.log\"\n")),
        row("tiflash log path without a directory", tc -> tiflashConfig(tc,
                "[logger]\nlog = \"/server.log\"\n[flash.proxy]\nlog-file = 7\n"),
            "spec.tiflash.config.config.flash.proxy.log-file: Invalid value: \"7\": must be a file path string",
            "spec.tiflash.config.config.logger.log: Invalid value: \"/server.log\": must include at least one directory "
                + "above the file, e.g. /data0/logs/server.log"),
        row("tici complete", tc -> tici(tc, "{\"meta\":{},\"worker\":{},\"s3\":{\"endpoint\":\"http://s3\",\"bucket\":\"b\"}}")),
        row("tici without changefeed needs no s3", tc -> tici(tc, "{\"meta\":{},\"worker\":{},\"changefeed\":{\"enable\":false}}")),
        row("tici empty", tc -> tici(tc, "{}"),
            "spec.tici.meta: Required value: meta is required when tici is set",
            "spec.tici.worker: Required value: worker is required when tici is set",
            "spec.tici.s3: Required value: s3 is required unless changefeed.enable is false"),
        row("tici s3 incomplete and bad parts", tc -> tici(tc, "{\"meta\":{\"env\":[{\"name\":\"1\"}],"
                + "\"storageVolumes\":[{\"name\":\"v\"}]},\"worker\":{\"additionalContainers\":[{\"name\":\"c\"}]},"
                + "\"s3\":{\"endpoint\":\"\"}}"),
            "spec.tici.meta.env[0].name: Invalid value: \"1\": must consist of letters, digits, '_', '-' or '.' and must "
                + "not start with a digit, e.g. MY_ENV.NAME",
            "spec.tici.meta.storageVolumes[0].storageSize: Required value: must not be empty",
            "spec.tici.worker.additionalContainers[0].image: Required value: an additional container needs an image",
            "spec.tici.s3.endpoint: Required value: must not be empty",
            "spec.tici.s3.bucket: Required value: must not be empty"),
        row("tici env not a list", tc -> tici(tc, "{\"meta\":{\"env\":{\"A\":\"b\"}},\"worker\":{},"
                + "\"changefeed\":{\"enable\":false}}"),
            "spec.tici.meta.env: Invalid value: \"{\"A\":\"b\"}\": must be a list"),
        row("config not TOML", tc -> tc.getSpec().getPd().setConfig(ComponentConfig.ofToml("[schedule")),
            "spec.pd.config: Invalid value: \"[schedule\": config is not valid TOML: Premature end of file"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("alwaysRules")
  void alwaysRules(String name, Consumer<TidbCluster> change, List<String> expected) {
    TidbCluster tc = with(change);
    assertEquals(expected, messages(TidbClusterValidator.validate(tc)));
    // the always-rules are part of create and update too
    assertEquals(expected, messages(TidbClusterValidator.validateCreate(tc)));
    assertEquals(expected, messages(TidbClusterValidator.validateUpdate(tc, tc)));
  }

  static Stream<Arguments> createRules() {
    return Stream.of(
        row("valid cluster", tc -> { }),
        row("component versions instead of the cluster's", tc -> {
              tc.getSpec().setVersion(null);
              tc.getSpec().getPd().setVersion("v8.5.0");
              tc.getSpec().getTikv().setVersion("v8.5.0");
              tc.getSpec().getTidb().setVersion("v8.5.0");
            }),
        row("no version anywhere", tc -> {
              tc.getSpec().setVersion("");
              tc.getSpec().getTikv().setVersion("v8.5.0");
            },
            "spec.pd.version: Required value: must not be empty: set spec.version or spec.pd.version",
            "spec.tidb.version: Required value: must not be empty: set spec.version or spec.tidb.version"),
        row("no components and no version", tc -> {
              tc.getSpec().setVersion(null);
              tc.getSpec().setPd(null);
              tc.getSpec().setTikv(null);
              tc.getSpec().setTidb(null);
            },
            "spec.version: Required value: must not be empty"),
        row("deprecated image", tc -> tc.getSpec().getTikv().setImage("pingcap/tikv:v5.0.0"),
            "spec.tikv.image: Forbidden: image is deprecated; use spec.tikv.baseImage and a version instead"),
        row("deprecated image of other components is still accepted (as upstream)", tc -> {
              tc.getSpec().setTicdc(new io.tidb.operator.api.v1alpha1.cluster.TicdcSpec());
              tc.getSpec().getTicdc().setImage("pingcap/ticdc:v8.5.0");
            }),
        row("base image empty", tc -> {
              tc.getSpec().getPd().setBaseImage("");
              tc.getSpec().getTidb().setBaseImage(null);
            },
            "spec.pd.baseImage: Required value: must not be empty",
            "spec.tidb.baseImage: Required value: must not be empty"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createRules")
  void createRules(String name, Consumer<TidbCluster> change, List<String> expected) {
    assertEquals(expected, messages(TidbClusterValidator.validateCreate(with(change))));
  }

  static Stream<Arguments> updateRules() {
    return Stream.of(
        row("no change", tc -> { }),
        row("instance label changed", tc -> tc.getMetadata().setLabels(Map.of("app.kubernetes.io/instance", "other")),
            "metadata.labels[app.kubernetes.io/instance]: Invalid value: \"other\": must not change (was \"basic\")"),
        row("instance label removed falls back to the name", tc -> tc.getMetadata().setLabels(Map.of())),
        row("pd config removed", tc -> tc.getSpec().getPd().setConfig(null),
            "spec.pd.config: Required value: cannot be removed once set; use {} for no settings"),
        row("tikv config removed", tc -> tc.getSpec().getTikv().setConfig(null),
            "spec.tikv.config: Required value: cannot be removed once set; use {} for no settings"),
        row("cert-allowed-cn not a list", tc -> tc.getSpec().getTikv().setConfig(
                ComponentConfig.ofToml("[security]\ncert-allowed-cn = \"a\"\n")),
            "spec.tikv.config.security.cert-allowed-cn: Invalid value: \"\"a\"\": must be a list of strings, e.g. [\"TiDB\"]"),
        row("cert-allowed-cn not strings", tc -> tc.getSpec().getTikv().setConfig(
                ComponentConfig.ofToml("[security]\ncert-allowed-cn = [1]\n")),
            "spec.tikv.config.security.cert-allowed-cn: Invalid value: \"[1]\": must be a list of strings, e.g. [\"TiDB\"]"),
        row("pd schedule changed", tc -> tc.getSpec().getPd().setConfig(
                ComponentConfig.ofToml("[schedule]\nleader-schedule-limit = 8\n[replication]\nmax-replicas = 3\n")),
            "spec.pd.config.schedule: Invalid value: \"{\"leader-schedule-limit\":8}\": PD keeps schedule settings in etcd "
                + "after bootstrap, so they are immutable here; change them with pd-ctl instead"),
        row("pd schedule same in TOML form", tc -> tc.getSpec().getPd().setConfig(
            ComponentConfig.ofToml("[schedule]\nleader-schedule-limit = 4\n[replication]\nmax-replicas = 3\n[log]\nlevel = \"warn\"\n"))),
        row("pd replication removed", tc -> tc.getSpec().getPd().setConfig(
                ComponentConfig.ofToml("[schedule]\nleader-schedule-limit = 4\n")),
            "spec.pd.config.replication: Invalid value: null: PD keeps replication settings in etcd after bootstrap, "
                + "so they are immutable here; change them with pd-ctl instead"),
        row("cert-allowed-cn with two entries", tc -> tc.getSpec().getTidb().setConfig(
                ComponentConfig.ofToml("[security]\ncert-allowed-cn = [\"a\", \"b\"]\n")),
            "spec.tidb.config.security.cert-allowed-cn: Invalid value: \"[\"a\",\"b\"]\": at most one common name is supported"),
        row("cert-allowed-cn with one entry", tc -> tc.getSpec().getTidb().setConfig(
            ComponentConfig.ofToml("[security]\ncert-allowed-cn = [\"a\"]\n"))),
        row("bootstrap SQL changed", tc -> tc.getSpec().getTidb().setBootstrapSQLConfigMapName("other"),
            "spec.tidb.bootstrapSQLConfigMapName: Invalid value: \"other\": bootstrapSQLConfigMapName is immutable (was \"init-sql\")"),
        row("bootstrap SQL removed", tc -> tc.getSpec().getTidb().setBootstrapSQLConfigMapName(null),
            "spec.tidb.bootstrapSQLConfigMapName: Invalid value: null: bootstrapSQLConfigMapName is immutable (was \"init-sql\")"),
        row("version cleared", tc -> tc.getSpec().setVersion(""),
            "spec.pd.version: Required value: cannot be cleared: set spec.version or spec.pd.version (was \"v8.5.0\")",
            "spec.tikv.version: Required value: cannot be cleared: set spec.version or spec.tikv.version (was \"v8.5.0\")",
            "spec.tidb.version: Required value: cannot be cleared: set spec.version or spec.tidb.version (was \"v8.5.0\")"),
        row("version moved to components", tc -> {
              tc.getSpec().setVersion(null);
              tc.getSpec().getPd().setVersion("v8.5.0");
              tc.getSpec().getTikv().setVersion("v8.5.0");
              tc.getSpec().getTidb().setVersion("v8.5.1");
            }),
        row("base image cleared", tc -> tc.getSpec().getTikv().setBaseImage(""),
            "spec.tikv.baseImage: Required value: cannot be cleared (was \"pingcap/tikv\")"),
        row("tikv storage grown", tc -> tc.getSpec().getTikv().getRequests().put("storage", new Quantity("200Gi"))),
        row("tikv storage same size written differently", tc -> tc.getSpec().getTikv().getRequests()
            .put("storage", new Quantity("102400Mi"))),
        row("tikv storage shrunk", tc -> tc.getSpec().getTikv().getRequests().put("storage", new Quantity("50Gi")),
            "spec.tikv.requests.storage: Invalid value: \"50Gi\": volume shrinking is not supported (was \"100Gi\");"
                + " only a larger size can be applied"),
        row("pd storage shrunk in decimal units", tc -> tc.getSpec().getPd().getRequests()
                .put("storage", new Quantity("10G")),
            "spec.pd.requests.storage: Invalid value: \"10G\": volume shrinking is not supported (was \"10Gi\");"
                + " only a larger size can be applied"),
        row("storage volume shrunk", tc -> tc.getSpec().getTidb().getStorageVolumes().get(0).setStorageSize("1Gi"),
            "spec.tidb.storageVolumes[0].storageSize: Invalid value: \"1Gi\": volume shrinking is not supported"
                + " (was \"2Gi\"); only a larger size can be applied"),
        row("storage volume replaced by another name", tc -> tc.getSpec().getTidb().getStorageVolumes()
            .set(0, volume("other", "1Gi"))),
        row("storage request removed", tc -> tc.getSpec().getTikv().getRequests().remove("storage"),
            "spec.tikv.requests.storage: Required value: the data volume size is required"));
  }

  private static TidbCluster oldForUpdate() {
    return with(tc -> {
      tc.getMetadata().setLabels(Map.of("app.kubernetes.io/instance", "basic"));
      tc.getSpec().getPd().setConfig(ComponentConfig.of(io.tidb.operator.api.ApiObjects.toTree(
          Map.of("schedule", Map.of("leader-schedule-limit", 4), "replication", Map.of("max-replicas", 3)))));
      tc.getSpec().getTidb().setBootstrapSQLConfigMapName("init-sql");
      tc.getSpec().getTidb().setStorageVolumes(new ArrayList<>(List.of(volume("slowlog", "2Gi"))));
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateRules")
  void updateRules(String name, Consumer<TidbCluster> change, List<String> expected) {
    TidbCluster old = oldForUpdate();
    TidbCluster updated = io.tidb.operator.api.ApiObjects.deepCopy(old);
    change.accept(updated);
    assertEquals(expected, messages(TidbClusterValidator.validateUpdate(old, updated)));
  }

  @Test
  void instanceLabelMayBeAddedWithTheClusterNameOnly() {
    TidbCluster old = TestClusters.basic();
    TidbCluster same = with(tc -> tc.getMetadata().setLabels(Map.of("app.kubernetes.io/instance", "basic")));
    TidbCluster other = with(tc -> tc.getMetadata().setLabels(Map.of("app.kubernetes.io/instance", "other")));
    assertEquals(List.of(), messages(TidbClusterValidator.validateUpdate(old, same)));
    assertEquals(List.of("metadata.labels[app.kubernetes.io/instance]: Invalid value: \"other\": must not change "
        + "(was \"basic\")"), messages(TidbClusterValidator.validateUpdate(old, other)));
  }

  @Test
  void reportsEveryViolationAtOnce() {
    TidbCluster tc = with(t -> {
      t.getSpec().getPd().setRequests(null);
      t.getSpec().getTikv().setEvictLeaderTimeout("soon");
      t.getSpec().setPdAddresses(new ArrayList<>(List.of("nope")));
      annotate(t, "tikv.tidb.pingcap.com/delete-slots", "{");
    });
    assertEquals(4, TidbClusterValidator.validate(tc).size());
  }

  @Test
  void pdConfigThatDoesNotParseIsReportedOnceNotAsAnImmutabilityError() {
    TidbCluster old = oldForUpdate();
    TidbCluster updated = io.tidb.operator.api.ApiObjects.deepCopy(old);
    updated.getSpec().getPd().setConfig(ComponentConfig.ofToml("schedule = ["));
    List<String> messages = messages(TidbClusterValidator.validateUpdate(old, updated));
    assertEquals(1, messages.size(), messages::toString);
    assertEquals(true, messages.get(0).startsWith("spec.pd.config: Invalid value: \"schedule = [\": config is not valid TOML"));
  }

  @Test
  void missingSpecIsAViolationNotAnException() {
    TidbCluster tc = new TidbCluster();
    assertEquals(List.of("spec: Required value: a TidbCluster needs a spec"),
        messages(TidbClusterValidator.validateCreate(tc)));
  }

  @Test
  void nullEntriesInListsAreViolations() {
    TidbCluster tc = with(t -> {
      List<Container> containers = new ArrayList<>();
      containers.add(null);
      t.getSpec().getTidb().setAdditionalContainers(containers);
    });
    assertEquals(List.of("spec.tidb.additionalContainers[0]: Required value: must not be null"),
        messages(TidbClusterValidator.validate(tc)));
  }
}
