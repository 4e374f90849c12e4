package io.tidb.operator.controller.initializer;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * How the TidbInitializer controller builds Jobs.
 *
 * @param image the operator's own image (the discovery image), run in initializer mode
 * @param tidbAddressTemplate where the Job reaches a cluster's TiDB over the MySQL protocol, {@code
 *     host:port} with placeholders {@code {name}}, {@code {namespace}}, {@code {svc}} (empty, or
 *     {@code .svc.<clusterDomain>}) and {@code {port}} (the cluster's TiDB service port, 4000 by
 *     default); default {@value #DEFAULT_TIDB_ADDRESS_TEMPLATE}
 */
public record InitializerSettings(String image, String tidbAddressTemplate) {

  public static final String DEFAULT_TIDB_ADDRESS_TEMPLATE = "{name}-tidb.{namespace}{svc}:{port}";

  private static final List<String> PLACEHOLDERS = List.of("{name}", "{namespace}", "{svc}", "{port}");

  public InitializerSettings {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(tidbAddressTemplate, "tidbAddressTemplate");
    String rest = tidbAddressTemplate;
    for (String p : PLACEHOLDERS) {
      rest = rest.replace(p, "");
    }
    if (rest.contains("{") || tidbAddressTemplate.lastIndexOf(':') <= 0) {
      throw new IllegalArgumentException(
          "--tidb-address-template: Invalid value: \"" + tidbAddressTemplate
              + "\": must be host:port using only the placeholders " + String.join(", ", PLACEHOLDERS));
    }
  }

  /** The {@code host} and {@code port} the Job connects to for one cluster. */
  public HostPort tidbAddress(String namespace, String cluster, String clusterDomain, int port) {
    String svc = clusterDomain == null || clusterDomain.isBlank() ? "" : ".svc." + clusterDomain;
    String filled =
        tidbAddressTemplate
            .replace("{name}", cluster)
            .replace("{namespace}", namespace)
            .replace("{svc}", svc)
            .replace("{port}", Integer.toString(port));
    int colon = filled.lastIndexOf(':');
    return new HostPort(filled.substring(0, colon), Integer.parseInt(filled.substring(colon + 1)));
  }

  /** The cluster's TiDB MySQL endpoint, unresolved. */
  public InetSocketAddress tidbAddress(TidbCluster tc) {
    HostPort hp =
        tidbAddress(
            tc.getMetadata().getNamespace(),
            tc.getMetadata().getName(),
            tc.getSpec().getClusterDomain(),
            InitializerJob.tidbPort(tc));
    return InetSocketAddress.createUnresolved(hp.host(), hp.port());
  }

  /** A TiDB MySQL endpoint. */
  public record HostPort(String host, int port) {}
}
