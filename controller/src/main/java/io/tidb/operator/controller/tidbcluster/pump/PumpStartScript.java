package io.tidb.operator.controller.tidbcluster.pump;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import java.util.Optional;

/**
 * The Pump start script, upstream's, in the version {@code spec.startScriptVersion} chooses.
 *
 * <p>Unset: the shared prelude, then {@code /pump} with {@code
 * -pd-urls=<scheme>://<tc>-pd:2379}, {@code -L=<log-level>} ({@code spec.pump.config} {@code
 * log-level}, else {@code info}), {@code -advertise-addr=<pod>.<tc>-pump[.<ns>.svc.<domain>]:8250},
 * {@code -config=/etc/pump/pump.toml}, {@code -data-dir=/data} and an empty {@code -log-file}
 * (logs to stderr). Pump exits 0 only once it has gone offline; the script then idles, so the
 * pod stays until the operator removes it, as upstream's does.
 *
 * <p>v1, as upstream's: the same flags and the same idling, but no debug mode; the advertised host
 * is {@code ${HOSTNAME}.<tc>-pump}, with {@code .<ns>.svc} after it across Kubernetes clusters
 * (and {@code .<ns>.svc.<domain>} with a cluster domain); across Kubernetes clusters discovery's
 * {@code /verify/} answer replaces the PD URL.
 *
 * <p>v2, as upstream's: the shared prelude, then
 * {@code exec /pump -pd-urls=... -L <level> -log-file= -advertise-addr=... -data-dir=/data
 * --config=/etc/pump/pump.toml}; the shell is replaced by pump, so nothing idles after it goes
 * offline: the container exits and is restarted. It reads no feature flag (upstream's neither).
 *
 * @param pdUrl PD's client URL
 * @param advertiseHost the pod's host name with {@code ${POD_NAME}} for the pod (unset version)
 * @param versionedAdvertiseHost v1 and v2's host name, with {@code ${HOSTNAME}} for the pod
 * @param acrossK8s v1 and v2 with {@code spec.acrossK8s}: the discovery lookup replacing
 *     {@code pdUrl}
 * @param version {@code spec.startScriptVersion} and its feature flags
 */
record PumpStartScript(String pdUrl, String logLevel, String advertiseHost,
    String versionedAdvertiseHost, Optional<AcrossK8sPd> acrossK8s, StartScriptVersion version) {

  static final String BINARY = "/pump";

  String render() {
    return switch (version.version()) {
      case DEFAULT -> ScriptPrelude.render(BINARY) + runThenIdle(pdUrl, advertiseHost);
      case V1 -> ScriptPrelude.header(BINARY) + "set -eu\n" + across()
          + runThenIdle(pd(), versionedAdvertiseHost);
      case V2 -> ScriptPrelude.render(BINARY) + across() + """

          ARGS="-pd-urls=%1$s \\
          -L %2$s \\
          -log-file= \\
          -advertise-addr=%3$s:%4$d \\
          -data-dir=%5$s \\
          --config=%6$s"
          """.formatted(pd(), logLevel, versionedAdvertiseHost, PumpObjects.PORT,
              PumpObjects.DATA_DIR, PumpObjects.CONFIG_FILE)
          + ScriptPrelude.exec(BINARY, "");
    };
  }

  private String across() {
    return acrossK8s.map(AcrossK8sPd::render).orElse("");
  }

  private String pd() {
    return acrossK8s.isPresent() ? AcrossK8sPd.RESULT : pdUrl;
  }

  /** Run pump; once it exits 0 (offline) idle until the pod is removed, else exit with its code. */
  private String runThenIdle(String pd, String host) {
    return """

        ARGS="-pd-urls=%1$s \\
        -L=%2$s \\
        -advertise-addr=%3$s:%4$d \\
        -config=%5$s \\
        -data-dir=%6$s \\
        -log-file="

        echo "starting %7$s ${ARGS}"
        %7$s ${ARGS}
        code=$?
        if [ "${code}" -eq 0 ]; then
            echo "$(date -u +'[%%Y/%%m/%%d %%H:%%M:%%S %%z]') pump offline, please delete my pod"
            tail -f /dev/null
        fi
        exit "${code}"
        """.formatted(pd, logLevel, host, PumpObjects.PORT, PumpObjects.CONFIG_FILE,
            PumpObjects.DATA_DIR, BINARY);
  }
}
