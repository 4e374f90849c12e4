package io.tidb.operator.controller.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the controller reaches each cluster's PD API and each TiDB server's status port: URL
 * templates with placeholders, so a test or a local run can point the controller at a simulator by
 * configuration alone.
 *
 * <p>Placeholders: {@code {name}} (the TidbCluster's name), {@code {namespace}}, {@code {svc}}
 * (empty, or {@code .svc.<clusterDomain>} when the cluster sets {@code spec.clusterDomain}), and
 * for TiDB {@code {pod}} (the TiDB pod's name).
 *
 * @param pdUrlTemplate base URL of PD's API; default {@value #DEFAULT_PD_URL_TEMPLATE}
 * @param tidbStatusUrlTemplate base URL of one TiDB's status port; default {@value
 *     #DEFAULT_TIDB_STATUS_URL_TEMPLATE}
 * @param pdMemberUrlTemplate base URL of one PD member's own API (its {@code /pd/api/v2/ready}),
 *     with {@code {member}} for the member name; default {@value
 *     #DEFAULT_PD_MEMBER_URL_TEMPLATE}
 * @param ticdcUrlTemplate base URL of one TiCDC server's API, with {@code {pod}} for the TiCDC
 *     pod; default {@value #DEFAULT_TICDC_URL_TEMPLATE}
 * @param tiproxyUrlTemplate base URL of one TiProxy server's API (port 3080), with {@code {pod}};
 *     default {@value #DEFAULT_TIPROXY_URL_TEMPLATE}
 * @param pumpUrlTemplate base URL of one Pump server (port 8250), with {@code {pod}}; default
 *     {@value #DEFAULT_PUMP_URL_TEMPLATE}
 * @param tiflashUrlTemplate base URL of one TiFlash proxy status server (port 20292), with
 *     {@code {pod}}; default {@value #DEFAULT_TIFLASH_URL_TEMPLATE}
 * @param timeout per-request timeout (upstream: 5 s)
 */
public record ComponentUrls(
    String pdUrlTemplate,
    String tidbStatusUrlTemplate,
    String pdMemberUrlTemplate,
    String ticdcUrlTemplate,
    String tiproxyUrlTemplate,
    String pumpUrlTemplate,
    String tiflashUrlTemplate,
    Duration timeout) {

  public static final String DEFAULT_PD_URL_TEMPLATE = "http://{name}-pd.{namespace}{svc}:2379";
  public static final String DEFAULT_TIDB_STATUS_URL_TEMPLATE =
      "http://{pod}.{name}-tidb-peer.{namespace}{svc}:10080";
  public static final String DEFAULT_PD_MEMBER_URL_TEMPLATE =
      "http://{member}.{name}-pd-peer.{namespace}.svc{domain}:2379";
  public static final String DEFAULT_TICDC_URL_TEMPLATE =
      "http://{pod}.{name}-ticdc-peer.{namespace}{svc}:8301";
  public static final String DEFAULT_TIPROXY_URL_TEMPLATE =
      "http://{pod}.{name}-tiproxy-peer.{namespace}{svc}:3080";
  public static final String DEFAULT_PUMP_URL_TEMPLATE =
      "http://{pod}.{name}-pump.{namespace}{svc}:8250";
  public static final String DEFAULT_TIFLASH_URL_TEMPLATE =
      "http://{pod}.{name}-tiflash-peer.{namespace}{svc}:20292";

  private static final List<String> PD_PLACEHOLDERS = List.of("{name}", "{namespace}", "{svc}");
  private static final List<String> TIDB_PLACEHOLDERS =
      List.of("{name}", "{namespace}", "{svc}", "{pod}");
  private static final List<String> MEMBER_PLACEHOLDERS =
      List.of("{name}", "{namespace}", "{svc}", "{domain}", "{member}");

  public ComponentUrls {
    Objects.requireNonNull(timeout, "timeout");
    checkTemplate("--pd-url-template", pdUrlTemplate, PD_PLACEHOLDERS);
    checkTemplate("--tidb-status-url-template", tidbStatusUrlTemplate, TIDB_PLACEHOLDERS);
    checkTemplate("--pd-member-url-template", pdMemberUrlTemplate, MEMBER_PLACEHOLDERS);
    checkTemplate("--ticdc-url-template", ticdcUrlTemplate, TIDB_PLACEHOLDERS);
    checkTemplate("--tiproxy-url-template", tiproxyUrlTemplate, TIDB_PLACEHOLDERS);
    checkTemplate("--pump-url-template", pumpUrlTemplate, TIDB_PLACEHOLDERS);
    checkTemplate("--tiflash-url-template", tiflashUrlTemplate, TIDB_PLACEHOLDERS);
  }

  /** Every template but TiFlash's given, TiFlash's at its default. */
  public ComponentUrls(
      String pdUrlTemplate, String tidbStatusUrlTemplate, String pdMemberUrlTemplate,
      String ticdcUrlTemplate, String tiproxyUrlTemplate, String pumpUrlTemplate,
      Duration timeout) {
    this(pdUrlTemplate, tidbStatusUrlTemplate, pdMemberUrlTemplate, ticdcUrlTemplate,
        tiproxyUrlTemplate, pumpUrlTemplate, DEFAULT_TIFLASH_URL_TEMPLATE, timeout);
  }

  /** PD, TiDB, PD member and TiCDC templates given, TiProxy's and Pump's at their defaults. */
  public ComponentUrls(
      String pdUrlTemplate, String tidbStatusUrlTemplate, String pdMemberUrlTemplate,
      String ticdcUrlTemplate, Duration timeout) {
    this(pdUrlTemplate, tidbStatusUrlTemplate, pdMemberUrlTemplate, ticdcUrlTemplate,
        DEFAULT_TIPROXY_URL_TEMPLATE, DEFAULT_PUMP_URL_TEMPLATE, timeout);
  }

  /** PD, TiDB and PD member templates given, the TiCDC template at its default. */
  public ComponentUrls(
      String pdUrlTemplate, String tidbStatusUrlTemplate, String pdMemberUrlTemplate,
      Duration timeout) {
    this(pdUrlTemplate, tidbStatusUrlTemplate, pdMemberUrlTemplate, DEFAULT_TICDC_URL_TEMPLATE,
        timeout);
  }

  /** PD and TiDB templates given, the PD member template at its default. */
  public ComponentUrls(String pdUrlTemplate, String tidbStatusUrlTemplate, Duration timeout) {
    this(pdUrlTemplate, tidbStatusUrlTemplate, DEFAULT_PD_MEMBER_URL_TEMPLATE, timeout);
  }

  public static ComponentUrls defaults() {
    return new ComponentUrls(
        DEFAULT_PD_URL_TEMPLATE, DEFAULT_TIDB_STATUS_URL_TEMPLATE, Duration.ofSeconds(5));
  }

  /**
   * One PD member's own URL. {@code {domain}} is empty or {@code .<clusterDomain>} (the member's
   * host always has {@code .svc}).
   */
  public URI pdMemberUrl(String namespace, String name, String clusterDomain, String member) {
    String domain = clusterDomain == null || clusterDomain.isBlank() ? "" : "." + clusterDomain;
    return URI.create(
        fill(
            pdMemberUrlTemplate,
            namespace,
            name,
            clusterDomain,
            Map.of("{member}", member, "{domain}", domain)));
  }

  /** PD's base URL for one cluster. */
  public URI pdUrl(String namespace, String name, String clusterDomain) {
    return URI.create(fill(pdUrlTemplate, namespace, name, clusterDomain, Map.of()));
  }

  /**
   * PD's base URL through its headless Service: the PD template with {@code {name}-pd-peer.} for
   * {@code {name}-pd.} (the default becomes {@code http://{name}-pd-peer.{namespace}{svc}:2379});
   * a template that does not name the Service that way (a simulator's) is used as it is.
   */
  public URI pdPeerUrl(String namespace, String name, String clusterDomain) {
    return URI.create(fill(pdUrlTemplate.replace("{name}-pd.", "{name}-pd-peer."), namespace,
        name, clusterDomain, Map.of()));
  }

  /** One TiCDC server's base URL. */
  public URI ticdcUrl(String namespace, String name, String clusterDomain, String pod) {
    return URI.create(
        fill(ticdcUrlTemplate, namespace, name, clusterDomain, Map.of("{pod}", pod)));
  }

  /** One TiProxy server's API base URL. */
  public URI tiproxyUrl(String namespace, String name, String clusterDomain, String pod) {
    return URI.create(
        fill(tiproxyUrlTemplate, namespace, name, clusterDomain, Map.of("{pod}", pod)));
  }

  /** One Pump server's base URL. */
  public URI pumpUrl(String namespace, String name, String clusterDomain, String pod) {
    return URI.create(
        fill(pumpUrlTemplate, namespace, name, clusterDomain, Map.of("{pod}", pod)));
  }

  /** One TiFlash proxy status server's base URL. */
  public URI tiflashUrl(String namespace, String name, String clusterDomain, String pod) {
    return URI.create(
        fill(tiflashUrlTemplate, namespace, name, clusterDomain, Map.of("{pod}", pod)));
  }

  /** One TiDB server's status base URL. */
  public URI tidbStatusUrl(String namespace, String name, String clusterDomain, String pod) {
    return URI.create(
        fill(tidbStatusUrlTemplate, namespace, name, clusterDomain, Map.of("{pod}", pod)));
  }

  private static String fill(
      String template,
      String namespace,
      String name,
      String clusterDomain,
      Map<String, String> extra) {
    String svc = clusterDomain == null || clusterDomain.isBlank() ? "" : ".svc." + clusterDomain;
    String url =
        template.replace("{name}", name).replace("{namespace}", namespace).replace("{svc}", svc);
    for (Map.Entry<String, String> e : extra.entrySet()) {
      url = url.replace(e.getKey(), e.getValue());
    }
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static void checkTemplate(String flag, String template, List<String> allowed) {
    Objects.requireNonNull(template, flag);
    String rest = template;
    for (String p : allowed) {
      rest = rest.replace(p, "");
    }
    int open = rest.indexOf('{');
    if (open >= 0) {
      int close = rest.indexOf('}', open);
      String unknown = close > open ? rest.substring(open, close + 1) : rest.substring(open);
      throw new IllegalArgumentException(
          flag
              + ": Unsupported value: \""
              + template
              + "\": unknown placeholder "
              + unknown
              + "; allowed: "
              + String.join(", ", allowed));
    }
    URI uri;
    try {
      uri =
          URI.create(
              fill(
                  template,
                  "ns",
                  "tc",
                  "",
                  Map.of("{pod}", "tc-tidb-0", "{member}", "tc-pd-0", "{domain}", "")));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          flag + ": Invalid value: \"" + template + "\": not a URL: " + e.getMessage());
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      throw new IllegalArgumentException(
          flag + ": Invalid value: \"" + template + "\": must start with http:// or https://");
    }
  }
}
