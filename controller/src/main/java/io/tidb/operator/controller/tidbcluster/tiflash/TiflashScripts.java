package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.ScriptPrelude;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import java.util.Optional;

/**
 * TiFlash's two scripts, with upstream's behaviour for the version {@code spec.startScriptVersion}
 * chooses (upstream's TiFlash scripts read no v2 feature flag):
 *
 * <ul>
 *   <li>{@link #init}: run by the {@code init} container (helper image, POSIX sh); writes {@code
 *       /data0/config.toml} and {@code /data0/proxy.toml} from the ConfigMap's templates with
 *       {@code POD_NUM} replaced by the pod's ordinal (the last dash-separated part of {@code
 *       POD_NAME}). Unset: {@code set -eu}, so an unreadable template fails the pod; v1: {@code
 *       set -ex} (the same, tracing each command); v2: {@code set -u} only, as upstream's, so the
 *       init container fails only when the last template (the proxy's) cannot be read. With
 *       {@code spec.acrossK8s} it then asks discovery {@code /verify/} for the PD endpoints
 *       (retrying) and puts the answer where the templates say {@code PD_ADDR}, as upstream's.
 *   <li>{@link #start}: the main container's start script, in the ConfigMap under {@code
 *       startup-script}: {@code exec /tiflash/tiflash server --config-file /data0/config.toml},
 *       after the shared prelude (debug mode) when unset and with v2, without it with v1 (which
 *       has no debug mode, as upstream's).
 * </ul>
 */
final class TiflashScripts {

  static final String BINARY = "/tiflash/tiflash";

  private TiflashScripts() {}

  static String init(StartScriptVersion version, Optional<AcrossK8sPd> acrossK8s) {
    String options = switch (version.version()) {
      case DEFAULT -> "set -eu";
      case V1 -> "set -ex";
      case V2 -> "set -u";
    };
    String script = options + """

        ordinal=$(echo "${POD_NAME}" | awk -F- '{print $NF}')
        sed "s/POD_NUM/${ordinal}/g" %1$s/config_templ.toml > /data0/config.toml
        sed "s/POD_NUM/${ordinal}/g" %1$s/proxy_templ.toml > /data0/proxy.toml
        """.formatted(TiflashObjects.CONFIG_DIR);
    if (acrossK8s.isEmpty()) {
      return script;
    }
    // Across Kubernetes clusters the templates say PD_ADDR: discovery's answer replaces it.
    return script + acrossK8s.get().render() + """
        sed -i "s|%1$s|${result}|g" /data0/config.toml
        sed -i "s|%1$s|${result}|g" /data0/proxy.toml
        """.formatted(TiflashConfigFiles.PD_ADDR_PLACEHOLDER);
  }

  /**
   * The start script of the {@code mount-cm-in-tiflash-container} mode (upstream's {@code
   * RenderTiFlashStartScriptWithStartArgs}): no init container; TiFlash reads {@code
   * /etc/tiflash/config_templ.toml} from the ConfigMap and gets its own addresses and PD's on the
   * command line, with {@code STORE_LABELS} as {@code --labels} when set. PD: v1 {@code
   * <scheme>://${CLUSTER_NAME}-pd:2379}; v2 and unset {@code <tc>-pd:2379}, or with v2's
   * {@code PreferPDAddressesOverDiscovery} the hosts of {@code spec.pdAddresses}; the referenced
   * cluster's PD ({@code <ref>-pd:2379}) for a heterogeneous cluster without PD of its own; across
   * Kubernetes clusters discovery's {@code /verify/} answer (unless the preferred addresses are
   * given), as upstream's. Every version has the debug mode (upstream's v1 template has it in this
   * mode too).
   *
   * @param podHost the pod's host, {@code ${POD_NAME}.${HEADLESS_SERVICE_NAME}.${NAMESPACE}.svc[.<domain>]}
   * @param pdOwner the TidbCluster whose PD TiFlash joins ({@code PdOwner}), and whether it is
   *     another than this one
   * @param advertiseStatus whether to advertise the proxy status address ({@code
   *     spec.enableDynamicConfiguration})
   * @param acrossK8s the discovery lookup with {@code spec.acrossK8s}
   */
  static String startWithArgs(StartScriptVersion version, String podHost, String pdOwner,
      boolean referenced, String scheme, boolean advertiseStatus, Optional<AcrossK8sPd> acrossK8s) {
    Optional<String> preferred = version.version() == StartScriptVersion.Version.V1
        ? Optional.empty() : version.preferredPd("", 2379);
    String own = version.version() == StartScriptVersion.Version.V1
        ? scheme + "://" + (referenced ? pdOwner : "${CLUSTER_NAME}") + "-pd:2379"
        : pdOwner + "-pd:2379";
    String pd = preferred.orElse(own);
    String lookup = preferred.isEmpty() && acrossK8s.isPresent()
        ? acrossK8s.get().render() + "PD_ADDRESS=\"${result}\"\n" : "";
    String status = advertiseStatus
        ? "--flash.proxy.advertise-status-addr=" + podHost + ":" + TiflashObjects.PROXY_STATUS_PORT
            + " \\\n"
        : "";
    return ScriptPrelude.render(BINARY)
        + """

        PD_ADDRESS="%1$s"
        %7$sARGS="server --config-file %2$s/config_templ.toml \\
        -- \\
        --flash.proxy.advertise-addr=%3$s:%4$d \\
        %5$s--flash.service_addr=%3$s:%6$d \\
        --raft.pd_addr=${PD_ADDRESS}
        "

        if [ -n "${STORE_LABELS:-}" ]; then
            ARGS="${ARGS} --labels ${STORE_LABELS} "
        fi
        """.formatted(pd, TiflashObjects.CONFIG_DIR, podHost, TiflashObjects.PROXY_PORT, status,
            TiflashObjects.FLASH_PORT, lookup)
        + ScriptPrelude.exec(BINARY, "");
  }

  static String start(StartScriptVersion version) {
    String opening = switch (version.version()) {
      case DEFAULT, V2 -> ScriptPrelude.render(BINARY);
      case V1 -> ScriptPrelude.header(BINARY);
    };
    return opening
        + """

        ARGS="server --config-file /data0/config.toml"
        """
        + ScriptPrelude.exec(BINARY, "");
  }
}
