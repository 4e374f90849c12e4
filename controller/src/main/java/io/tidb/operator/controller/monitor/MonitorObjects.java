package io.tidb.operator.controller.monitor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPathBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.tidb.operator.api.v1alpha1.monitor.IngressSpec;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The namespaced objects of a TidbMonitor besides its StatefulSets, as upstream creates them: the
 * Prometheus and Grafana ConfigMaps, the Grafana admin Secret, the TLS assets Secret, the
 * ServiceAccount with a Role (or, cluster-scoped, a ClusterRole) to discover pods, the Services of
 * every shard and the Ingresses. Pure.
 */
public final class MonitorObjects {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private MonitorObjects() {}

  /**
   * The {@code <tm>-monitor} ConfigMap holding {@code prometheus.yml} and, when the monitor loads
   * alert rules, {@link OperatorAlertRules#FILE_NAME}.
   */
  public static ConfigMap prometheusConfigMap(TidbMonitor tm, String prometheusYaml) {
    Map<String, String> data = new java.util.TreeMap<>();
    data.put(MonitorStatefulSet.CONFIG_KEY, prometheusYaml);
    if (PrometheusConfigGenerator.operatorRules(tm.getSpec())) {
      data.put(OperatorAlertRules.FILE_NAME, OperatorAlertRules.yaml());
    }
    return new ConfigMapBuilder()
        .withMetadata(meta(tm, MonitorNames.monitor(tm), MonitorLabels.withApp(tm.getMetadata().getName(), "prometheus")))
        .withData(data)
        .build();
  }

  /** Grafana's dashboard provider: the dashboards the initializer writes, editable in the UI. */
  public static ConfigMap grafanaConfigMap(TidbMonitor tm) {
    Map<String, Object> provider = Map.of(
        "name", "0", "orgId", 1, "folder", "", "type", "file", "allowUiUpdates", true,
        "options", Map.of("path", "/grafana-dashboard-definitions/tidb"));
    String json;
    try {
      json = JSON.writeValueAsString(Map.of("apiVersion", 1, "providers", List.of(provider)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return new ConfigMapBuilder()
        .withMetadata(meta(tm, MonitorNames.grafanaConfigMap(tm), MonitorLabels.withApp(tm.getMetadata().getName(), "grafana")))
        .withData(Map.of("dashboards.yaml", json))
        .build();
  }

  /** The {@code <tm>-monitor} Secret with {@code spec.grafana.username} and {@code password}. */
  public static Secret grafanaSecret(TidbMonitor tm) {
    var g = tm.getSpec().getGrafana();
    return new SecretBuilder()
        .withMetadata(meta(tm, MonitorNames.monitor(tm)))
        .withType("Opaque")
        .withData(Map.of("username", base64(g.getUsername()), "password", base64(g.getPassword())))
        .build();
  }

  /** {@code tidbmonitor-<tm>-tls-assets}: the client certificates of the TLS clusters, by asset key. */
  public static Secret tlsAssets(TidbMonitor tm, Map<String, String> base64Data) {
    return new SecretBuilder()
        .withMetadata(meta(tm, MonitorNames.tlsAssets(tm)))
        .withType("Opaque")
        .withData(base64Data.isEmpty() ? null : base64Data)
        .build();
  }

  public static ServiceAccount serviceAccount(TidbMonitor tm) {
    return new ServiceAccountBuilder()
        .withMetadata(meta(tm, MonitorNames.monitor(tm)))
        .withAutomountServiceAccountToken(tm.getSpec().getAutomountServiceAccountToken())
        .build();
  }

  /** What Prometheus' pod discovery needs, and nothing more. */
  public static List<PolicyRule> discoveryRules() {
    return List.of(new PolicyRuleBuilder()
        .withApiGroups("").withResources("pods").withVerbs("get", "list", "watch").build());
  }

  public static Role role(TidbMonitor tm) {
    return new RoleBuilder()
        .withMetadata(meta(tm, MonitorNames.monitor(tm)))
        .withRules(discoveryRules())
        .build();
  }

  public static RoleBinding roleBinding(TidbMonitor tm) {
    return new RoleBindingBuilder()
        .withMetadata(meta(tm, MonitorNames.monitor(tm)))
        .addNewSubject().withKind("ServiceAccount").withName(MonitorNames.monitor(tm))
            .withNamespace(tm.getMetadata().getNamespace()).endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role")
            .withName(MonitorNames.monitor(tm)).endRoleRef()
        .build();
  }

  /** Cluster-scoped objects cannot be owned by a TidbMonitor: they name it in an annotation. */
  public static ClusterRole clusterRole(TidbMonitor tm) {
    return new ClusterRoleBuilder()
        .withNewMetadata()
            .withName(MonitorNames.clusterWide(tm))
            .withLabels(MonitorLabels.of(tm.getMetadata().getName()))
            .withAnnotations(Map.of(MonitorLabels.OWNER_ANNOTATION, owner(tm)))
        .endMetadata()
        .withRules(discoveryRules())
        .build();
  }

  public static ClusterRoleBinding clusterRoleBinding(TidbMonitor tm) {
    return new ClusterRoleBindingBuilder()
        .withNewMetadata()
            .withName(MonitorNames.clusterWide(tm))
            .withLabels(MonitorLabels.of(tm.getMetadata().getName()))
            .withAnnotations(Map.of(MonitorLabels.OWNER_ANNOTATION, owner(tm)))
        .endMetadata()
        .addNewSubject().withKind("ServiceAccount").withName(MonitorNames.monitor(tm))
            .withNamespace(tm.getMetadata().getNamespace()).endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole")
            .withName(MonitorNames.clusterWide(tm)).endRoleRef()
        .build();
  }

  static String owner(TidbMonitor tm) {
    return tm.getMetadata().getNamespace() + "/" + tm.getMetadata().getName();
  }

  /** Prometheus, reloader and (with spec.grafana) Grafana Services of every shard. */
  public static List<Service> services(TidbMonitor tm) {
    TidbMonitorSpec spec = tm.getSpec();
    String name = tm.getMetadata().getName();
    List<Service> out = new ArrayList<>();
    for (int shard = 0; shard < MonitorNames.shards(spec); shard++) {
      Map<String, String> selector = MonitorLabels.selector(MonitorNames.instance(tm, shard));
      List<ServicePort> promPorts = new ArrayList<>();
      promPorts.add(port(portName(spec.getPrometheus().getService(), "http-prometheus"), 9090));
      if (spec.getThanos() != null) {
        promPorts.add(port("thanos-grpc", 10901));
        promPorts.add(port("thanos-http", 10902));
      }
      out.add(service(tm, MonitorNames.prometheusService(tm, shard),
          MonitorLabels.combine(MonitorLabels.of(name), java.util.Map.of(MonitorLabels.USED_BY, "prometheus")),
          spec.getPrometheus().getService(), promPorts, selector));
      out.add(service(tm, MonitorNames.reloaderService(tm, shard), MonitorLabels.of(name),
          spec.getReloader().getService(),
          List.of(port(portName(spec.getReloader().getService(), "tcp-reloader"), 9089)), selector));
      if (spec.getGrafana() != null) {
        out.add(service(tm, MonitorNames.grafanaService(tm, shard),
            MonitorLabels.combine(MonitorLabels.of(name), java.util.Map.of(MonitorLabels.USED_BY, "grafana")),
            spec.getGrafana().getService(),
            List.of(port(portName(spec.getGrafana().getService(), "http-grafana"), 3000)), selector));
      }
    }
    return out;
  }

  /** Ingresses for spec.prometheus.ingress and spec.grafana.ingress, to the first shard's Services. */
  public static List<Ingress> ingresses(TidbMonitor tm) {
    TidbMonitorSpec spec = tm.getSpec();
    List<Ingress> out = new ArrayList<>();
    if (spec.getPrometheus().getIngress() != null) {
      out.add(ingress(tm, spec.getPrometheus().getIngress(), MonitorNames.prometheusService(tm, 0), 9090));
    }
    if (spec.getGrafana() != null && spec.getGrafana().getIngress() != null) {
      out.add(ingress(tm, spec.getGrafana().getIngress(), MonitorNames.grafanaService(tm, 0), 3000));
    }
    return out;
  }

  private static Ingress ingress(TidbMonitor tm, IngressSpec spec, String service, int port) {
    List<IngressRule> rules = new ArrayList<>();
    for (String host : spec.getHosts() == null ? List.<String>of() : spec.getHosts()) {
      rules.add(new IngressRuleBuilder().withHost(host).withNewHttp()
          .withPaths(new HTTPIngressPathBuilder().withPath("/").withPathType("ImplementationSpecific")
              .withNewBackend().withNewService().withName(service).withNewPort().withNumber(port)
              .endPort().endService().endBackend().build())
          .endHttp().build());
    }
    return new IngressBuilder()
        .withNewMetadata()
            .withName(service)
            .withNamespace(tm.getMetadata().getNamespace())
            .withLabels(MonitorLabels.of(tm.getMetadata().getName()))
            .withAnnotations(spec.getAnnotations())
            .withOwnerReferences(MonitorLabels.ownerRefs(tm))
        .endMetadata()
        .withNewSpec().withTls(spec.getTls()).withRules(rules).endSpec()
        .build();
  }

  private static Service service(TidbMonitor tm, String name, Map<String, String> labels,
      ServiceSpec spec, List<ServicePort> ports, Map<String, String> selector) {
    TidbMonitorSpec ms = tm.getSpec();
    ServiceSpec s = spec == null ? new ServiceSpec() : spec;
    boolean lb = "LoadBalancer".equals(s.getType());
    ServiceBuilder b = new ServiceBuilder()
        .withNewMetadata()
            .withName(name)
            .withNamespace(tm.getMetadata().getNamespace())
            .withLabels(MonitorLabels.combine(labels, s.getLabels(), ms.getLabels()))
            .withAnnotations(nullIfEmpty(MonitorLabels.combine(s.getAnnotations(), ms.getAnnotations())))
            .withOwnerReferences(MonitorLabels.ownerRefs(tm))
        .endMetadata()
        .withNewSpec()
            .withType(s.getType() == null || s.getType().isEmpty() ? null : s.getType())
            .withPorts(ports)
            .withSelector(selector)
            .withLoadBalancerIP(lb ? s.getLoadBalancerIP() : null)
            .withLoadBalancerSourceRanges(lb ? s.getLoadBalancerSourceRanges() : null)
        .endSpec();
    if (Boolean.TRUE.equals(ms.getPreferIPv6())) {
      b.editSpec().withIpFamilyPolicy("PreferDualStack").withIpFamilies("IPv6").endSpec();
    }
    return b.build();
  }

  private static String portName(ServiceSpec spec, String fallback) {
    return spec != null && spec.getPortName() != null ? spec.getPortName() : fallback;
  }

  private static ServicePort port(String name, int port) {
    return new ServicePortBuilder().withName(name).withPort(port).withProtocol("TCP")
        .withTargetPort(new IntOrString(port)).build();
  }

  private static Map<String, String> nullIfEmpty(Map<String, String> m) {
    return m == null || m.isEmpty() ? null : m;
  }

  private static String base64(String s) {
    return Base64.getEncoder().encodeToString((s == null ? "" : s).getBytes(StandardCharsets.UTF_8));
  }

  /** A short digest of a configuration, for the pod template annotation. */
  public static String digest(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The metadata every object of {@code tm} carries: its namespace, the monitor's labels, its owner. */
  static ObjectMeta meta(TidbMonitor tm, String name) {
    return meta(tm, name, MonitorLabels.of(tm.getMetadata().getName()));
  }

  /** As {@link #meta(TidbMonitor, String)}, with other labels. */
  static ObjectMeta meta(TidbMonitor tm, String name, Map<String, String> labels) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(tm.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(MonitorLabels.ownerRefs(tm))
        .build();
  }
}
