package io.tidb.operator.controller.tidbcluster.discovery;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.certs.MutualTls;
import io.tidb.operator.controller.tidbcluster.tls.ClientSecretSource;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTransports;
import io.tidb.operator.controller.tidbcluster.tls.ComponentHosts;
import io.tidb.operator.dmapi.DmMasterClient;
import io.tidb.operator.pd.ComponentHttp;
import io.tidb.operator.pd.PdClientOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The discovery mode of the operator image: its entry point run with the {@code discovery}
 * subcommand (see {@link DiscoveryObjects#args()}). Serves one TidbCluster's discovery API and
 * dashboard proxy until SIGTERM.
 *
 * <p>The cluster and namespace default to the env the discovery Deployment sets
 * ({@value DiscoveryObjects#ENV_CLUSTER}, {@value DiscoveryObjects#ENV_NAMESPACE}). The TidbCluster
 * is read through the Kubernetes API with the pod's service account (in-cluster config, or
 * {@code KUBECONFIG}); PD is reached at {@code http://<tc>-pd.<ns>:2379} unless {@code --pd-url}
 * says otherwise. With cluster TLS ({@value DiscoveryObjects#ENV_TLS}{@code =true}) PD is reached
 * at {@code https://} with the client certificate of {@code <tc>-cluster-client-secret}, which
 * the discovery Role may read by name. With discovery mTLS ({@value DiscoveryObjects#ENV_MTLS}{@code
 * =true}) the discovery API is served over HTTPS requiring client certificates of the CA of the
 * certificate under {@code --tls-dir}.
 *
 * <p>Usable from the launcher as {@code new CommandLine(new DiscoveryMain()).execute(args)} or as a
 * picocli subcommand.
 */
@Command(name = DiscoveryObjects.MODE, mixinStandardHelpOptions = true,
    description = "Serve the PD discovery API of one TidbCluster (/new/<peer>, /verify/<pd>) and the PD dashboard proxy.")
public final class DiscoveryMain implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(DiscoveryMain.class);

  @Spec CommandSpec spec;

  @Option(names = "--tc-name", defaultValue = "${env:" + DiscoveryObjects.ENV_CLUSTER + "}",
      description = "TidbCluster name (default: env " + DiscoveryObjects.ENV_CLUSTER + ")")
  String cluster;

  @Option(names = "--namespace", defaultValue = "${env:" + DiscoveryObjects.ENV_NAMESPACE + "}",
      description = "TidbCluster namespace (default: env " + DiscoveryObjects.ENV_NAMESPACE + ")")
  String namespace;

  @Option(names = "--port", defaultValue = "10261", description = "discovery API port (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--proxy-port", defaultValue = "10262", description = "dashboard proxy port (default: ${DEFAULT-VALUE})")
  int proxyPort;

  @Option(names = "--bind", defaultValue = "0.0.0.0", description = "address to listen on (default: ${DEFAULT-VALUE})")
  String bind;

  @Option(names = "--tls-dir", defaultValue = DiscoveryObjects.DISCOVERY_TLS_DIR,
      description = "with env " + DiscoveryObjects.ENV_MTLS + "=true, the directory of the discovery "
          + "API's certificate (ca.crt, tls.crt, tls.key) (default: ${DEFAULT-VALUE})")
  Path tlsDir;

  @Option(names = "--pd-url", description = "PD client URL (default: http://<tc>-pd.<namespace>:2379)")
  URI pdUrl;

  public static void main(String[] args) {
    System.exit(new CommandLine(new DiscoveryMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (isBlank(cluster) || isBlank(namespace)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--tc-name and --namespace are required (or env " + DiscoveryObjects.ENV_CLUSTER + " and "
              + DiscoveryObjects.ENV_NAMESPACE + "); got tc-name=" + cluster + " namespace=" + namespace);
    }
    boolean tls = "true".equals(System.getenv(DiscoveryObjects.ENV_TLS));
    URI pd = pdUrl != null ? pdUrl
        : URI.create((tls ? "https" : "http") + "://" + cluster + "-pd." + namespace + ":2379");
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      Function<String, ComponentHttp> pdHttpForHost = pdHttpForHost(
          (ns, name) -> Optional.ofNullable(client.secrets().inNamespace(ns).withName(name).get()),
          namespace, cluster, tls);
      Supplier<ComponentHttp> pdHttp = pdServiceHttp(pdHttpForHost, namespace, cluster);
      DiscoveryService service = new DiscoveryService(
          () -> {
            TidbCluster tc = client.resources(TidbCluster.class).inNamespace(namespace).withName(cluster).get();
            if (tc == null) {
              throw DiscoveryException.unavailable("TidbCluster " + namespace + "/" + cluster + " not found", null);
            }
            return ClusterViews.of(tc);
          },
          new PdMembersReader(
              Optional.ofNullable(pdUrl).map(url -> PdMembersReader.override(url,
                  ComponentHosts.pdService(cluster, namespace, null))),
              pdHttpForHost,
              PdClientOptions.DEFAULT_TIMEOUT));
      DmDiscoveryService dm = dmDiscovery(client, namespace, cluster, DiscoveryMain::dmMasterUrl);
      CountDownLatch stopped = new CountDownLatch(1);
      boolean mtls = "true".equals(System.getenv(DiscoveryObjects.ENV_MTLS));
      try (DiscoveryProcess process = DiscoveryProcess.start(
          new InetSocketAddress(bind, port), new InetSocketAddress(bind, proxyPort), pd, pdHttp,
          service, dm, mtls ? Optional.of(apiTls(tlsDir)) : Optional.empty())) {
        Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "discovery-shutdown"));
        LOG.info("event=discovery_started cluster={}/{} apiPort={} proxyPort={} pd={} tls={} "
                + "mtls={}", namespace, cluster, process.apiPort(), process.proxyPort(), pd, tls,
            mtls);
        stopped.await();
        LOG.info("event=discovery_stopping cluster={}/{}", namespace, cluster);
      }
    }
    return 0;
  }

  /**
   * dm-master's discovery for the DMCluster {@code <name>} (the {@code <dc>-dm-discovery}
   * Deployment runs this process with {@code TC_NAME=<dc>}, as upstream's): the DMCluster is read
   * by name, dm-master reached at {@code <scheme>://<dc>-dm-master.<ns>:8261}, with {@code
   * tlsCluster} presenting the client certificate of {@code <dc>-dm-client-secret}.
   *
   * @param client reads the DMCluster and the Secret (the discovery pod's service account)
   * @param masterUrl where dm-master of the cluster is reached ({@link #dmMasterUrl} in a cluster)
   */
  public static DmDiscoveryService dmDiscovery(KubernetesClient client, String namespace, String name,
      java.util.function.Function<DmBootstrapRules.DmClusterView, URI> masterUrl) {
    ClusterTransports transports = new ClusterTransports(
        (ns, secret) -> Optional.ofNullable(client.secrets().inNamespace(ns).withName(secret).get()),
        PdClientOptions.DEFAULT_TIMEOUT, Clock.systemUTC());
    ComponentHttp plain = PdClientOptions.defaults().newHttpClient();
    return new DmDiscoveryService(namespace,
        () -> {
          DmCluster dc = client.resources(DmCluster.class).inNamespace(namespace).withName(name).get();
          if (dc == null) {
            throw DiscoveryException.unavailable("DMCluster " + namespace + "/" + name + " not found", null);
          }
          return DmClusterViews.of(dc);
        },
        view -> {
          boolean tls = "https".equals(view.scheme());
          ComponentHttp http = tls ? transports.forDmCluster(namespace, name, ComponentHosts.dmMasterService(name, namespace)) : plain;
          return new DmMasterClient(http, masterUrl.apply(view), DmMasterClient.DEFAULT_TIMEOUT).masters();
        });
  }

  /** {@code <scheme>://<dc>-dm-master.<ns>:8261}, upstream's dm-master client URL. */
  static URI dmMasterUrl(DmBootstrapRules.DmClusterView view) {
    return URI.create(view.scheme() + "://" + view.name() + "-dm-master." + view.namespace() + ":8261");
  }

  /**
   * How discovery reaches PD: plain HTTP, or with cluster TLS the client certificate of the
   * Secret {@code <tc>-cluster-client-secret}, read by name through the API on every call (the
   * clients are rebuilt only when it changed), trusting only a PD whose certificate names
   * {@code <tc>-pd.<ns>}.
   */
  static Supplier<ComponentHttp> pdHttp(
      ClientSecretSource secrets, String namespace, String cluster, boolean tls) {
    return pdServiceHttp(pdHttpForHost(secrets, namespace, cluster, tls), namespace, cluster);
  }

  /** The client of {@link #pdHttpForHost} for the PD Service {@code <tc>-pd.<ns>}. */
  private static Supplier<ComponentHttp> pdServiceHttp(
      Function<String, ComponentHttp> pdHttpForHost, String namespace, String cluster) {
    String host = ComponentHosts.pdService(cluster, namespace, null);
    return () -> pdHttpForHost.apply(host);
  }

  /**
   * How discovery lists PD's members wherever it asks ({@link ClusterView#pdSources}): plain
   * HTTP, or with cluster TLS the client certificate of {@code <tc>-cluster-client-secret},
   * trusting only a PD whose certificate names the host asked (the PD Service, the referenced
   * cluster's, or a peer member's own host).
   */
  static Function<String, ComponentHttp> pdHttpForHost(
      ClientSecretSource secrets, String namespace, String cluster, boolean tls) {
    if (!tls) {
      ComponentHttp plain = PdClientOptions.defaults().newHttpClient();
      return host -> plain;
    }
    ClusterTransports transports =
        new ClusterTransports(secrets, PdClientOptions.DEFAULT_TIMEOUT, Clock.systemUTC());
    return host -> transports.pdPeer(namespace, cluster, host);
  }

  /**
   * The discovery API's server context with {@code spec.tlsCluster.enableDiscoveryMTLS}, as
   * upstream's: it presents {@code tls.crt}/{@code tls.key} of the mounted {@code
   * <tc>-discovery-cluster-secret} and accepts only clients whose certificate chains to its
   * {@code ca.crt}.
   *
   * @throws IllegalArgumentException naming the directory and the file when one cannot be used
   */
  static SSLContext apiTls(Path dir) {
    try {
      return MutualTls.server(read(dir, "ca.crt"), read(dir, "tls.crt"), read(dir, "tls.key"));
    } catch (RuntimeException e) {
      if (e instanceof IllegalArgumentException && e.getMessage().startsWith(dir.toString())) {
        throw e;
      }
      throw new IllegalArgumentException(dir + " does not hold a usable certificate: " + e.getMessage(), e);
    }
  }

  private static String read(Path dir, String file) {
    try {
      return Files.readString(dir.resolve(file));
    } catch (IOException e) {
      throw new IllegalArgumentException(dir.resolve(file) + " cannot be read (the Secret must "
          + "hold ca.crt, tls.crt and tls.key): " + e, e);
    }
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
