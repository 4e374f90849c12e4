package io.tidb.operator.controller.tidbcluster.ticdc;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import java.util.Optional;

/**
 * The TiCDC start script, upstream's, in the version {@code spec.startScriptVersion} chooses: the
 * shared prelude, then {@code /cdc server} with {@code
 * --addr=0.0.0.0:8301}, {@code --advertise-addr=<pod>.<tc>-ticdc-peer.<ns>.svc[.<domain>]:8301},
 * {@code --gc-ttl}, {@code --log-file}, {@code --log-level} (from {@code spec.ticdc.config}, else
 * 86400, {@code /dev/stderr}, {@code info}), {@code --pd=<scheme>://<tc>-pd:2379} (the
 * referenced cluster's PD for a heterogeneous cluster without PD; with {@code spec.acrossK8s}, the
 * endpoints discovery's {@code /verify/} answers, see {@link AcrossK8sPd}); with cluster
 * TLS {@code --ca/--cert/--key}; and {@code --config=/etc/ticdc/ticdc.toml} when the config has
 * settings other than those three.
 *
 * <p>That is upstream's v2 script, so the unset version and v2 render the same text; with v2's
 * {@code PreferPDAddressesOverDiscovery}, {@code --pd=<spec.pdAddresses as written>} without asking discovery. v1, as upstream's, has no
 * debug mode (it starts the server whatever {@code runmode} says) and puts the TLS flags before
 * {@code --pd}.
 *
 * @param advertiseHost the pod's host name with {@code ${POD_NAME}} for the pod
 * @param pdUrl PD's client URL
 * @param acrossK8s the discovery lookup replacing {@code pdUrl}, with {@code spec.acrossK8s}
 * @param version {@code spec.startScriptVersion} and its feature flags
 */
record TicdcStartScript(
    String advertiseHost, int gcTtl, String logFile, String logLevel, String pdUrl, boolean tls,
    boolean configFile, Optional<AcrossK8sPd> acrossK8s, StartScriptVersion version) {

  static final String BINARY = "/cdc";
  static final String CONFIG_FILE = "/etc/ticdc/ticdc.toml";

  String render() {
    return switch (version.version()) {
      case DEFAULT -> render(ScriptPrelude.render(BINARY), pdUrl, acrossK8s, "", tlsFlags() + configFlag());
      case V1 -> render(ScriptPrelude.header(BINARY), pdUrl, acrossK8s, tlsFlags(), configFlag());
      case V2 -> {
        Optional<String> preferred = version.preferredPdAsWritten();
        yield render(ScriptPrelude.render(BINARY), preferred.orElse(pdUrl),
            preferred.isPresent() ? Optional.empty() : acrossK8s, "", tlsFlags() + configFlag());
      }
    };
  }

  private String tlsFlags() {
    if (!tls) {
      return "";
    }
    return " --ca=" + TicdcObjects.TLS_DIR + "/ca.crt"
        + " --cert=" + TicdcObjects.TLS_DIR + "/tls.crt"
        + " --key=" + TicdcObjects.TLS_DIR + "/tls.key";
  }

  private String configFlag() {
    return configFile ? " --config=" + CONFIG_FILE : "";
  }

  /**
   * @param beforePd flags between {@code --log-level} and {@code --pd} (v1's TLS flags)
   * @param afterPd flags after {@code --pd}
   */
  private String render(String prelude, String pd, Optional<AcrossK8sPd> across, String beforePd,
      String afterPd) {
    return prelude + across.map(AcrossK8sPd::render).orElse("") + """

        ARGS="server --addr=0.0.0.0:%1$d \\
        --advertise-addr=%2$s:%1$d \\
        --gc-ttl=%3$d \\
        --log-file=%4$s \\
        --log-level=%5$s%6$s \\
        --pd=%7$s%8$s"
        """.formatted(TicdcObjects.PORT, advertiseHost, gcTtl, logFile, logLevel, beforePd,
            across.isPresent() ? AcrossK8sPd.RESULT : pd, afterPd)
        + ScriptPrelude.exec(BINARY, "");
  }
}
