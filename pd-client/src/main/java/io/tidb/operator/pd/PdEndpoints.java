package io.tidb.operator.pd;

import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the operator reaches PD and TiDB for a TidbCluster, as URL templates with the
 * placeholders {@code {namespace}}, {@code {name}} (the TidbCluster), {@code {member}} (a PD
 * member name) and {@code {pod}} (a TiDB pod name).
 *
 * <p>The defaults are upstream's in-cluster addresses. Overrides point the operator elsewhere,
 * e.g. at the PD simulator: {@code http://127.0.0.1:12379/clusters/{namespace}/{name}}.
 *
 * @param pdUrl the PD service
 * @param pdMemberUrl one PD member (used for {@code /pd/api/v2/ready})
 * @param tidbStatusUrl one TiDB server's status port (the client appends {@code /status})
 */
public record PdEndpoints(String pdUrl, String pdMemberUrl, String tidbStatusUrl) {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z]+)}");

  public PdEndpoints {
    validate("pdUrl", pdUrl, Set.of("namespace", "name"));
    validate("pdMemberUrl", pdMemberUrl, Set.of("namespace", "name", "member"));
    validate("tidbStatusUrl", tidbStatusUrl, Set.of("namespace", "name", "pod"));
  }

  /** Upstream's addresses: {@code <tc>-pd.<ns>:2379}, members and TiDB via the peer services. */
  public static PdEndpoints inCluster(boolean tls) {
    String scheme = tls ? "https" : "http";
    return new PdEndpoints(
        scheme + "://{name}-pd.{namespace}:2379",
        scheme + "://{member}.{name}-pd-peer.{namespace}.svc:2379",
        scheme + "://{pod}.{name}-tidb-peer.{namespace}:10080");
  }

  public URI pd(String namespace, String name) {
    return expand(pdUrl, Map.of("namespace", namespace, "name", name));
  }

  public URI pdMember(String namespace, String name, String member) {
    return expand(pdMemberUrl, Map.of("namespace", namespace, "name", name, "member", member));
  }

  public URI tidbStatus(String namespace, String name, String pod) {
    return expand(tidbStatusUrl, Map.of("namespace", namespace, "name", name, "pod", pod));
  }

  private static URI expand(String template, Map<String, String> values) {
    Matcher matcher = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      matcher.appendReplacement(out, Matcher.quoteReplacement(values.get(matcher.group(1))));
    }
    matcher.appendTail(out);
    return URI.create(out.toString());
  }

  private static void validate(String field, String template, Set<String> allowed) {
    if (template == null || !(template.startsWith("http://") || template.startsWith("https://"))) {
      throw new IllegalArgumentException(
          field + ": invalid value \"" + template + "\": must be an http:// or https:// URL");
    }
    Matcher matcher = PLACEHOLDER.matcher(template);
    while (matcher.find()) {
      if (!allowed.contains(matcher.group(1))) {
        throw new IllegalArgumentException(field + ": invalid value \"" + template
            + "\": unknown placeholder {" + matcher.group(1) + "}, allowed: "
            + new TreeSet<>(allowed));
      }
    }
    String sample = PLACEHOLDER.matcher(template).replaceAll("x");
    try {
      URI.create(sample);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          field + ": invalid value \"" + template + "\": not a URL: " + e.getMessage(), e);
    }
  }
}
