package io.tidb.operator.certs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The subject alternative names a serving certificate must carry.
 *
 * @param dnsNames DNS names, e.g. {@code tidb-webhook.tidb-admin.svc}
 * @param ipAddresses IP addresses in text form, e.g. {@code 127.0.0.1}
 */
public record ServingNames(List<String> dnsNames, List<String> ipAddresses) {

  public static final String DEFAULT_CLUSTER_DOMAIN = "cluster.local";

  public ServingNames {
    dnsNames = List.copyOf(dnsNames);
    ipAddresses = List.copyOf(ipAddresses);
    if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
      throw new IllegalArgumentException("a serving certificate needs at least one name");
    }
  }

  /**
   * The names under which the API server reaches a Service: {@code <svc>}, {@code <svc>.<ns>},
   * {@code <svc>.<ns>.svc}, {@code <svc>.<ns>.svc.<clusterDomain>}, plus {@code localhost} and
   * {@code 127.0.0.1} for local runs.
   */
  public static ServingNames forService(String service, String namespace, String clusterDomain) {
    requireDnsLabel("service", service);
    requireDnsLabel("namespace", namespace);
    List<String> dns = new ArrayList<>();
    dns.add(service);
    dns.add(service + "." + namespace);
    dns.add(service + "." + namespace + ".svc");
    dns.add(service + "." + namespace + ".svc." + clusterDomain);
    dns.add("localhost");
    return new ServingNames(dns, List.of("127.0.0.1"));
  }

  public static ServingNames forService(String service, String namespace) {
    return forService(service, namespace, DEFAULT_CLUSTER_DOMAIN);
  }

  /** The common name to put in the subject: the in-cluster service name, or the first name. */
  public String commonName() {
    return dnsNames.stream()
        .filter(n -> n.endsWith(".svc"))
        .findFirst()
        .orElse(dnsNames.isEmpty() ? ipAddresses.get(0) : dnsNames.get(0));
  }

  /** All names as one order-free set, prefixed {@code DNS:} or {@code IP:}, for comparisons. */
  public Set<String> asSet() {
    Set<String> all = new TreeSet<>();
    dnsNames.forEach(n -> all.add("DNS:" + n));
    ipAddresses.forEach(ip -> all.add("IP:" + ip));
    return all;
  }

  private static void requireDnsLabel(String what, String value) {
    if (value == null || !value.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          what
              + " name "
              + (value == null ? "null" : '"' + value + '"')
              + " is not a DNS-1123 label (lower-case letters, digits and '-', at most 63)");
    }
  }
}
