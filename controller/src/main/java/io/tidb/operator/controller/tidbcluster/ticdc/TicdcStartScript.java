package io.tidb.operator.controller.tidbcluster.ticdc;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import java.util.Optional;

/**
 * The TiCDC start script, upstream's: the shared prelude, then {@code /cdc server} with {@code
 * --addr=0.0.0.0:8301}, {@code --advertise-addr=<pod>.<tc>-ticdc-peer.<ns>.svc[.<domain>]:8301},
 * {@code --gc-ttl}, {@code --log-file}, {@code --log-level} (from {@code spec.ticdc.config}, else
 * 86400, {@code /dev/stderr}, {@code info}), {@code --pd=<scheme>://<tc>-pd:2379} (the
 * referenced cluster's PD for a heterogeneous cluster without PD; with {@code spec.acrossK8s}, the
 * endpoints discovery's {@code /verify/} answers, see {@link AcrossK8sPd}); with cluster
 * TLS {@code --ca/--cert/--key}; and {@code --config=/etc/ticdc/ticdc.toml} when the config has
 * settings other than those three.
 *
 * @param advertiseHost the pod's host name with {@code ${POD_NAME}} for the pod
 * @param pdUrl PD's client URL
 * @param acrossK8s the discovery lookup replacing {@code pdUrl}, with {@code spec.acrossK8s}
 */
record TicdcStartScript(
    String advertiseHost, int gcTtl, String logFile, String logLevel, String pdUrl, boolean tls,
    boolean configFile, Optional<AcrossK8sPd> acrossK8s) {

  static final String BINARY = "/cdc";
  static final String CONFIG_FILE = "/etc/ticdc/ticdc.toml";

  String render() {
    StringBuilder extra = new StringBuilder();
    if (tls) {
      extra.append(" --ca=").append(TicdcObjects.TLS_DIR).append("/ca.crt")
          .append(" --cert=").append(TicdcObjects.TLS_DIR).append("/tls.crt")
          .append(" --key=").append(TicdcObjects.TLS_DIR).append("/tls.key");
    }
    if (configFile) {
      extra.append(" --config=").append(CONFIG_FILE);
    }
    return ScriptPrelude.render(BINARY) + acrossK8s.map(AcrossK8sPd::render).orElse("") + """

        ARGS="server --addr=0.0.0.0:%1$d \\
        --advertise-addr=%2$s:%1$d \\
        --gc-ttl=%3$d \\
        --log-file=%4$s \\
        --log-level=%5$s \\
        --pd=%6$s%7$s"
        """.formatted(TicdcObjects.PORT, advertiseHost, gcTtl, logFile, logLevel,
            acrossK8s.isPresent() ? AcrossK8sPd.RESULT : pdUrl, extra)
        + ScriptPrelude.exec(BINARY, "");
  }
}
