#!/usr/bin/env bash
# Crash safety of the operator's destructive operations: the controller is SIGKILLed at random
# instants during a TiKV scale-in, a PD+TiKV+TiDB upgrade, a PD failover and a TiKV volume replace,
# restarted each time, then left to converge; every run is judged against invariants replayed from
# the PD simulator's record.
#
#   hack/crash-safety.sh [--runs N] [--scenario NAME]... [--kills MIN-MAX] [--delay MIN-MAX]
#                        [--converge-timeout S] [--ready-timeout S] [--drain-steps N] [--seed N]
#                        [--skip-build]
#
#   --runs N              runs per scenario, each in a fresh namespace (default 20)
#   --scenario NAME       tikv-scale-in (TiKV 4 -> 3), tikv-scale-in-by-two (5 -> 3 with
#                         scaleInParallelism 1), pd-tikv-upgrade (spec.version v8.5.0 -> v8.5.1),
#                         pd-failover (pod <tc>-pd-1 made not Ready; the controller runs with
#                         --pd-failover-period=6s), volume-replace (pod <tc>-tikv-1 annotated
#                         tidb.pingcap.com/replace-volume=true), default (tikv-scale-in and
#                         pd-tikv-upgrade) or all; may be repeated
#   --kills MIN-MAX       SIGKILLs per run, drawn uniformly (default 1-4)
#   --delay MIN-MAX       milliseconds before each kill, drawn uniformly (default 500-8000),
#                         counted from the spec change, then from each restart's /readyz
#   --converge-timeout S  after the last restart, how long the cluster has to converge (default 180;
#                         volume-replace, which adds and removes a spare store, at least 360)
#   --ready-timeout S     how long the new cluster has to become Ready first (default 300)
#   --drain-steps N       simulator steps an Offline store takes to become Tombstone (default 15;
#                         the simulator's own default, 3, leaves kills little time to land there)
#   --seed N              seed of the kill schedule (default: from the clock; printed)
#   --skip-build          do not run Maven or hack/build-binaries.sh (use what was built before)
#
# Prints one line per run and, per scenario, exactly one summary line
#   scenario=<name> runs=N violations=V converged=C
# and exits 1 when any scenario has violations > 0 or converged < runs (2 for a setup error).
#
# Environment (all optional):
#   CRASH_SAFETY_DIR         state: logs and records of every run
#                            (default ~/.local/share/tidb-operator-java/crash-safety)
#   TIDB_OPERATOR_LOCAL_DIR  the control plane's state (default $CRASH_SAFETY_DIR/control-plane); a
#                            control plane already running there is used and kept, one started here
#                            is stopped at exit
#
# See docs/crash-safety.md for what is checked and how to read a run's records.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${CRASH_SAFETY_DIR:-$HOME/.local/share/tidb-operator-java/crash-safety}
export TIDB_OPERATOR_LOCAL_DIR=${TIDB_OPERATOR_LOCAL_DIR:-$STATE/control-plane}
K8S_VERSION=${K8S_VERSION:-1.36.3}
BIN=${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/k8s/$K8S_VERSION-linux-amd64
CLASSPATH_FILE=$ROOT/e2e/target/operator-classpath.txt
CHECKER_CLASSES=$ROOT/e2e/target/test-classes
CHECKER=io.tidb.operator.e2e.crashsafety.CrashSafetyCheck

RUNS=20
SCENARIOS=()
KILLS_MIN=1 KILLS_MAX=4
DELAY_MIN=500 DELAY_MAX=8000
CONVERGE_TIMEOUT=180
READY_TIMEOUT=300
DRAIN_STEPS=15
SEED=
SKIP_BUILD=0
TC=crash
FROM_VERSION=v8.5.0
TO_VERSION=v8.5.1
SCALE_IN_PARALLELISM=1

die() { printf '[crash-safety] ERROR: %s\n' "$*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo pipefail/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; }

range() { # range <option> <value>: sets RANGE_MIN and RANGE_MAX from MIN-MAX
  [[ $2 =~ ^([0-9]+)-([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] \
    || die "$1: invalid value '$2': use MIN-MAX, e.g. 1-4"
  RANGE_MIN=${BASH_REMATCH[1]} RANGE_MAX=${BASH_REMATCH[2]}
}
number() { [[ $2 =~ ^[0-9]+$ ]] || die "$1: invalid value '$2': must be a whole number"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) number "$1" "${2:-}"; RUNS=$2; shift ;;
    --scenario)
      case "${2:-}" in
        tikv-scale-in|tikv-scale-in-by-two|pd-tikv-upgrade|pd-failover|volume-replace) SCENARIOS+=("$2") ;;
        default) SCENARIOS+=(tikv-scale-in pd-tikv-upgrade) ;;
        all) SCENARIOS+=(tikv-scale-in tikv-scale-in-by-two pd-tikv-upgrade pd-failover volume-replace) ;;
        *) die "--scenario: unknown scenario '${2:-}': tikv-scale-in, tikv-scale-in-by-two, pd-tikv-upgrade, pd-failover, volume-replace, default or all" ;;
      esac
      shift ;;
    --kills) range "$1" "${2:-}"; KILLS_MIN=$RANGE_MIN KILLS_MAX=$RANGE_MAX; shift ;;
    --delay) range "$1" "${2:-}"; DELAY_MIN=$RANGE_MIN DELAY_MAX=$RANGE_MAX; shift ;;
    --converge-timeout) number "$1" "${2:-}"; CONVERGE_TIMEOUT=$2; shift ;;
    --ready-timeout) number "$1" "${2:-}"; READY_TIMEOUT=$2; shift ;;
    --drain-steps) number "$1" "${2:-}"; DRAIN_STEPS=$2; shift ;;
    --seed) number "$1" "${2:-}"; SEED=$2; shift ;;
    --skip-build) SKIP_BUILD=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see $0 --help)" ;;
  esac
  shift
done
[ "$RUNS" -ge 1 ] || die "--runs: must be at least 1"
[ ${#SCENARIOS[@]} -gt 0 ] || SCENARIOS=(tikv-scale-in pd-tikv-upgrade)
# Each scenario once, in the order given.
mapfile -t SCENARIOS < <(printf '%s\n' "${SCENARIOS[@]}" | awk '!seen[$0]++')
SEED=${SEED:-$(( $(date +%s%N) / 1000 % 32768 ))}
RANDOM=$SEED

for c in java curl jq ss setsid flock; do
  command -v "$c" >/dev/null || die "'$c' is not installed (needed by $0)"
done

mkdir -p "$STATE"
exec 8>"$STATE/lock"
flock -n 8 || die "another hack/crash-safety.sh is running (lock $STATE/lock)"
INVOCATION=$(date +%Y%m%d-%H%M%S)
RUNS_DIR=$STATE/runs/$INVOCATION
mkdir -p "$RUNS_DIR"
ln -sfn "runs/$INVOCATION" "$STATE/latest"
ID=$(date +%H%M%S)   # in namespace names, so a namespace still terminating never collides

say() { printf '%s\n' "$*"; }
now_ms() { date +%s%3N; }
# ev <text>: one line of the run's timeline (events.log), time since the run started.
ev() {
  local tenths=$(( ($(now_ms) - t0) / 100 ))
  printf '%9s  %s\n' "+$((tenths / 10)).$((tenths % 10))s" "$*" >>"$events"
}

# ---- cleanup: the processes this script started, the control plane only if it started it ------
CONTROLLER_PID=
SIM_PID=
STARTED_CONTROL_PLANE=0
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in $CONTROLLER_PID $SIM_PID; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  if [ "$STARTED_CONTROL_PLANE" = 1 ]; then
    "$ROOT/hack/control-plane.sh" down >>"$RUNS_DIR/control-plane.log" 2>&1 8>&- || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 1. build ----------------------------------------------------------------------------------
if [ "$SKIP_BUILD" = 0 ]; then
  say "==> Building the operator and the checker (mvn package, tests skipped) — log: $RUNS_DIR/build.log"
  (cd "$ROOT" && mvn -B -o -q package -DskipTests -pl e2e -am) >"$RUNS_DIR/build.log" 2>&1 8>&- \
    || { tail -n 40 "$RUNS_DIR/build.log" >&2; die "the Maven build failed; full log: $RUNS_DIR/build.log"; }
  "$ROOT/hack/build-binaries.sh" >>"$RUNS_DIR/build.log" 2>&1 8>&- \
    || { tail -n 40 "$RUNS_DIR/build.log" >&2; die "hack/build-binaries.sh failed; full log: $RUNS_DIR/build.log"; }
fi
[ -f "$CLASSPATH_FILE" ] || die "$CLASSPATH_FILE is missing: run without --skip-build once"
[ -f "$CHECKER_CLASSES/${CHECKER//.//}.class" ] || die "the checker is not compiled ($CHECKER_CLASSES): run without --skip-build"
[ -x "$BIN/kubectl" ] || die "$BIN/kubectl is missing: run hack/build-binaries.sh"
CP=$(cat "$CLASSPATH_FILE")

# ---- 2. control plane and CRDs -----------------------------------------------------------------
if ! "$ROOT/hack/control-plane.sh" status >/dev/null 2>&1; then STARTED_CONTROL_PLANE=1; fi
say "==> Control plane in $TIDB_OPERATOR_LOCAL_DIR ($([ $STARTED_CONTROL_PLANE = 1 ] && echo "starting it; stopped at exit" || echo "already running; kept"))"
KUBECONFIG_FILE=$("$ROOT/hack/control-plane.sh" up 2>>"$RUNS_DIR/control-plane.log" 8>&- | tail -n 1) \
  || { tail -n 30 "$RUNS_DIR/control-plane.log" >&2; die "hack/control-plane.sh up failed"; }
export KUBECONFIG=$KUBECONFIG_FILE
kc() { "$BIN/kubectl" "$@"; }
kc apply --server-side --force-conflicts --field-manager=crash-safety -f "$ROOT/charts/tidb-operator/crds/" >/dev/null
crd_established() {
  [ "$(kc get crd tidbclusters.pingcap.com -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2>/dev/null)" = True ]
}
for _ in $(seq 1 120); do crd_established && break; sleep 0.5; done
crd_established || die "the TidbCluster CRD is not Established after 60s"

free_port() {
  local used p
  used=$(ss -Htln | awk '{print $4}' | sed 's/.*://' | sort -u)
  while :; do
    p=$(( 20000 + RANDOM % 12000 ))
    grep -qx "$p" <<<"$used" || { echo "$p"; return; }
  done
}
CONTROLLER_PORT=$(free_port)

say "==> Scenarios: ${SCENARIOS[*]}; $RUNS run(s) each; kills $KILLS_MIN-$KILLS_MAX per run, $DELAY_MIN-${DELAY_MAX}ms apart; seed $SEED"
say "    records of every run: $RUNS_DIR"

# ---- processes ----------------------------------------------------------------------------------
# The PD simulator, one per run, watching only the run's namespace: fresh state, calls and journal.
start_sim() { # start_sim <namespace> <log>
  setsid java -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -cp "$CP" io.tidb.operator.pdsim.PdSimulatorMain \
    --kubeconfig="$KUBECONFIG_FILE" --port=0 --bind=127.0.0.1 --namespace="$1" --drain-steps="$DRAIN_STEPS" \
    </dev/null >"$2" 2>&1 8>&- &
  SIM_PID=$!
  local deadline=$(( $(date +%s) + 120 ))
  until grep -q '^tidb-status-url-template=' "$2" 2>/dev/null; do
    kill -0 "$SIM_PID" 2>/dev/null || { tail -n 20 "$2" >&2; die "the PD simulator exited (log: $2)"; }
    [ "$(date +%s)" -lt "$deadline" ] || die "the PD simulator did not start in 120s (log: $2)"
    sleep 0.2
  done
  SIM_URL=$(sed -n 's/^pd-simulator listening on //p' "$2" | tail -n 1)
  PD_URL_TEMPLATE=$(sed -n 's/^pd-url-template=//p' "$2" | tail -n 1)
  PD_MEMBER_URL_TEMPLATE=$(sed -n 's/^pd-member-url-template=//p' "$2" | tail -n 1)
  TIDB_STATUS_URL_TEMPLATE=$(sed -n 's/^tidb-status-url-template=//p' "$2" | tail -n 1)
}

# The controller as hack/local-up.sh runs it, watching only the run's namespace, with the run's
# extra flags (CONTROLLER_FLAGS, e.g. a short PD failover period).
CONTROLLER_FLAGS=()
start_controller() { # start_controller <namespace> <log>
  setsid java -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -cp "$CP" io.tidb.operator.controller.ControllerMain \
    --kubeconfig="$KUBECONFIG_FILE" --port="$CONTROLLER_PORT" --bind=127.0.0.1 \
    --pd-url-template="$PD_URL_TEMPLATE" --tidb-status-url-template="$TIDB_STATUS_URL_TEMPLATE" \
    --pd-member-url-template="$PD_MEMBER_URL_TEMPLATE" --watch-namespaces="$1" "${CONTROLLER_FLAGS[@]}" \
    </dev/null >"$2" 2>&1 8>&- &
  CONTROLLER_PID=$!
}

# Waits for the controller's /readyz; false if it exited or took more than 120 s.
controller_ready() {
  local deadline=$(( $(date +%s) + 120 ))
  until curl -fsS --max-time 2 "http://127.0.0.1:$CONTROLLER_PORT/readyz" >/dev/null 2>&1; do
    kill -0 "$CONTROLLER_PID" 2>/dev/null || return 1
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

sigkill() { # sigkill <pid>: returns once the process is gone (and reaped)
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

stop_gracefully() { # stop_gracefully <pid>: SIGTERM, SIGKILL after 20 s
  local i
  kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
  kill -TERM "$1" 2>/dev/null || true
  for i in $(seq 1 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
  sigkill "$1"
}

# ---- convergence --------------------------------------------------------------------------------
# Input: [StatefulSets, pods, TidbCluster, /sim/clusters]. Output: every reason the run has not
# converged, one per line; nothing when it has.
CONVERGENCE_JQ='
. as [$sts, $pods, $tc, $sim] |
($tc.status.conditions // [] | map(select(.type == "Ready")) | first) as $ready |
(if $ready.status != "True" then
   "TidbCluster Ready=\($ready.status // "missing") (\($ready.reason // "-"): \($ready.message // "-"))"
 elif ($tc.status.observedGeneration // 0) != $tc.metadata.generation then
   "TidbCluster status observedGeneration \($tc.status.observedGeneration // 0), generation \($tc.metadata.generation)"
 else empty end),
(($want | keys[]) as $component | "\($tc.metadata.name)-\($component)" as $name | $want[$component] as $n |
  ([$sts.items[] | select(.metadata.name == $name)] | first) as $s |
  if $s == null then "StatefulSet \($name) missing" else
    ($s.status.updateRevision // "-") as $rev |
    ([$pods.items[] | select(.metadata.labels["app.kubernetes.io/component"] == $component)]) as $p |
    ($s.spec.template.spec.containers // [] | (map(select(.name == $component)) | first) // .[0] | .image // "") as $image |
    # The first failing check of the StatefulSet, else of its pods.
    ([
      (if $s.spec.replicas != $n then "\($name): spec.replicas \($s.spec.replicas), want \($n)" else empty end),
      (if ($s.status.observedGeneration // 0) != $s.metadata.generation then
         "\($name): status observedGeneration \($s.status.observedGeneration // 0), generation \($s.metadata.generation)" else empty end),
      (if $version != "" and ($image | endswith(":" + $version) | not) then
         "\($name): image \($image), want version \($version)" else empty end),
      (if ($s.status.replicas // 0) != $n or ($s.status.readyReplicas // 0) != $n then
         "\($name): \($s.status.readyReplicas // 0) ready of \($s.status.replicas // 0) replicas, want \($n)" else empty end),
      (if ($s.status.updatedReplicas // 0) != $n or $s.status.currentRevision != $rev then
         "\($name): \($s.status.updatedReplicas // 0) of \($n) pods at updateRevision \($rev | sub(".*-"; "")) (currentRevision \($s.status.currentRevision // "-" | sub(".*-"; "")), partition \($s.spec.updateStrategy.rollingUpdate.partition // 0))" else empty end),
      (if ($p | length) != $n or ($p | any(.metadata.labels["controller-revision-hash"] != $rev or .metadata.deletionTimestamp != null or .status.phase != "Running")) then
         "\($name): pods \([$p[] | "\(.metadata.name)@\(.metadata.labels["controller-revision-hash"] // "-" | sub(".*-"; ""))\(if .metadata.deletionTimestamp then "(terminating)" else "" end)"] | join(" ")), want \($n) Running at \($rev | sub(".*-"; ""))" else empty end)
    ] | first // empty)
  end),
(if $stores >= 0 then
   ([$sim[] | select(.cluster == $cluster) | .stores[] | select(.engine == "tikv" and .state != "Tombstone")]) as $live |
   if ($live | length) != $stores or ($live | any(.state != "Up")) then
     "PD simulator: TiKV stores not Tombstone: \([$live[] | "\(.id)=\(.state)"] | join(" ")), want \($stores) Up"
   else empty end
 else empty end)
'

# not_converged <namespace> <pd> <tikv> <tidb> <version> <sim stores or -1>: prints the reasons.
not_converged() {
  local ns=$1 want out
  want=$(printf '{"pd":%s,"tikv":%s,"tidb":%s}' "$2" "$3" "$4")
  out=$( {
      kc -n "$ns" get statefulsets -l app.kubernetes.io/instance=$TC -o json 2>/dev/null || echo '{"items":[]}'
      kc -n "$ns" get pods -l app.kubernetes.io/instance=$TC -o json 2>/dev/null || echo '{"items":[]}'
      kc -n "$ns" get tidbcluster "$TC" -o json 2>/dev/null || echo '{"metadata":{"name":"'$TC'"}}'
      curl -fsS --max-time 5 "$SIM_URL/sim/clusters" 2>/dev/null || echo '[]'
    } | jq -rs --argjson want "$want" --arg version "$5" --argjson stores "$6" \
          --arg cluster "$ns/$TC" "$CONVERGENCE_JQ" 2>&1) || out="cannot judge convergence: $out"
  printf '%s' "$out"
}

# The scenario's own end state, beyond the shared checks: one line per reason it is not there yet.
# Uses FAULT_POD, FAULT_POD_UID, FAULT_CLAIM and FAULT_CLAIM_UID of the run.
scenario_not_converged() { # scenario_not_converged <scenario> <namespace>
  local uid value
  case "$1" in
    pd-failover)
      value=$(kc -n "$2" get tidbcluster "$TC" -o jsonpath='{.status.pd.failureMembers}' 2>/dev/null || true)
      [ -z "$value" ] || echo "status.pd.failureMembers not cleared: $value"
      uid=$(kc -n "$2" get pod "$FAULT_POD" -o jsonpath='{.metadata.uid}' 2>/dev/null || true)
      [ -n "$uid" ] && [ "$uid" != "$FAULT_POD_UID" ] || echo "pod $FAULT_POD not replaced yet (uid ${uid:-none})"
      ;;
    volume-replace)
      value=$(kc -n "$2" get tidbcluster "$TC" -o jsonpath='{.status.tikv.volReplaceInProgress}' 2>/dev/null || true)
      [ -z "$value" ] || echo "status.tikv.volReplaceInProgress is $value"
      uid=$(kc -n "$2" get pvc "$FAULT_CLAIM" -o jsonpath='{.metadata.uid}' 2>/dev/null || true)
      [ -n "$uid" ] && [ "$uid" != "$FAULT_CLAIM_UID" ] || echo "claim $FAULT_CLAIM not replaced yet (uid ${uid:-none})"
      ;;
  esac
}

# ---- one run ------------------------------------------------------------------------------------
manifest() { # manifest <version> <tikv replicas>
  cat <<EOF
apiVersion: pingcap.com/v1alpha1
kind: TidbCluster
metadata:
  name: $TC
spec:
  version: $1
  timezone: UTC
  configUpdateStrategy: RollingUpdate
  discovery: {}
  pd:
    baseImage: pingcap/pd
    replicas: 3
    requests:
      storage: 1Gi
  tikv:
    baseImage: pingcap/tikv
    replicas: $2
    requests:
      storage: 1Gi
    scalePolicy:
      scaleInParallelism: $SCALE_IN_PARALLELISM
  tidb:
    baseImage: pingcap/tidb
    replicas: 1
    service:
      type: ClusterIP
EOF
}

RUN_VIOLATIONS=0
RUN_CONVERGED=0
run_one() { # run_one <scenario> <n>
  local scenario=$1 n=$2 short tikv_from tikv_to version_to stores patch
  case "$scenario" in
    tikv-scale-in) short=si tikv_from=4 tikv_to=3 version_to=$FROM_VERSION stores=3
      patch='{"spec":{"tikv":{"replicas":3}}}' ;;
    tikv-scale-in-by-two) short=si2 tikv_from=5 tikv_to=3 version_to=$FROM_VERSION stores=3
      patch='{"spec":{"tikv":{"replicas":3}}}' ;;
    pd-tikv-upgrade) short=up tikv_from=3 tikv_to=3 version_to=$TO_VERSION stores=3
      patch='{"spec":{"version":"'$TO_VERSION'"}}' ;;
    pd-failover) short=pf tikv_from=3 tikv_to=3 version_to=$FROM_VERSION stores=3
      patch='pod '$TC'-pd-1 status: Ready=False' ;;
    volume-replace) short=vr tikv_from=3 tikv_to=3 version_to=$FROM_VERSION stores=3
      patch='pod '$TC'-tikv-1 annotated tidb.pingcap.com/replace-volume=true' ;;
  esac
  local converge_timeout=$CONVERGE_TIMEOUT
  CONTROLLER_FLAGS=()
  FAULT_POD= FAULT_POD_UID= FAULT_CLAIM= FAULT_CLAIM_UID=
  case "$scenario" in
    pd-failover) CONTROLLER_FLAGS=(--auto-failover=true --pd-failover-period=6s) FAULT_POD=$TC-pd-1 ;;
    volume-replace) FAULT_POD=$TC-tikv-1 FAULT_CLAIM=tikv-$TC-tikv-1
      [ "$converge_timeout" -ge 360 ] || converge_timeout=360 ;;
  esac
  local ns=cs-$ID-$short-$n dir=$RUNS_DIR/$scenario-$n
  local events t0 starts=0 kills delay k code doing extra_violations=0 reasons="" setup_ok=1 deadline
  local since result schedule="" converged=0 last="" checked
  mkdir -p "$dir"
  events=$dir/events.log
  RUN_VIOLATIONS=0 RUN_CONVERGED=0
  t0=$(now_ms)
  ev "namespace $ns, TidbCluster $TC: PD 3, TiKV $tikv_from, TiDB 1, $FROM_VERSION"

  kc create namespace "$ns" >/dev/null
  start_sim "$ns" "$dir/pd-simulator.log"
  ev "PD simulator pid $SIM_PID at $SIM_URL"
  start_controller "$ns" "$dir/controller-$starts.log"
  controller_ready || { tail -n 20 "$dir/controller-$starts.log" >&2; die "the controller did not start (log: $dir/controller-$starts.log)"; }
  ev "controller pid $CONTROLLER_PID ready"
  manifest "$FROM_VERSION" "$tikv_from" >"$dir/tidbcluster.yaml"
  kc -n "$ns" apply -f "$dir/tidbcluster.yaml" >/dev/null

  # Bring-up, without kills: the starting point must be a converged cluster.
  deadline=$(( $(date +%s) + READY_TIMEOUT ))
  until reasons=$(not_converged "$ns" 3 "$tikv_from" 1 "$FROM_VERSION" "$tikv_from") && [ -z "$reasons" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then setup_ok=0; break; fi
    kill -0 "$CONTROLLER_PID" 2>/dev/null || die "the controller exited during bring-up (log: $dir/controller-$starts.log)"
    sleep 2
  done
  if [ "$setup_ok" = 0 ]; then
    ev "NOT READY after ${READY_TIMEOUT}s: $reasons"
    since=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
    result="setup failed: not Ready after ${READY_TIMEOUT}s: ${reasons//$'\n'/; }"
  else
    ev "Ready and converged"
    [ -z "$FAULT_POD" ] || FAULT_POD_UID=$(kc -n "$ns" get pod "$FAULT_POD" -o jsonpath='{.metadata.uid}')
    [ -z "$FAULT_CLAIM" ] || FAULT_CLAIM_UID=$(kc -n "$ns" get pvc "$FAULT_CLAIM" -o jsonpath='{.metadata.uid}')
    since=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
    case "$scenario" in
      pd-failover)
        # As the node lifecycle controller marks the pods of a NotReady node (kwok leaves a
        # Running pod's conditions alone): PD loses the member, the failover period starts.
        kc -n "$ns" patch pod "$FAULT_POD" --subresource=status --type=strategic \
          -p '{"status":{"conditions":[{"type":"Ready","status":"False","reason":"CrashSafetyFault","message":"made not Ready by hack/crash-safety.sh"}]}}' >/dev/null
        ev "made pod $FAULT_POD (uid $FAULT_POD_UID) not Ready (since=$since)" ;;
      volume-replace)
        kc -n "$ns" annotate pod "$FAULT_POD" tidb.pingcap.com/replace-volume=true >/dev/null
        ev "annotated pod $FAULT_POD tidb.pingcap.com/replace-volume=true; claim $FAULT_CLAIM uid $FAULT_CLAIM_UID (since=$since)" ;;
      *)
        kc -n "$ns" patch tidbcluster "$TC" --type merge -p "$patch" >/dev/null
        ev "changed the spec: $patch (since=$since)" ;;
    esac

    # The kills: the first counted from the change, the next ones from each restart's /readyz.
    kills=$(( KILLS_MIN + RANDOM % (KILLS_MAX - KILLS_MIN + 1) ))
    for k in $(seq 1 "$kills"); do
      delay=$(( DELAY_MIN + RANDOM % (DELAY_MAX - DELAY_MIN + 1) ))
      schedule="$schedule ${delay}ms"
      sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
      if ! kill -0 "$CONTROLLER_PID" 2>/dev/null; then
        wait "$CONTROLLER_PID" 2>/dev/null && code=0 || code=$?
        ev "VIOLATION controller-exited: pid $CONTROLLER_PID exited by itself (code $code) before kill $k"
        extra_violations=$((extra_violations + 1))
      else
        sigkill "$CONTROLLER_PID"
        # What the controller was doing, as its last status write says.
        doing=$(kc -n "$ns" get tidbcluster "$TC" -o jsonpath='{.status.conditions[?(@.type=="Ready")].message}' 2>/dev/null || true)
        ev "kill $k/$kills: SIGKILL pid $CONTROLLER_PID, ${delay}ms after the last (re)start; Ready said: ${doing:-?}"
      fi
      starts=$((starts + 1))
      start_controller "$ns" "$dir/controller-$starts.log"
      if controller_ready; then
        ev "restart $starts: controller pid $CONTROLLER_PID ready"
      else
        ev "restart $starts: controller pid $CONTROLLER_PID NOT ready after 120s (or exited)"
      fi
    done

    # Convergence, with the controller left alone.
    deadline=$(( $(date +%s) + converge_timeout ))
    while :; do
      reasons=$(not_converged "$ns" 3 "$tikv_to" 1 "$version_to" "$stores")
      [ -n "$reasons" ] || reasons=$(scenario_not_converged "$scenario" "$ns")
      if [ -z "$reasons" ]; then converged=1; break; fi
      [ "$reasons" = "$last" ] || { ev "waiting: ${reasons//$'\n'/; }"; last=$reasons; }
      if ! kill -0 "$CONTROLLER_PID" 2>/dev/null; then
        wait "$CONTROLLER_PID" 2>/dev/null && code=0 || code=$?
        ev "VIOLATION controller-exited: pid $CONTROLLER_PID exited by itself (code $code) while converging; restarting it"
        extra_violations=$((extra_violations + 1))
        starts=$((starts + 1))
        start_controller "$ns" "$dir/controller-$starts.log"
      fi
      [ "$(date +%s)" -lt "$deadline" ] || break
      sleep 2
    done
    if [ "$converged" = 1 ]; then
      ev "CONVERGED"
      RUN_CONVERGED=1
      result="converged"
    else
      ev "NOT CONVERGED after ${converge_timeout}s: ${reasons//$'\n'/; }"
      result="not converged after ${converge_timeout}s: ${reasons//$'\n'/; }"
    fi
    result="kills=$kills (${schedule# }) $result"
  fi

  # Records: stop the controller first so nothing changes while they are read.
  stop_gracefully "$CONTROLLER_PID"
  CONTROLLER_PID=
  local cluster=$ns/$TC pd_url=${PD_URL_TEMPLATE//\{namespace\}/$ns}
  pd_url=${pd_url//\{name\}/$TC}
  curl -fsS --max-time 10 "$SIM_URL/sim/journal?cluster=$cluster" >"$dir/journal.json" || echo '[]' >"$dir/journal.json"
  curl -fsS --max-time 10 "$SIM_URL/sim/calls?cluster=$cluster" >"$dir/calls.json" || echo '[]' >"$dir/calls.json"
  curl -fsS --max-time 10 "$SIM_URL/sim/clusters" >"$dir/clusters.json" || echo '[]' >"$dir/clusters.json"
  curl -sS --max-time 10 "$pd_url/pd/api/v1/schedulers" >"$dir/schedulers.json" 2>&1 || true
  kc -n "$ns" get tidbcluster,statefulsets -o yaml >"$dir/objects.yaml" 2>&1 || true
  kc -n "$ns" get pods -o wide >"$dir/pods.txt" 2>&1 || true
  kc -n "$ns" get events --sort-by=.lastTimestamp >"$dir/k8s-events.txt" 2>&1 || true
  stop_gracefully "$SIM_PID"
  SIM_PID=
  kc delete namespace "$ns" --wait=false >/dev/null 2>&1 || true

  code=0
  java -cp "$CHECKER_CLASSES:$CP" "$CHECKER" --run-dir="$dir" --cluster="$cluster" --since="$since" \
    --scale-in-parallelism="$SCALE_IN_PARALLELISM" >"$dir/check.txt" 2>&1 8>&- || code=$?
  checked=$(sed -n 's/^violations=//p' "$dir/check.txt")
  if [ "$code" -gt 1 ] || [ -z "$checked" ]; then
    ev "the checker failed (exit $code): see check.txt"
    checked=1
  fi
  [ "$setup_ok" = 1 ] || checked=0   # nothing happened to judge; it counts as not converged
  RUN_VIOLATIONS=$((checked + extra_violations))
  ev "checker: $RUN_VIOLATIONS violation(s)"
  {
    echo "scenario=$scenario run=$n namespace=$ns converged=$RUN_CONVERGED violations=$RUN_VIOLATIONS"
    echo "$result"
  } >"$dir/result.txt"
  printf '    %-22s run %d/%d: violations=%d %s\n' "$scenario" "$n" "$RUNS" "$RUN_VIOLATIONS" "$result"
  grep '^violation ' "$dir/check.txt" | sed 's/^/        /' || true
  grep 'VIOLATION' "$events" | sed 's/^/        /' || true
}

# ---- all runs -----------------------------------------------------------------------------------
declare -A TOTAL_VIOLATIONS TOTAL_CONVERGED
for scenario in "${SCENARIOS[@]}"; do
  say "==> $scenario"
  TOTAL_VIOLATIONS[$scenario]=0 TOTAL_CONVERGED[$scenario]=0
  for n in $(seq 1 "$RUNS"); do
    run_one "$scenario" "$n"
    TOTAL_VIOLATIONS[$scenario]=$(( TOTAL_VIOLATIONS[$scenario] + RUN_VIOLATIONS ))
    TOTAL_CONVERGED[$scenario]=$(( TOTAL_CONVERGED[$scenario] + RUN_CONVERGED ))
  done
done

say ""
status=0
for scenario in "${SCENARIOS[@]}"; do
  line="scenario=$scenario runs=$RUNS violations=${TOTAL_VIOLATIONS[$scenario]} converged=${TOTAL_CONVERGED[$scenario]}"
  say "$line"
  echo "$line" >>"$RUNS_DIR/summary.txt"
  if [ "${TOTAL_VIOLATIONS[$scenario]}" -gt 0 ] || [ "${TOTAL_CONVERGED[$scenario]}" -lt "$RUNS" ]; then status=1; fi
done
say "records: $RUNS_DIR (seed $SEED)"
exit "$status"
