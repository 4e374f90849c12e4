#!/usr/bin/env bash
# The whole operator on this machine, with one command:
#   a local Kubernetes control plane (etcd, kube-apiserver, controller-manager, scheduler and kwok
#   fake nodes, all on 127.0.0.1), the chart's CRDs and webhook configurations, the webhook and the
#   controller as local processes, a PD API simulator in PD's place, and an example TidbCluster
#   converging to Ready. Everything keeps running until hack/local-down.sh.
#
#   hack/local-up.sh [--skip-build] [--cluster FILE] [--tls]
#
#   --skip-build     do not run Maven or hack/build-binaries.sh (use what was built before)
#   --cluster FILE   the TidbCluster to apply (default examples/basic-tidb-cluster.yaml)
#   --tls            cluster TLS: make a local CA and the cluster's Secrets, serve the PD simulator
#                    over mutual TLS only (default cluster examples/basic-tls-tidb-cluster.yaml)
#
# Environment (all optional):
#   TIDB_OPERATOR_LOCAL_RUN_DIR   state: pids, logs, ports (default ~/.local/share/tidb-operator-java/local-run)
#   TIDB_OPERATOR_READY_TIMEOUT   seconds to wait for the cluster to be Ready (default 300)
#
# Running it again is safe: it rebuilds, keeps the control plane, restarts the three processes and
# re-applies the cluster.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${TIDB_OPERATOR_LOCAL_RUN_DIR:-$HOME/.local/share/tidb-operator-java/local-run}
# The control plane of the local run lives inside this state directory, apart from the one the
# tests use, so a test run never sees (or stops) the local run and the other way round.
export TIDB_OPERATOR_LOCAL_DIR=$STATE/control-plane
K8S_VERSION=${K8S_VERSION:-1.36.3}
BIN=${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/k8s/$K8S_VERSION-linux-amd64
READY_TIMEOUT=${TIDB_OPERATOR_READY_TIMEOUT:-300}

RELEASE=tidb-operator
OPERATOR_NS=tidb-admin
CLUSTER_NS=tidb-cluster
CLUSTER_FILE=$ROOT/examples/basic-tidb-cluster.yaml
SKIP_BUILD=0
TLS=0
CLUSTER_GIVEN=0
CLASSPATH_FILE=$ROOT/e2e/target/operator-classpath.txt

# shellcheck source=hack/local-run.lib.sh
. "$ROOT/hack/local-run.lib.sh"

while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) SKIP_BUILD=1 ;;
    --cluster) shift; CLUSTER_FILE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); CLUSTER_GIVEN=1 ;;
    --tls) TLS=1 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see $0 --help)" ;;
  esac
  shift
done

if [ "$TLS" = 1 ] && [ "$CLUSTER_GIVEN" = 0 ]; then
  CLUSTER_FILE=$ROOT/examples/basic-tls-tidb-cluster.yaml
fi

started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started ))s"; }
step() { printf '\n==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }

mkdir -p "$STATE/pids" "$STATE/logs"

# ---- 1. build ----------------------------------------------------------------------------------
if [ "$SKIP_BUILD" = 0 ]; then
  step "Building the operator (mvn install, tests skipped) — log: $STATE/logs/build.log"
  (cd "$ROOT" && mvn -B -q install -Dmaven.test.skip=true) >"$STATE/logs/build.log" 2>&1 \
    || { tail -n 40 "$STATE/logs/build.log" >&2; die "the Maven build failed; full log: $STATE/logs/build.log"; }
  info "built in $(elapsed)"
  step "Building the Kubernetes binaries if missing (hack/build-binaries.sh; 30-45 min the first time, seconds after)"
  "$ROOT/hack/build-binaries.sh" >>"$STATE/logs/build.log" 2>&1 \
    || { tail -n 40 "$STATE/logs/build.log" >&2; die "hack/build-binaries.sh failed; full log: $STATE/logs/build.log"; }
  info "binaries in $BIN"
fi
[ -f "$CLASSPATH_FILE" ] || die "$CLASSPATH_FILE is missing: run without --skip-build once"
for b in kubectl helm; do [ -x "$BIN/$b" ] || die "$BIN/$b is missing: run without --skip-build (or hack/build-binaries.sh)"; done
command -v java >/dev/null || die "java is not on PATH"

# ---- 2. control plane --------------------------------------------------------------------------
step "Starting the local control plane (etcd, kube-apiserver, controller-manager, scheduler, kwok) on 127.0.0.1"
KUBECONFIG_FILE=$("$ROOT/hack/control-plane.sh" up 2>"$STATE/logs/control-plane.log" | tail -n 1) \
  || { cat "$STATE/logs/control-plane.log" >&2; die "hack/control-plane.sh up failed"; }
export KUBECONFIG=$KUBECONFIG_FILE
kc() { "$BIN/kubectl" "$@"; }
info "API server ready; $(kc get nodes --no-headers | wc -l) fake kwok nodes (pods 'run' there, no containers start)"

# ---- 3. CRDs and webhook configurations ---------------------------------------------------------
pick_ports
# shellcheck disable=SC1091
. "$STATE/ports"
WEBHOOK_CONFIG=$RELEASE-webhook

# Flags of the three processes (see each main class's --help).
# The webhook reads the kubeconfig from $KUBECONFIG (exported above).
WEBHOOK_ARGS=(
  --port="$WEBHOOK_PORT" --bind-address=127.0.0.1
  --namespace="$OPERATOR_NS" --service="$RELEASE-webhook" --secret="$RELEASE-webhook-tls"
  --validating-webhook-configuration="$WEBHOOK_CONFIG" --mutating-webhook-configuration="$WEBHOOK_CONFIG"
)
PDSIM_ARGS=(--kubeconfig="$KUBECONFIG_FILE" --port="$PDSIM_PORT" --bind=127.0.0.1)
controller_args() {
  CONTROLLER_ARGS=(
    --kubeconfig="$KUBECONFIG_FILE" --port="$CONTROLLER_PORT" --bind=127.0.0.1
    --pd-url-template="$PD_URL_TEMPLATE" --tidb-status-url-template="$TIDB_STATUS_URL_TEMPLATE"
    --pd-member-url-template="$PD_MEMBER_URL_TEMPLATE" --ticdc-url-template="$TICDC_URL_TEMPLATE"
    --tiproxy-url-template="$TIPROXY_URL_TEMPLATE" --pump-url-template="$PUMP_URL_TEMPLATE"
    --tiflash-url-template="$TIFLASH_URL_TEMPLATE"
  )
}

step "Installing the chart's CRDs and webhook configurations (calling the local webhook at https://127.0.0.1:$WEBHOOK_PORT)"
kc apply --server-side --force-conflicts --field-manager=local-up -f "$ROOT/charts/tidb-operator/crds/" | sed 's/^/    /'
crd_established() {
  [ "$(kc get crd tidbclusters.pingcap.com -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2>/dev/null)" = True ]
}
for _ in $(seq 1 120); do crd_established && break; sleep 0.5; done
crd_established || die "the TidbCluster CRD is not Established after 60s"
for ns in "$OPERATOR_NS" "$CLUSTER_NS"; do
  kc create namespace "$ns" --dry-run=client -o yaml | kc apply --server-side --field-manager=local-up -f - >/dev/null
done
# Only the two webhook configuration templates, with clientConfig.url instead of the Service. The
# chart never renders caBundle: the webhook patches it in at start, and re-applying this keeps it.
"$BIN/helm" template "$RELEASE" "$ROOT/charts/tidb-operator" --namespace "$OPERATOR_NS" \
  --set "local.webhookUrl=https://127.0.0.1:$WEBHOOK_PORT" --set webhook.timeoutSeconds=10 \
  --show-only templates/webhook/validating-webhook-configuration.yaml \
  --show-only templates/webhook/mutating-webhook-configuration.yaml \
  | kc apply --server-side --force-conflicts --field-manager=local-up -f - | sed 's/^/    /'

# ---- 4. the three processes ---------------------------------------------------------------------
CP=$(cat "$CLASSPATH_FILE")
for p in controller webhook pd-simulator; do
  if process_running "$p"; then
    step "Stopping the previous run's $p (restarted below with the current build)"
    stop_process "$p"
  fi
done

step "Starting the webhook (io.tidb.operator.webhook.WebhookMain) — log: $STATE/logs/webhook.log"
start_process webhook io.tidb.operator.webhook.WebhookMain "${WEBHOOK_ARGS[@]}"
wait_until "the webhook to answer /readyz" webhook 180 \
  curl -kfsS --max-time 2 "https://127.0.0.1:$WEBHOOK_PORT/readyz"
wait_until "the webhook to inject its CA into both webhook configurations" webhook 60 ca_bundles_injected
# A JVM's first admission requests can be slow (class loading, JIT), more so on a busy machine:
# warm it up with server-side dry runs so the real apply below is not the one that times out.
wait_until "the webhook to answer an admission request (server-side dry run)" webhook 180 \
  kc -n "$CLUSTER_NS" apply --dry-run=server -f "$CLUSTER_FILE"
info "webhook ready; its CA is in the caBundle of validatingwebhookconfiguration/mutatingwebhookconfiguration $WEBHOOK_CONFIG"

CLUSTER_NAME=$(sed -n 's/^  name: *//p' "$CLUSTER_FILE" | head -n 1)
if [ "$TLS" = 1 ]; then
  step "Cluster TLS: a local CA and the Secrets of TidbCluster $CLUSTER_NAME (io.tidb.operator.pdsim.LocalTlsCertificates) in $STATE/tls"
  java -cp "$CP" io.tidb.operator.pdsim.LocalTlsCertificates \
    --dir="$STATE/tls" --cluster="$CLUSTER_NAME" --namespace="$CLUSTER_NS" | sed 's/^/    /'
  tls_secret() { # name dir
    kc -n "$CLUSTER_NS" create secret generic "$1" --from-file=ca.crt="$2/ca.crt" \
      --from-file=tls.crt="$2/tls.crt" --from-file=tls.key="$2/tls.key" --dry-run=client -o yaml \
      | kc apply --server-side --force-conflicts --field-manager=local-up -f - | sed 's/^/    /'
  }
  for component in pd tikv tidb; do
    tls_secret "$CLUSTER_NAME-$component-cluster-secret" "$STATE/tls/server"
  done
  tls_secret "$CLUSTER_NAME-cluster-client-secret" "$STATE/tls/client"
  PDSIM_ARGS+=(--tls-dir="$STATE/tls/server")
  info "the simulator serves HTTPS only and accepts only clients of this CA: the operator presents $CLUSTER_NAME-cluster-client-secret"
fi

step "Starting the PD API simulator (io.tidb.operator.pdsim.PdSimulatorMain) — log: $STATE/logs/pd-simulator.log"
echo "    PD is simulated: no real TiDB runs here. The simulator answers PD's HTTP API (members, stores,"
echo "    health) and TiDB's /status from the PD/TiKV/TiDB pods that exist on the fake nodes."
start_process pd-simulator io.tidb.operator.pdsim.PdSimulatorMain "${PDSIM_ARGS[@]}"
wait_until "the PD simulator to listen" pd-simulator 180 grep -q '^tidb-status-url-template=' "$STATE/logs/pd-simulator.log"
PD_URL_TEMPLATE=$(sed -n 's/^pd-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
TIDB_STATUS_URL_TEMPLATE=$(sed -n 's/^tidb-status-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
PD_MEMBER_URL_TEMPLATE=$(sed -n 's/^pd-member-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
TICDC_URL_TEMPLATE=$(sed -n 's/^ticdc-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
TIPROXY_URL_TEMPLATE=$(sed -n 's/^tiproxy-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
PUMP_URL_TEMPLATE=$(sed -n 's/^pump-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
TIFLASH_URL_TEMPLATE=$(sed -n 's/^tiflash-url-template=//p' "$STATE/logs/pd-simulator.log" | tail -n 1)
info "PD API for each cluster: $PD_URL_TEMPLATE"

step "Starting the controller (io.tidb.operator.controller.ControllerMain) — log: $STATE/logs/controller.log"
controller_args
start_process controller io.tidb.operator.controller.ControllerMain "${CONTROLLER_ARGS[@]}"
wait_until "the controller to answer /readyz" controller 180 \
  curl -fsS --max-time 2 "http://127.0.0.1:$CONTROLLER_PORT/readyz"
info "controller ready"

# ---- 5. the example cluster ---------------------------------------------------------------------
step "Applying $(basename "$CLUSTER_FILE") (TidbCluster $CLUSTER_NAME) in namespace $CLUSTER_NS"
kc -n "$CLUSTER_NS" apply -f "$CLUSTER_FILE" | sed 's/^/    /'
info "defaults the mutating webhook added: $(kc -n "$CLUSTER_NS" get tc "$CLUSTER_NAME" -o jsonpath='pd.maxFailoverCount={.spec.pd.maxFailoverCount} tikv.maxFailoverCount={.spec.tikv.maxFailoverCount} tlsCluster.enabled={.spec.tlsCluster.enabled}')"

step "Watching it converge: discovery -> PD -> TiKV -> TiDB (the controller waits for PD quorum before TiKV, and for an Up TiKV store before TiDB)"
watch_until_ready "$CLUSTER_NS" "$CLUSTER_NAME" "$READY_TIMEOUT"

# ---- 6. done ------------------------------------------------------------------------------------
step "Up in $(elapsed). Everything keeps running."
cat <<EOF

    export KUBECONFIG=$KUBECONFIG_FILE
    export PATH=$BIN:\$PATH      # kubectl and helm built for this project

    kubectl -n $CLUSTER_NS get tc,sts,pods,svc
    kubectl -n $CLUSTER_NS get tc $CLUSTER_NAME -o yaml            # status: PD members, TiKV stores, conditions
    kubectl -n $CLUSTER_NS apply -f $ROOT/examples/invalid-tidb-cluster.yaml   # refused by the webhook

    logs:  $STATE/logs/{controller,webhook,pd-simulator}.log
    stop:  $ROOT/hack/local-down.sh
EOF
