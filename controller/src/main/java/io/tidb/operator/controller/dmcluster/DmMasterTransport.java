package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.controller.tidbcluster.tls.ClientSecretSource;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTransports;
import io.tidb.operator.controller.tidbcluster.tls.ComponentHosts;
import io.tidb.operator.pd.ComponentHttp;
import java.time.Clock;
import java.time.Duration;

/**
 * How the operator reaches a DMCluster's dm-master: plain HTTP, or with {@code tlsCluster} mutual
 * TLS presenting upstream's {@code <dc>-dm-client-secret} and trusting only a dm-master whose
 * certificate names {@code <dc>-dm-master.<ns>} (the TidbCluster's {@link ClusterTransports},
 * re-reading the Secret every reconcile and rebuilding the client only when it changed).
 */
public final class DmMasterTransport {

  private final ComponentHttp plain;
  private final ClusterTransports tls;

  public DmMasterTransport(ComponentHttp plain, ClientSecretSource secrets, Duration timeout, Clock clock) {
    this.plain = plain;
    this.tls = new ClusterTransports(secrets, timeout, clock);
  }

  /**
   * @throws io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException with
   *     {@code tlsCluster} when the Secret is missing or unusable
   */
  public ComponentHttp of(DmCluster dc) {
    if (!DmConfigFiles.tls(dc)) {
      return plain;
    }
    String name = dc.getMetadata().getName();
    String ns = dc.getMetadata().getNamespace();
    return tls.forDmCluster(ns, name, ComponentHosts.dmMasterService(name, ns));
  }
}
