package io.tidb.operator.controller.tidbcluster.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.certs.MutualTls;
import io.tidb.operator.pd.ComponentHttp;
import io.tidb.operator.pd.PdClientOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS clients of each TLS cluster, made from its {@code <tc>-cluster-client-secret}. The
 * Secret is read on every reconcile; the clients are rebuilt only when its content changed (a
 * rotated certificate is used from the next reconcile on, without a restart), and kept otherwise
 * so connections are reused.
 */
public final class ClusterTransports {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterTransports.class);

  /**
   * The clients of one cluster: one per component whose certificate is checked, each trusting
   * only a server whose certificate names that component's Service.
   *
   * @param pd checks PD's certificate names {@code names.pd()}
   * @param tidb checks TiDB's certificate names {@code names.tidb()}
   * @param ticdc checks TiCDC's certificate names {@code names.ticdc()}
   * @param tiproxy checks TiProxy's certificate names {@code names.tiproxy()}
   * @param tiflash checks TiFlash's certificate names {@code names.tiflash()}
   * @param pumps one client per pump pod, each checking the pod's certificate names {@code
   *     names.pumpPod(pod)}
   */
  public record Transport(String fingerprint, ServerNames names, ComponentHttp pd, ComponentHttp tidb,
      ComponentHttp ticdc, ComponentHttp tiproxy, ComponentHttp tiflash, PerPodClients pumps) {

    /** The client for pump pod {@code pod}. */
    public ComponentHttp pump(String pod) {
      return pumps.forPod(pod);
    }
  }

  /**
   * Clients of one component whose pods each present their own name: made on a pod's first call
   * (checking the name {@code hostOf} gives it) and kept with the transport they belong to.
   */
  public static final class PerPodClients {
    private final Function<String, String> hostOf;
    private final Function<String, ComponentHttp> clientFor;
    private final Map<String, ComponentHttp> byPod = new ConcurrentHashMap<>();

    PerPodClients(Function<String, String> hostOf, Function<String, ComponentHttp> clientFor) {
      this.hostOf = hostOf;
      this.clientFor = clientFor;
    }

    ComponentHttp forPod(String pod) {
      return byPod.computeIfAbsent(pod, p -> clientFor.apply(hostOf.apply(p)));
    }
  }

  private final ClientSecretSource secrets;
  private final Duration connectTimeout;
  private final Clock clock;
  private final Map<String, Transport> byCluster = new ConcurrentHashMap<>();
  private final Map<String, DmTransport> byDmCluster = new ConcurrentHashMap<>();
  private final Map<String, PeerTransport> byPdPeer = new ConcurrentHashMap<>();

  /** The client of one PD member of another TidbCluster, checking its certificate names it. */
  private record PeerTransport(String fingerprint, ComponentHttp pd) {}

  /** The client of one DMCluster's dm-master, checking its certificate names {@code masterHost}. */
  private record DmTransport(String fingerprint, String masterHost, ComponentHttp master) {}

  public ClusterTransports(ClientSecretSource secrets, Duration connectTimeout, Clock clock) {
    this.secrets = secrets;
    this.connectTimeout = connectTimeout;
    this.clock = clock;
  }

  /**
   * The clients for cluster {@code namespace/name}, whose servers must present certificates for
   * {@code names}.
   *
   * @throws ClusterTlsUnavailableException when the Secret is missing or unusable
   */
  public Transport forCluster(String namespace, String name, ServerNames names) {
    String secretName = ClusterClientCertificate.secretName(name);
    ClusterClientCertificate cert = certificate(namespace, secretName, byCluster, namespace + "/" + name);
    return byCluster.compute(namespace + "/" + name, (key, current) -> {
      if (current != null && current.fingerprint().equals(cert.fingerprint())
          && current.names().equals(names)) {
        return current;
      }
      logLoaded(key, secretName, cert, current != null);
      return new Transport(cert.fingerprint(), names, client(cert, names.pd()),
          client(cert, names.tidb()), client(cert, names.ticdc()),
          client(cert, names.tiproxy()), client(cert, names.tiflash()),
          new PerPodClients(names::pumpPod, host -> client(cert, host)));
    });
  }

  /**
   * The client cluster {@code namespace/name} reads PD through when its PD Service does not answer:
   * a PD member of another TidbCluster, whose certificate must name its own host {@code
   * memberHost} (the host of its client URL, e.g. {@code other-pd-0.other-pd-peer.ns.svc}).
   *
   * @throws ClusterTlsUnavailableException when the Secret is missing or unusable
   */
  public ComponentHttp pdPeer(String namespace, String name, String memberHost) {
    String secretName = ClusterClientCertificate.secretName(name);
    ClusterClientCertificate cert =
        certificate(namespace, secretName, byPdPeer, namespace + "/" + name + "@" + memberHost);
    return byPdPeer.compute(namespace + "/" + name + "@" + memberHost, (k, current) ->
        current != null && current.fingerprint().equals(cert.fingerprint())
            ? current
            : new PeerTransport(cert.fingerprint(), client(cert, memberHost))).pd();
  }

  /**
   * The client for DMCluster {@code namespace/name}'s dm-master, made from upstream's {@code
   * <dc>-dm-client-secret}, trusting only a dm-master whose certificate names {@code masterHost}.
   *
   * @throws ClusterTlsUnavailableException when the Secret is missing or unusable
   */
  public ComponentHttp forDmCluster(String namespace, String name, String masterHost) {
    String secretName = dmClientSecretName(name);
    String key = namespace + "/" + name;
    ClusterClientCertificate cert = certificate(namespace, secretName, byDmCluster, key);
    return byDmCluster.compute(key, (k, current) -> {
      if (current != null && current.fingerprint().equals(cert.fingerprint())
          && current.masterHost().equals(masterHost)) {
        return current;
      }
      logLoaded("dm:" + k, secretName, cert, current != null);
      return new DmTransport(cert.fingerprint(), masterHost, client(cert, masterHost));
    }).master();
  }

  /** Upstream's client certificate Secret of a DMCluster: {@code <dc>-dm-client-secret}. */
  public static String dmClientSecretName(String dc) {
    return dc + "-dm-client-secret";
  }

  private ClusterClientCertificate certificate(
      String namespace, String secretName, Map<String, ?> cache, String key) {
    Optional<Secret> secret = secrets.get(namespace, secretName);
    if (secret.isEmpty()) {
      cache.remove(key);
      throw new ClusterTlsUnavailableException(List.of("spec.tlsCluster.enabled is true but the "
          + "Secret " + namespace + "/" + secretName + " (ca.crt, tls.crt, tls.key) does not exist"));
    }
    ClusterClientCertificate.Decoded decoded =
        ClusterClientCertificate.decode(secretName, secret.get().getData(), clock.instant());
    if (!decoded.valid()) {
      cache.remove(key);
      throw new ClusterTlsUnavailableException(decoded.problems());
    }
    return decoded.certificate();
  }

  private static void logLoaded(String key, String secretName, ClusterClientCertificate cert, boolean reloaded) {
    LOG.info("event=cluster_tls_loaded cluster={} secret={} subject=\"{}\" notAfter={} "
            + "reloaded={}", key, secretName,
        cert.chain().get(0).getSubjectX500Principal().getName(),
        cert.chain().get(0).getNotAfter().toInstant(), reloaded);
  }

  private ComponentHttp client(ClusterClientCertificate cert, String serverHost) {
    return PdClientOptions.defaults()
        .withTimeouts(connectTimeout, connectTimeout)
        .withSslContext(MutualTls.client(cert.ca(), cert.chain(), cert.key(), serverHost))
        .newHttpClient();
  }
}
