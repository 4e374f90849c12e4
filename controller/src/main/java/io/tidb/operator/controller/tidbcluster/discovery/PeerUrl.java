package io.tidb.operator.controller.tidbcluster.discovery;

/**
 * A PD pod's advertise peer address as its start script reports it to {@code /new/}:
 * {@code <pod>.<peer service>.<namespace>.svc[.<cluster domain>]:<port>}, optionally with a scheme.
 *
 * @param host the full host, e.g. {@code basic-pd-0.basic-pd-peer.default.svc}
 * @param port the port text, e.g. {@code 2380}
 * @param pod the first host label, the pod name
 * @param peerService the second label, e.g. {@code basic-pd-peer}
 * @param namespace the third label
 */
public record PeerUrl(String host, String port, String pod, String peerService, String namespace) {

  /** {@code host:port}. */
  public String hostPort() {
    return host + ":" + port;
  }

  /**
   * Parses the decoded address, tolerating surrounding whitespace (shell {@code echo} adds a newline)
   * and an {@code http://}/{@code https://} prefix.
   *
   * @throws DiscoveryException (400) when the text is not {@code <pod>.<service>.<ns>.svc...:<port>}
   */
  public static PeerUrl parse(String text) {
    String s = text.strip();
    int scheme = s.indexOf("://");
    if (scheme >= 0) {
      s = s.substring(scheme + 3);
    }
    int colon = s.lastIndexOf(':');
    if (colon <= 0 || colon == s.length() - 1) {
      throw DiscoveryException.badRequest(
          "advertise peer URL \"" + text.strip() + "\" has no port; expected "
              + "<pod>.<peer service>.<namespace>.svc[.<cluster domain>]:<port>");
    }
    String host = s.substring(0, colon);
    String port = s.substring(colon + 1);
    String[] labels = host.split("\\.");
    if (labels.length < 4 || !"svc".equals(labels[3]) || !port.chars().allMatch(Character::isDigit)) {
      throw DiscoveryException.badRequest(
          "advertise peer URL \"" + text.strip() + "\" is malformed; expected "
              + "<pod>.<peer service>.<namespace>.svc[.<cluster domain>]:<port>");
    }
    return new PeerUrl(host, port, labels[0], labels[1], labels[2]);
  }
}
