package io.tidb.operator.controller.dmcluster;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmMemberSpec;

/**
 * The two files of each DM ConfigMap: {@code config-file} (the component's {@code config} as TOML,
 * with the cluster certificate paths when {@code tlsCluster} is on) and {@code startup-script}
 * (what upstream's start scripts do, in this project's words). Pure.
 */
public final class DmConfigFiles {

  public static final String CONFIG_KEY = "config-file";
  public static final String SCRIPT_KEY = "startup-script";
  public static final String MASTER_DATA_DIR = "/var/lib/dm-master";
  public static final String WORKER_DATA_DIR = "/var/lib/dm-worker";
  public static final String MASTER_TLS_DIR = "/var/lib/dm-master-tls";
  public static final String WORKER_TLS_DIR = "/var/lib/dm-worker-tls";
  public static final int MASTER_PORT = 8261;
  public static final int MASTER_PEER_PORT = 8291;
  public static final int WORKER_PORT = 8262;
  public static final int DISCOVERY_PORT = 10261;

  private DmConfigFiles() {}

  public static boolean tls(DmCluster dc) {
    return dc.getSpec().getTlsCluster() != null && Boolean.TRUE.equals(dc.getSpec().getTlsCluster().getEnabled());
  }

  public static String scheme(DmCluster dc) {
    return tls(dc) ? "https" : "http";
  }

  public static String masterConfig(DmCluster dc) {
    return config(dc, dc.getSpec().getMaster(), MASTER_TLS_DIR);
  }

  public static String workerConfig(DmCluster dc) {
    return config(dc, dc.getSpec().getWorker(), WORKER_TLS_DIR);
  }

  private static String config(DmCluster dc, DmMemberSpec member, String tlsDir) {
    ComponentConfig config = member.getConfig() == null ? ComponentConfig.empty() : member.getConfig();
    if (tls(dc)) {
      JsonNodeFactory nodes = JsonNodeFactory.instance;
      config = config.with("ssl-ca", nodes.textNode(tlsDir + "/ca.crt"))
          .with("ssl-cert", nodes.textNode(tlsDir + "/tls.crt"))
          .with("ssl-key", nodes.textNode(tlsDir + "/tls.key"));
    }
    return config.toToml();
  }

  /**
   * dm-master's start script: wait until the pod's own DNS name resolves, then start with the data
   * directory, the member name and the advertised peer and client addresses; a member that has a
   * {@code join} file joins the members it lists, a member with no data yet asks the discovery
   * service ({@code GET /new/<base64 peer address>/dm}) whether to bootstrap or join, and a member
   * with data restarts as it was.
   */
  public static String masterScript(DmCluster dc) {
    String dataDir = dataDir(MASTER_DATA_DIR, dc.getSpec().getMaster().getDataSubDir());
    String scheme = scheme(dc);
    boolean digCheck = "v1".equals(dc.getSpec().getMaster().getStartUpScriptVersion());
    String resolves = digCheck
        ? "[ -n \"$(dig \"${domain}\" A \"${domain}\" AAAA +search +short 2>/dev/null)\" ]"
        : "nslookup \"${domain}\" >/dev/null 2>&1";
    return """
        #!/bin/sh
        # dm-master start script, written by the operator (a change rolls the dm-master pods).
        set -uo pipefail
        PODINFO=/etc/podinfo/annotations
        [ -f "${PODINFO}" ] || { echo "${PODINFO} is missing" >&2; exit 1; }
        . "${PODINFO}" 2>/dev/null
        if [ "${runmode:-normal}" = debug ]; then echo "debug mode: not starting"; exec tail -f /dev/null; fi
        POD_NAME=${POD_NAME:-$HOSTNAME}
        cluster=${PEER_SERVICE_NAME%%-dm-master-peer}
        domain="${POD_NAME}.${PEER_SERVICE_NAME}"
        waited=0
        until %s; do
          waited=$((waited + 1))
          [ "${waited}" -lt 30 ] || { echo "${domain} did not resolve within 30s" >&2; exit 1; }
          sleep 1
        done
        ARGS="--data-dir=%s --name=${POD_NAME} --peer-urls=%s://0.0.0.0:%d \\
        --advertise-peer-urls=%s://${domain}:%d --master-addr=:%d --advertise-addr=${domain}:%d \\
        --config=/etc/dm-master/dm-master.toml"
        if [ -f %s/join ]; then
          # join lists name=peerURL pairs; dm-master joins through the members' client ports
          join=$(tr ',' '\\n' < %s/join | sed -e 's/^[^=]*=//' -e 's/:%d$/:%d/' | paste -sd, -)
          ARGS="${ARGS} --join=${join}"
        elif [ ! -d %s/member/wal ]; then
          peer=$(printf '%%s' "${domain}:%d" | base64 | tr -d '\\n ')
          until flags=$(wget -qO- -T 3 "http://${cluster}-dm-discovery.${NAMESPACE}:%d/new/${peer}/dm" 2>/dev/null); do
            echo "waiting for the discovery service"; sleep $((RANDOM %% 5))
          done
          ARGS="${ARGS} ${flags}"
        fi
        echo "exec /dm-master ${ARGS}"
        exec /dm-master ${ARGS}
        """.formatted(resolves, dataDir, scheme, MASTER_PEER_PORT, scheme, MASTER_PEER_PORT,
        MASTER_PORT, MASTER_PORT, dataDir, dataDir, MASTER_PEER_PORT, MASTER_PORT, dataDir,
        MASTER_PEER_PORT, DISCOVERY_PORT);
  }

  /** dm-worker's start script: join the masters through the dm-master Service and advertise the pod's name. */
  public static String workerScript(DmCluster dc) {
    String master = DmNames.master(dc.getMetadata().getName()) + ":" + MASTER_PORT;
    return """
        #!/bin/sh
        # dm-worker start script, written by the operator (a change rolls the dm-worker pods).
        set -uo pipefail
        PODINFO=/etc/podinfo/annotations
        [ -f "${PODINFO}" ] || { echo "${PODINFO} is missing" >&2; exit 1; }
        . "${PODINFO}" 2>/dev/null
        if [ "${runmode:-normal}" = debug ]; then echo "debug mode: not starting"; exec tail -f /dev/null; fi
        POD_NAME=${POD_NAME:-$HOSTNAME}
        ARGS="--name=${POD_NAME} --join=%s --advertise-addr=${POD_NAME}.${HEADLESS_SERVICE_NAME}:%d \\
        --worker-addr=0.0.0.0:%d --config=/etc/dm-worker/dm-worker.toml"
        if [ -n "${STORE_LABELS:-}" ]; then ARGS="${ARGS} --labels ${STORE_LABELS}"; fi
        echo "exec /dm-worker ${ARGS}"
        exec /dm-worker ${ARGS}
        """.formatted(master, WORKER_PORT, WORKER_PORT);
  }

  private static String dataDir(String mount, String subDir) {
    return subDir == null || subDir.isEmpty() ? mount : mount + "/" + subDir;
  }
}
