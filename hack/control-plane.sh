#!/usr/bin/env bash
# A local Kubernetes control plane for end-to-end tests and the local run:
# etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok (fake nodes),
# all bound to 127.0.0.1, from the binaries built by hack/build-binaries.sh.
#
#   hack/control-plane.sh up       start it (or find it running); last stdout line = kubeconfig path
#   hack/control-plane.sh down     stop the processes it started (pid files) and delete its data
#   hack/control-plane.sh env      print 'export KUBECONFIG=...'
#   hack/control-plane.sh status   show each component; exit 0 only if all run and /readyz is ok
#   hack/control-plane.sh prune    delete the Released volumes whose claim's namespace is gone (tests
#                                  and benchmarks ask for Retain; on a control plane kept up between
#                                  runs they pile up by the thousand and slow the API server)
#
# Environment (all optional):
#   TIDB_OPERATOR_LOCAL_DIR      state dir (default ~/.local/share/tidb-operator-java/control-plane)
#   KUBE_API_TEST_DIR            binary cache root (default ~/.kubeapitest), as in build-binaries.sh
#   K8S_VERSION                  default 1.36.3
#   TIDB_OPERATOR_KWOK_NODES     number of fake nodes (default 3)
#   TIDB_OPERATOR_KWOK_POD_CIDR  pod IPs kwok hands out (default 127.10.0.0/16, loopback: see docs)
#   TIDB_OPERATOR_CONTROL_PLANE_TIMEOUT  seconds 'up' waits for each component (default 180)
#   TIDB_OPERATOR_KCM_API_QPS    kube-controller-manager's client rate limit, requests a second
#                                (default 20, Kubernetes' default; read when the control plane starts)
#   TIDB_OPERATOR_KCM_API_BURST  its burst (default 30, Kubernetes' default). Its StatefulSet
#                                controller creates every pod and claim through that client, so the
#                                limit sets how fast many clusters' pods can come up; kwokctl lifts it
#                                for scale tests (docs/benchmarks-controller.md)
#
# Pod IPs (127.10.0.0/16) and Service ClusterIPs (127.0.96.0/20) are loopback addresses, so a client
# that dials one by mistake can never send traffic off this machine. Loopback endpoint addresses are
# invalid in Endpoints/EndpointSlices, so Services get no endpoints here; the operator dials DNS names.
set -euo pipefail

HACK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
K8S_VERSION=${K8S_VERSION:-1.36.3}
BIN=${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/k8s/$K8S_VERSION-linux-amd64
STATE=${TIDB_OPERATOR_LOCAL_DIR:-$HOME/.local/share/tidb-operator-java/control-plane}
NODES=${TIDB_OPERATOR_KWOK_NODES:-3}
KCM_API_QPS=${TIDB_OPERATOR_KCM_API_QPS:-20}
KCM_API_BURST=${TIDB_OPERATOR_KCM_API_BURST:-30}
POD_CIDR=${TIDB_OPERATOR_KWOK_POD_CIDR:-127.10.0.0/16}
SERVICE_CIDR=127.0.96.0/20
COMPONENTS="etcd kube-apiserver kube-controller-manager kube-scheduler kwok"
STARTUP_TIMEOUT=${TIDB_OPERATOR_CONTROL_PLANE_TIMEOUT:-180}

KUBECONFIG_FILE=$STATE/kubeconfig
PKI=$STATE/pki

log() { printf '[control-plane] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

usage() {
  sed -n '2,/^set -euo pipefail/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# ---- process bookkeeping ------------------------------------------------------------------------

pid_of() { cat "$STATE/pids/$1.pid" 2>/dev/null || true; }

# The binary a component was started from (recorded at start, so 'down' works after env changes).
exe_of() { cat "$STATE/pids/$1.exe" 2>/dev/null || true; }

# True if the recorded pid is alive and still runs the recorded binary (guards against pid reuse).
is_running() {
  local pid exe actual
  pid=$(pid_of "$1"); exe=$(exe_of "$1")
  [ -n "$pid" ] && [ -n "$exe" ] || return 1
  actual=$(readlink "/proc/$pid/exe" 2>/dev/null) || return 1
  [ "${actual% (deleted)}" = "$exe" ]
}

start_component() {
  local name=$1; shift
  local exe
  exe=$(readlink -f "$1")
  # setsid: the daemon survives the caller (e.g. a test JVM); fd 9 is the lock, not inherited.
  setsid "$@" </dev/null >"$STATE/logs/$name.log" 2>&1 9>&- &
  echo $! >"$STATE/pids/$name.pid"
  echo "$exe" >"$STATE/pids/$name.exe"
}

# Stops the named components: SIGTERM to all at once, then up to 10s for each to exit, then SIGKILL.
stop_components() {
  local name pid i alive=()
  for name in "$@"; do
    pid=$(pid_of "$name")
    [ -n "$pid" ] || continue
    if is_running "$name"; then
      kill -TERM "$pid" 2>/dev/null || true
      alive+=("$name:$pid")
    else
      log "$name (pid $pid) is not running"
    fi
  done
  for entry in "${alive[@]}"; do
    name=${entry%%:*}; pid=${entry#*:}
    for i in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name (pid $pid) ignored SIGTERM for 10s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      # SIGKILL is delivered asynchronously: return only once the process is really gone.
      for i in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
    else
      log "stopped $name (pid $pid)"
    fi
  done
}

show_log_tail() {
  [ -f "$STATE/logs/$1.log" ] || return 0
  log "last lines of $STATE/logs/$1.log:"
  tail -n 25 "$STATE/logs/$1.log" >&2
}

# ---- health checks ------------------------------------------------------------------------------

api_get() {
  # shellcheck disable=SC1091
  . "$STATE/ports"
  curl -fsS --max-time 5 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
    "https://127.0.0.1:$APISERVER_PORT$1"
}

api_ready() { [ -f "$STATE/ports" ] && [ "$(api_get /readyz 2>/dev/null)" = ok ]; }

all_running() {
  local c
  for c in $COMPONENTS; do is_running "$c" || return 1; done
}

# wait_for <description> <component whose log explains a failure> <command...>
wait_for() {
  local what=$1 component=$2; shift 2
  local deadline=$(( $(date +%s) + STARTUP_TIMEOUT ))
  until "$@" >/dev/null 2>&1; do
    if ! is_running "$component"; then
      show_log_tail "$component"
      die "$component exited while waiting for $what"
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      show_log_tail "$component"
      die "timed out after ${STARTUP_TIMEOUT}s waiting for $what"
    fi
    sleep 0.5
  done
}

# ---- setup --------------------------------------------------------------------------------------

# Picks distinct free TCP ports below the Linux ephemeral range (32768+), so outgoing
# connections and kube-api-test (49152+) don't collide with them.
pick_ports() {
  local used picked="" name p
  used=$(ss -Htln | awk '{print $4}' | sed 's/.*://' | sort -u)
  : >"$STATE/ports"
  for name in ETCD_PORT ETCD_PEER_PORT APISERVER_PORT CONTROLLER_MANAGER_PORT SCHEDULER_PORT; do
    while :; do
      p=$(( 20000 + RANDOM % 12000 ))
      if ! grep -qx "$p" <<<"$used"$'\n'"$picked"; then break; fi
    done
    picked="$picked"$'\n'"$p"
    echo "$name=$p" >>"$STATE/ports"
  done
}

generate_pki() {
  mkdir -p "$PKI"
  (
    cd "$PKI"
    exec 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=tidb-operator-local-ca \
      -keyout ca.key -out ca.crt
    openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver -keyout apiserver.key -out apiserver.csr
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 365 -out apiserver.crt \
      -extfile <(printf '%s\n' \
        'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:127.0.96.1' \
        'extendedKeyUsage=serverAuth' 'keyUsage=critical,digitalSignature,keyEncipherment')
    openssl req -newkey rsa:2048 -nodes -subj "/O=system:masters/CN=local-admin" -keyout admin.key -out admin.csr
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 365 -out admin.crt \
      -extfile <(printf '%s\n' 'extendedKeyUsage=clientAuth' 'keyUsage=critical,digitalSignature,keyEncipherment')
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
    rm -f ./*.csr ca.srl
    chmod 600 ./*.key
  ) || die "openssl failed to generate the certificates in $PKI"
}

write_kubeconfig() {
  # shellcheck disable=SC1091
  . "$STATE/ports"
  local ca cert key
  ca=$(base64 -w0 <"$PKI/ca.crt"); cert=$(base64 -w0 <"$PKI/admin.crt"); key=$(base64 -w0 <"$PKI/admin.key")
  umask 077
  cat >"$KUBECONFIG_FILE" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: tidb-operator-local
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority-data: $ca
users:
- name: local-admin
  user:
    client-certificate-data: $cert
    client-key-data: $key
contexts:
- name: tidb-operator-local
  context:
    cluster: tidb-operator-local
    user: local-admin
    namespace: default
current-context: tidb-operator-local
EOF
}

# kwok has no built-in behaviour: these stages (from the kwok module, copied beside the binary by
# build-binaries.sh) make nodes Ready with lease heartbeats, pods Running/Ready/Completed/deleted,
# and PVCs of the kwok-volume StorageClass provisioned and bound. node-not-ready (kwok's node
# chaos stage) turns a node NotReady while it carries the label
# node-not-ready.stage.kwok.x-k8s.io=true; without the label node-initialize makes it Ready again.
# The claims' provisioning stage is this project's (hack/kwok/pvc-provision.yaml: kwok's steps, but
# each volume created once, never applied again; that file says why).
write_kwok_stages() {
  local s=$BIN/kwok-stages f
  : >"$STATE/kwok-stages.yaml"
  for f in "$s"/node/fast/node-initialize "$s"/node/heartbeat-with-lease/node-heartbeat-with-lease \
           "$s"/node/chaos/node-not-ready \
           "$s"/pod/fast/pod-ready "$s"/pod/fast/pod-complete "$s"/pod/fast/pod-delete \
           "$HACK_DIR"/kwok/pvc-provision "$s"/volume/fast/pv-bind "$s"/volume/fast/pvc-delete \
           "$s"/volume/fast/pv-delete; do
    [ -f "$f.yaml" ] || die "kwok stage $f.yaml is missing; run hack/build-binaries.sh"
    { cat "$f.yaml"; echo '---'; } >>"$STATE/kwok-stages.yaml"
  done
}

# Fake nodes: the kwok annotation selects them for kwok; no taint, so ordinary pods schedule.
write_nodes() {
  local i zones=(a b c)
  : >"$STATE/nodes.yaml"
  for i in $(seq 0 $((NODES - 1))); do
    cat >>"$STATE/nodes.yaml" <<EOF
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-$i
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    type: kwok
    kubernetes.io/hostname: kwok-node-$i
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    topology.kubernetes.io/zone: zone-${zones[$((i % 3))]}
---
EOF
  done
}

kubectl_local() { "$BIN/kubectl" --kubeconfig="$KUBECONFIG_FILE" "$@"; }

check_prerequisites() {
  local c
  for c in $COMPONENTS kubectl; do
    [ -x "$BIN/$c" ] || die "missing $BIN/$c; run hack/build-binaries.sh first"
  done
  for c in openssl curl ss setsid flock; do
    command -v "$c" >/dev/null || die "'$c' is not installed (needed by $0)"
  done
}

do_down() {
  if [ ! -d "$STATE" ]; then
    log "nothing to stop: $STATE does not exist"
    return 0
  fi
  stop_components kwok kube-scheduler kube-controller-manager kube-apiserver etcd
  rm -rf "$STATE"
  log "removed $STATE"
}

do_up() {
  local started c
  started=$(date +%s)
  if [ -d "$STATE" ]; then
    if all_running && api_ready; then
      log "already running (state in $STATE)"
      echo "$KUBECONFIG_FILE"
      return 0
    fi
    log "found an incomplete control plane in $STATE; stopping it and starting afresh"
    do_down
  fi
  mkdir -p "$STATE/pids" "$STATE/logs"
  pick_ports
  # shellcheck disable=SC1091
  . "$STATE/ports"
  generate_pki
  write_kubeconfig
  write_kwok_stages
  write_nodes

  trap 'log "startup failed; stopping what was started"; do_down' EXIT

  start_component etcd "$BIN/etcd" --name=default --data-dir="$STATE/etcd" \
    --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster="default=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync=true
  wait_for "etcd /health" etcd curl -fsS --max-time 2 "http://127.0.0.1:$ETCD_PORT/health"

  start_component kube-apiserver "$BIN/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 \
    --secure-port="$APISERVER_PORT" --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --client-ca-file="$PKI/ca.crt" --service-account-issuer="https://127.0.0.1:$APISERVER_PORT" \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-cluster-ip-range="$SERVICE_CIDR" --authorization-mode=RBAC --allow-privileged=true \
    --endpoint-reconciler-type=none --profiling=false
  wait_for "kube-apiserver /readyz" kube-apiserver api_ready

  local auth=(--kubeconfig="$KUBECONFIG_FILE" --authentication-kubeconfig="$KUBECONFIG_FILE"
              --authorization-kubeconfig="$KUBECONFIG_FILE" --authentication-skip-lookup=true
              --leader-elect=false --bind-address=127.0.0.1 --profiling=false)
  start_component kube-controller-manager "$BIN/kube-controller-manager" "${auth[@]}" \
    --secure-port="$CONTROLLER_MANAGER_PORT" --root-ca-file="$PKI/ca.crt" \
    --service-account-private-key-file="$PKI/sa.key" --use-service-account-credentials=false \
    --kube-api-qps="$KCM_API_QPS" --kube-api-burst="$KCM_API_BURST"
  start_component kube-scheduler "$BIN/kube-scheduler" "${auth[@]}" --secure-port="$SCHEDULER_PORT"

  kubectl_local apply -f "$BIN/kwok-stages/volume/fast/storage-class.yaml" >&2
  kubectl_local apply -f "$STATE/nodes.yaml" >&2
  start_component kwok "$BIN/kwok" --kubeconfig="$KUBECONFIG_FILE" --config="$STATE/kwok-stages.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --node-lease-duration-seconds=40 --cidr="$POD_CIDR" --node-ip=127.0.0.1

  wait_for "kube-controller-manager /healthz" kube-controller-manager \
    curl -kfsS --max-time 2 "https://127.0.0.1:$CONTROLLER_MANAGER_PORT/healthz"
  wait_for "kube-scheduler /healthz" kube-scheduler \
    curl -kfsS --max-time 2 "https://127.0.0.1:$SCHEDULER_PORT/healthz"
  wait_for "$NODES kwok nodes Ready" kwok \
    kubectl_local wait --for=condition=Ready node -l type=kwok --timeout=2s
  # The ServiceAccount admission plugin is on: pods need the namespace's default ServiceAccount,
  # which kube-controller-manager creates.
  wait_for "ServiceAccount default/default" kube-controller-manager kubectl_local get serviceaccount default

  trap - EXIT
  for c in $COMPONENTS; do is_running "$c" || die "$c is not running after startup"; done
  log "control plane up in $(( $(date +%s) - started ))s; logs in $STATE/logs; stop with: $0 down"
  echo "$KUBECONFIG_FILE"
}

do_status() {
  local c rc=0
  if [ ! -d "$STATE" ]; then
    echo "not running (no $STATE)"
    return 1
  fi
  for c in $COMPONENTS; do
    if is_running "$c"; then
      printf '%-24s running  pid %s\n' "$c" "$(pid_of "$c")"
    else
      printf '%-24s stopped\n' "$c"; rc=1
    fi
  done
  if api_ready; then echo "kube-apiserver /readyz  ok"; else echo "kube-apiserver /readyz  not ready"; rc=1; fi
  echo "kubeconfig              $KUBECONFIG_FILE"
  return $rc
}

do_prune() {
  api_ready || die "the control plane is not up; run: $0 up"
  local namespaces volumes
  namespaces=" $(kubectl_local get namespaces -o jsonpath='{.items[*].metadata.name}') "
  volumes=$(kubectl_local get persistentvolumes -o \
      jsonpath='{range .items[?(@.status.phase=="Released")]}{.metadata.name} {.spec.claimRef.namespace}{"\n"}{end}' |
    while read -r volume namespace; do
      [ -n "$volume" ] && [[ $namespaces != *" $namespace "* ]] && echo "$volume"
    done || true)
  if [ -n "$volumes" ]; then
    # shellcheck disable=SC2086 # one name per word
    kubectl_local delete persistentvolumes --wait=false $volumes >/dev/null
  fi
  log "pruned $(printf '%s' "$volumes" | grep -c . || true) released volume(s) of deleted namespaces"
}

do_env() {
  [ -f "$KUBECONFIG_FILE" ] || die "the control plane is not up ($KUBECONFIG_FILE missing); run: $0 up"
  echo "export KUBECONFIG=$KUBECONFIG_FILE"
}

with_lock() {
  mkdir -p "$(dirname "$STATE")"
  exec 9>"$STATE.lock"
  flock -w 300 9 || die "another '$0' holds $STATE.lock for more than 300s"
  "$@"
}

case "${1:-}" in
  up) check_prerequisites; with_lock do_up ;;
  down) with_lock do_down ;;
  status) do_status ;;
  env) do_env ;;
  prune) do_prune ;;
  *) usage ;;
esac
