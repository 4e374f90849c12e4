package io.tidb.operator.controller.tidbcluster.tls;

import java.util.List;

/**
 * A TLS cluster's client certificate Secret is missing or unusable: the operator cannot talk to
 * the cluster and must not act on it until the Secret is fixed.
 */
public final class ClusterTlsUnavailableException extends RuntimeException {

  private final List<String> problems;

  public ClusterTlsUnavailableException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
