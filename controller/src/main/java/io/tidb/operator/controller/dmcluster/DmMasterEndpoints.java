package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.dmapi.DmMasterClient;
import io.tidb.operator.pd.ComponentHttp;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How the controller reaches each DMCluster's dm-master API: URL templates with {@code {name}}
 * (the DMCluster), {@code {namespace}} and, for one member, {@code {member}} (its pod name), so a
 * test or a local run points the controller at a simulator by configuration alone.
 */
public record DmMasterEndpoints(String serviceTemplate, String memberTemplate, Duration timeout) {

  public static final String DEFAULT_SERVICE_TEMPLATE = "http://{name}-dm-master.{namespace}:8261";
  public static final String DEFAULT_MEMBER_TEMPLATE =
      "http://{member}.{name}-dm-master-peer.{namespace}:8261";

  public DmMasterEndpoints {
    Objects.requireNonNull(timeout, "timeout");
    if (serviceTemplate == null || !serviceTemplate.contains("{name}")) {
      throw new IllegalArgumentException("--dm-master-url-template: invalid value \"" + serviceTemplate
          + "\": must contain {name}");
    }
    if (memberTemplate == null || !memberTemplate.contains("{member}")) {
      throw new IllegalArgumentException("--dm-master-member-url-template: invalid value \"" + memberTemplate
          + "\": must contain {member}");
    }
  }

  public static DmMasterEndpoints defaults() {
    return new DmMasterEndpoints(DEFAULT_SERVICE_TEMPLATE, DEFAULT_MEMBER_TEMPLATE, DmMasterClient.DEFAULT_TIMEOUT);
  }

  public URI service(String namespace, String name) {
    return URI.create(serviceTemplate.replace("{namespace}", namespace).replace("{name}", name));
  }

  public URI member(String namespace, String name, String member) {
    return URI.create(memberTemplate.replace("{namespace}", namespace).replace("{name}", name)
        .replace("{member}", member));
  }

  /** A client of the dm-master Service of one cluster; with {@code tls} an {@code http} URL becomes {@code https}. */
  public DmMasterClient serviceClient(ComponentHttp http, String namespace, String name, boolean tls) {
    return new DmMasterClient(http, scheme(service(namespace, name), tls), timeout);
  }

  /** A client of one dm-master member; with {@code tls} an {@code http} URL becomes {@code https}. */
  public DmMasterClient memberClient(ComponentHttp http, String namespace, String name, String member, boolean tls) {
    return new DmMasterClient(http, scheme(member(namespace, name, member), tls), timeout);
  }

  /** A TLS cluster is never called in plain text. */
  static URI scheme(URI url, boolean tls) {
    return tls && "http".equals(url.getScheme())
        ? URI.create("https" + url.toString().substring("http".length())) : url;
  }
}
