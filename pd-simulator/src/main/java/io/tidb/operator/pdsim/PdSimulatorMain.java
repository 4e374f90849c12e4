package io.tidb.operator.pdsim;

import io.tidb.operator.certs.MutualTls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.File;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the PD API simulator as a process, with state derived from a Kubernetes cluster's pods. */
@Command(
    name = "pd-simulator",
    mixinStandardHelpOptions = true,
    description = "Serves PD's HTTP API (and TiDB's /status) for every TidbCluster whose pods "
        + "exist in a Kubernetes cluster.")
public final class PdSimulatorMain implements Callable<Integer> {

  @Option(names = "--port", defaultValue = "12379",
      description = "Port to listen on (0 picks a free one). Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1",
      description = "Address to listen on. Default: ${DEFAULT-VALUE}.")
  String bind;

  @Option(names = "--kubeconfig",
      description = "Kubeconfig file; default: the standard client configuration "
          + "(KUBECONFIG, ~/.kube/config or in-cluster).")
  File kubeconfig;

  @Option(names = "--namespace",
      description = "Watch pods in this namespace only; default: all namespaces.")
  String namespace;

  @Option(names = "--step-interval", defaultValue = "1s",
      converter = DurationConverter.class,
      description = "Advance every cluster this often (e.g. 500ms, 2s; 0s: only on store "
          + "reads). Default: ${DEFAULT-VALUE}.")
  Duration stepInterval;

  @Option(names = "--drain-steps", defaultValue = "3",
      description = "Steps an Offline store takes to become Tombstone. Default: ${DEFAULT-VALUE}.")
  int drainSteps;

  @Option(names = "--regions", defaultValue = "60",
      description = "Regions per cluster once bootstrapped. Default: ${DEFAULT-VALUE}.")
  int regions;

  @Option(names = "--pd-version", defaultValue = "v8.5.7",
      description = "PD binary_version (below v8.5.2 /pd/api/v2/ready answers 404). "
          + "Default: ${DEFAULT-VALUE}.")
  String pdVersion;

  @Option(names = "--tls-dir",
      description = "Serve HTTPS only, with mutual TLS: present <dir>/tls.crt and <dir>/tls.key "
          + "and accept only clients whose certificate <dir>/ca.crt issued (what a TLS cluster's "
          + "PD, TiDB and TiCDC do; see LocalTlsCertificates). Default: plain HTTP.")
  Path tlsDir;

  @Override
  public Integer call() throws Exception {
    SimulationSettings settings = SimulationSettings.defaults()
        .withDrainSteps(drainSteps)
        .withRegionCount(regions)
        .withPdVersion(pdVersion);
    SimulatedClusters clusters = new SimulatedClusters(settings, Clock.systemUTC(), new Random());
    Config config = kubeconfig == null
        ? Config.autoConfigure(null)
        : Config.fromKubeconfig(kubeconfig);
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    KubernetesPodSource pods;
    try {
      pods = KubernetesPodSource.start(client, namespace, clusters);
    } catch (KubernetesClientException e) {
      System.err.println("pd-simulator: cannot watch pods on " + config.getMasterUrl()
          + " (check --kubeconfig): " + e.getMessage());
      client.close();
      return 2;
    }
    PdSimulatorServer server = tlsDir == null
        ? PdSimulatorServer.start(clusters, new InetSocketAddress(bind, port))
        : PdSimulatorServer.startTls(clusters, new InetSocketAddress(bind, port), tls(tlsDir));
    if (!stepInterval.isZero()) {
      server.stepEvery(stepInterval);
    }
    System.out.println("pd-simulator listening on " + server.baseUrl());
    System.out.println("pd-url-template=" + server.pdUrlTemplate());
    System.out.println("pd-member-url-template=" + server.pdMemberUrlTemplate());
    System.out.println("ticdc-url-template=" + server.ticdcUrlTemplate());
    System.out.println("tiproxy-url-template=" + server.tiproxyUrlTemplate());
    System.out.println("pump-url-template=" + server.pumpUrlTemplate());
    System.out.println("tiflash-url-template=" + server.tiflashUrlTemplate());
    System.out.println("tidb-status-url-template=" + server.tidbStatusUrlTemplate());
    System.out.flush();

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      pods.close();
      client.close();
      stopped.countDown();
    }, "pd-sim-shutdown"));
    stopped.await();
    return 0;
  }

  /** The server context of {@code --tls-dir}: its {@code ca.crt}, {@code tls.crt}, {@code tls.key}. */
  static SSLContext tls(Path dir) throws IOException {
    return MutualTls.server(Files.readString(dir.resolve("ca.crt")),
        Files.readString(dir.resolve("tls.crt")), Files.readString(dir.resolve("tls.key")));
  }

  /** Parses "500ms", "2s", "1m" or an ISO-8601 duration. */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      var matcher = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)").matcher(value);
      if (matcher.matches()) {
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          default -> Duration.ofMinutes(amount);
        };
      }
      try {
        return Duration.parse(value);
      } catch (java.time.format.DateTimeParseException e) {
        throw new CommandLine.TypeConversionException(
            "invalid duration \"" + value + "\": use e.g. 500ms, 2s, 1m or PT2S");
      }
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new PdSimulatorMain()).execute(args));
  }
}
