#!/usr/bin/env bash
# Crash safety of a BackupSchedule's retention: the controller is SIGKILLed at random instants
# while it deletes the oldest Backups of a schedule (some with cleanPolicy Delete, whose clean Jobs
# must run before they are released) and creates the next scheduled Backup, restarted each time,
# then left to converge; every run is judged from the API server's watch streams of Backups and
# Jobs (e2e RetentionCrashCheck).
#
#   hack/crash-safety-backup.sh [--runs N] [--seeded N] [--max-backups N] [--kills MIN-MAX]
#                               [--delay MIN-MAX] [--converge-timeout S] [--seed N] [--skip-build]
#
#   --runs N              runs, each in a fresh namespace (default 20)
#   --seeded N            Complete Backups of the schedule before retention starts (default 12;
#                         every other one with cleanPolicy Delete, the others Retain)
#   --max-backups N       the schedule's maxBackups once retention starts (default 3)
#   --kills MIN-MAX       SIGKILLs per run, drawn uniformly (default 1-3)
#   --delay MIN-MAX       milliseconds before each kill, drawn uniformly (default 0-3000), counted
#                         from the spec change that starts retention, then from each restart's /readyz
#   --converge-timeout S  after the last restart, how long retention has to finish (default 120)
#   --seed N              seed of the kill schedule (default: from the clock; printed)
#   --skip-build          do not run Maven (use what was built before)
#
# A run: a TidbCluster (paused: only its existence matters) and a paused BackupSchedule with
# schedule "* * * * *", maxBackups 20 and --seeded Complete Backups it owns, created before the
# controller starts (so none gets a Job); the schedule's status says the newest seeded one was the
# last backup, two minutes ago. Then the spec change {pause: false, maxBackups: N}: the controller
# deletes all but the newest N and creates the Backup due now (whose Job kwok completes without a
# result, so it ends Failed), while it is killed. Invariants (see RetentionCrashCheck): never a
# Backup deleted while fewer than maxBackups newer ones were kept, never a running Backup deleted,
# never two Jobs for one Backup and purpose, never a Job for a finished Backup. Converged: exactly
# N Backups left, none being deleted, all Complete or Failed, every Job finished.
#
# Prints one line per run and exactly one summary line
#   scenario=backup-retention runs=N violations=V converged=C kills=K kills-during-clean-up=D
# (D: the kills that landed while Backups were still to be deleted or released, or a Job still ran)
# and exits 1 when violations > 0 or converged < runs (2 for a setup error).
#
# Environment (all optional):
#   CRASH_SAFETY_DIR         state: logs and records of every run
#                            (default ~/.local/share/tidb-operator-java/crash-safety-backup)
#   TIDB_OPERATOR_LOCAL_DIR  the control plane's state (default $CRASH_SAFETY_DIR/control-plane); a
#                            control plane already running there is used and kept, one started here
#                            is stopped at exit
#
# See docs/crash-safety.md for what is checked and how to read a run's records.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${CRASH_SAFETY_DIR:-$HOME/.local/share/tidb-operator-java/crash-safety-backup}
export TIDB_OPERATOR_LOCAL_DIR=${TIDB_OPERATOR_LOCAL_DIR:-$STATE/control-plane}
K8S_VERSION=${K8S_VERSION:-1.36.3}
BIN=${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/k8s/$K8S_VERSION-linux-amd64
CLASSPATH_FILE=$ROOT/e2e/target/operator-classpath.txt
CHECKER_CLASSES=$ROOT/e2e/target/test-classes
CHECKER=io.tidb.operator.e2e.crashsafety.RetentionCrashCheck

RUNS=20
SEEDED=12
MAX_BACKUPS=3
KILLS_MIN=1 KILLS_MAX=3
DELAY_MIN=0 DELAY_MAX=3000
CONVERGE_TIMEOUT=120
SEED=
SKIP_BUILD=0
TC=crash
SCHEDULE=nightly

die() { printf '[crash-safety-backup] ERROR: %s\n' "$*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo pipefail/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; }
range() { # range <option> <value>: sets RANGE_MIN and RANGE_MAX from MIN-MAX
  [[ $2 =~ ^([0-9]+)-([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] \
    || die "$1: invalid value '$2': use MIN-MAX, e.g. 1-3"
  RANGE_MIN=${BASH_REMATCH[1]} RANGE_MAX=${BASH_REMATCH[2]}
}
number() { [[ $2 =~ ^[0-9]+$ ]] || die "$1: invalid value '$2': must be a whole number"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) number "$1" "${2:-}"; RUNS=$2; shift ;;
    --seeded) number "$1" "${2:-}"; SEEDED=$2; shift ;;
    --max-backups) number "$1" "${2:-}"; MAX_BACKUPS=$2; shift ;;
    --kills) range "$1" "${2:-}"; KILLS_MIN=$RANGE_MIN KILLS_MAX=$RANGE_MAX; shift ;;
    --delay) range "$1" "${2:-}"; DELAY_MIN=$RANGE_MIN DELAY_MAX=$RANGE_MAX; shift ;;
    --converge-timeout) number "$1" "${2:-}"; CONVERGE_TIMEOUT=$2; shift ;;
    --seed) number "$1" "${2:-}"; SEED=$2; shift ;;
    --skip-build) SKIP_BUILD=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see $0 --help)" ;;
  esac
  shift
done
[ "$RUNS" -ge 1 ] || die "--runs: must be at least 1"
[ "$MAX_BACKUPS" -ge 1 ] || die "--max-backups: must be at least 1"
[ "$SEEDED" -gt "$MAX_BACKUPS" ] || die "--seeded: must be more than --max-backups ($MAX_BACKUPS), or retention has nothing to delete"
SEED=${SEED:-$(( $(date +%s%N) / 1000 % 32768 ))}
RANDOM=$SEED

for c in java curl jq ss setsid flock; do
  command -v "$c" >/dev/null || die "'$c' is not installed (needed by $0)"
done

mkdir -p "$STATE"
exec 8>"$STATE/lock"
flock -n 8 || die "another hack/crash-safety-backup.sh is running (lock $STATE/lock)"
INVOCATION=$(date +%Y%m%d-%H%M%S)
RUNS_DIR=$STATE/runs/$INVOCATION
mkdir -p "$RUNS_DIR"
ln -sfn "runs/$INVOCATION" "$STATE/latest"
ID=$(date +%H%M%S)   # in namespace names, so a namespace still terminating never collides

say() { printf '%s\n' "$*"; }
now_ms() { date +%s%3N; }
ev() { # ev <text>: one line of the run's timeline (events.log), time since the run started
  local tenths=$(( ($(now_ms) - t0) / 100 ))
  printf '%9s  %s\n' "+$((tenths / 10)).$((tenths % 10))s" "$*" >>"$events"
}

# ---- cleanup: the processes this script started, the control plane only if it started it ------
CONTROLLER_PID=
RECORDER_PIDS=()
STARTED_CONTROL_PLANE=0
cleanup() {
  local rc=$? pid
  trap - EXIT INT TERM
  for pid in $CONTROLLER_PID "${RECORDER_PIDS[@]}"; do
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
  local crd
  for crd in tidbclusters backups backupschedules; do
    [ "$(kc get crd $crd.pingcap.com -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2>/dev/null)" = True ] || return 1
  done
}
for _ in $(seq 1 120); do crd_established && break; sleep 0.5; done
crd_established || die "the CRDs are not Established after 60s"

free_port() {
  local used p
  used=$(ss -Htln | awk '{print $4}' | sed 's/.*://' | sort -u)
  while :; do
    p=$(( 20000 + RANDOM % 12000 ))
    grep -qx "$p" <<<"$used" || { echo "$p"; return; }
  done
}
CONTROLLER_PORT=$(free_port)

say "==> backup-retention: $RUNS run(s); $SEEDED seeded Backups, maxBackups 20 -> $MAX_BACKUPS; kills $KILLS_MIN-$KILLS_MAX per run, $DELAY_MIN-${DELAY_MAX}ms apart; seed $SEED"
say "    records of every run: $RUNS_DIR"

# ---- processes ----------------------------------------------------------------------------------
start_controller() { # start_controller <namespace> <log>
  setsid java -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -cp "$CP" io.tidb.operator.controller.ControllerMain \
    --kubeconfig="$KUBECONFIG_FILE" --port="$CONTROLLER_PORT" --bind=127.0.0.1 --watch-namespaces="$1" \
    </dev/null >"$2" 2>&1 8>&- &
  CONTROLLER_PID=$!
}
controller_ready() { # false if the controller exited or took more than 120 s
  local deadline=$(( $(date +%s) + 120 ))
  until curl -fsS --max-time 2 "http://127.0.0.1:$CONTROLLER_PORT/readyz" >/dev/null 2>&1; do
    kill -0 "$CONTROLLER_PID" 2>/dev/null || return 1
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}
sigkill() { kill -KILL "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
stop_gracefully() { # SIGTERM, SIGKILL after 20 s
  local i
  kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
  kill -TERM "$1" 2>/dev/null || true
  for i in $(seq 1 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
  sigkill "$1"
}

# ---- manifests ----------------------------------------------------------------------------------
name_time() { date -u -d "@$1" +%Y-%m-%dt%H-%M-%S; }
iso_time() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }

# The seeded Backups: spec and ownership (seeds.yaml), then their status (seeds-status.yaml).
seed_manifests() { # seed_manifests <dir> <schedule uid> <newest epoch>
  local i at name policy
  : >"$1/seeds.yaml"; : >"$1/seeds-status.yaml"
  for i in $(seq 1 "$SEEDED"); do
    at=$(( $3 - (SEEDED - i) * 60 ))
    name=$SCHEDULE-$(name_time "$at")
    if [ $((i % 2)) = 0 ]; then policy=Delete; else policy=Retain; fi
    cat >>"$1/seeds.yaml" <<EOF
---
apiVersion: pingcap.com/v1alpha1
kind: Backup
metadata:
  name: $name
  labels:
    app.kubernetes.io/managed-by: tidb-operator
    tidb.pingcap.com/backup-schedule: $SCHEDULE
  annotations:
    tidb.pingcap.com/backup-scheduled-at: "$(iso_time "$at")"
  ownerReferences:
  - apiVersion: pingcap.com/v1alpha1
    kind: BackupSchedule
    name: $SCHEDULE
    uid: $2
    controller: true
    blockOwnerDeletion: true
spec:
  cleanPolicy: $policy
  br: {cluster: $TC}
  s3: {provider: aws, region: us-east-1, endpoint: "http://127.0.0.1:9", bucket: backups, prefix: "sched/$name"}
EOF
    cat >>"$1/seeds-status.yaml" <<EOF
---
apiVersion: pingcap.com/v1alpha1
kind: Backup
metadata: {name: $name}
status:
  phase: Complete
  backupPath: "s3://backups/sched/$name"
  timeStarted: "$(iso_time "$at")"
  timeCompleted: "$(iso_time $((at + 30)))"
  commitTs: "$((440000000000000000 + at))"
EOF
  done
}

cluster_and_schedule() {
  cat <<EOF
apiVersion: pingcap.com/v1alpha1
kind: TidbCluster
metadata: {name: $TC}
spec:
  version: v8.5.0
  paused: true
  pd: {baseImage: pingcap/pd, replicas: 1, requests: {storage: 1Gi}}
  tikv: {baseImage: pingcap/tikv, replicas: 1, requests: {storage: 1Gi}}
  tidb: {baseImage: pingcap/tidb, replicas: 1}
---
apiVersion: pingcap.com/v1alpha1
kind: BackupSchedule
metadata: {name: $SCHEDULE}
spec:
  schedule: "* * * * *"
  pause: true
  maxBackups: 20
  backupTemplate:
    cleanPolicy: Delete
    br: {cluster: $TC}
    s3: {provider: aws, region: us-east-1, endpoint: "http://127.0.0.1:9", bucket: backups, prefix: sched}
EOF
}

# ---- observation ------------------------------------------------------------------------------
# One line: how many Backups of the schedule are kept / being deleted, and the unfinished Jobs.
snapshot() { # snapshot <namespace>
  { kc -n "$1" get backups -l tidb.pingcap.com/backup-schedule=$SCHEDULE -o json 2>/dev/null || echo '{"items":[]}'
    kc -n "$1" get jobs -o json 2>/dev/null || echo '{"items":[]}'
  } | jq -rs '. as [$b, $j] |
    "backups kept=\([$b.items[] | select(.metadata.deletionTimestamp == null)] | length)" +
    " deleting=\([$b.items[] | select(.metadata.deletionTimestamp != null)] | length)" +
    " jobs=\([$j.items[] | select(.metadata.ownerReferences // [] | any(.kind == "Backup"))] | length)"' 2>/dev/null || echo "snapshot failed"
}
# Every reason the run has not converged, one per line; nothing when it has.
not_converged() { # not_converged <namespace>
  { kc -n "$1" get backups -l tidb.pingcap.com/backup-schedule=$SCHEDULE -o json 2>/dev/null || echo '{"items":[]}'
    kc -n "$1" get jobs -o json 2>/dev/null || echo '{"items":[]}'
  } | jq -rs --argjson max "$MAX_BACKUPS" '. as [$b, $j] |
    ([$b.items[] | select(.metadata.deletionTimestamp == null)]) as $kept |
    (if ($kept | length) != $max then "\($kept | length) Backups kept, want \($max)" else empty end),
    ($b.items[] | select(.metadata.deletionTimestamp != null) | "Backup \(.metadata.name) being deleted"),
    ($kept[] | select((.status.phase // "") as $p | ($p != "Complete" and $p != "Failed")) |
       "Backup \(.metadata.name) in phase \(.status.phase // "(none)")"),
    ($j.items[] | select(.metadata.ownerReferences // [] | any(.kind == "Backup")) |
       select([.status.conditions // [] | .[] | select((.type == "Complete" or .type == "Failed") and .status == "True")] | length == 0) |
       "Job \(.metadata.name) not finished")' 2>&1 || echo "cannot judge convergence"
}

# ---- one run ------------------------------------------------------------------------------------
RUN_VIOLATIONS=0
RUN_CONVERGED=0
RUN_KILLS=0
RUN_KILLS_DURING=0
run_one() { # run_one <n>
  local n=$1 ns=csb-$ID-$1 dir=$RUNS_DIR/backup-retention-$1
  local events t0 starts=0 kills delay k code extra_violations=0 reasons="" deadline uid newest
  local result schedule="" last="" checked i during
  mkdir -p "$dir"
  events=$dir/events.log
  RUN_VIOLATIONS=0 RUN_CONVERGED=0 RUN_KILLS=0 RUN_KILLS_DURING=0
  t0=$(now_ms)
  ev "namespace $ns: TidbCluster $TC (paused), BackupSchedule $SCHEDULE (paused), $SEEDED seeded Backups"

  kc create namespace "$ns" >/dev/null
  cluster_and_schedule >"$dir/schedule.yaml"
  kc -n "$ns" apply -f "$dir/schedule.yaml" >/dev/null
  uid=$(kc -n "$ns" get backupschedule "$SCHEDULE" -o jsonpath='{.metadata.uid}')
  newest=$(( $(date +%s) / 60 * 60 - 120 ))
  seed_manifests "$dir" "$uid" "$newest"
  kc -n "$ns" create -f "$dir/seeds.yaml" >/dev/null
  kc -n "$ns" apply --server-side --subresource=status --field-manager=crash-safety-seed -f "$dir/seeds-status.yaml" >/dev/null
  kc -n "$ns" patch backupschedule "$SCHEDULE" --subresource=status --type=merge \
    -p "{\"status\":{\"lastBackup\":\"$SCHEDULE-$(name_time "$newest")\",\"lastBackupTime\":\"$(iso_time "$newest")\"}}" >/dev/null
  ev "seeded $SEEDED Complete Backups, the newest $SCHEDULE-$(name_time "$newest"); schedule status lastBackupTime $(iso_time "$newest")"

  start_controller "$ns" "$dir/controller-$starts.log"
  controller_ready || { tail -n 20 "$dir/controller-$starts.log" >&2; die "the controller did not start (log: $dir/controller-$starts.log)"; }
  ev "controller pid $CONTROLLER_PID ready"
  # Every seeded Backup carries the finalizer before retention starts, so deletions go through it.
  deadline=$(( $(date +%s) + 60 ))
  until [ "$(kc -n "$ns" get backups -o json | jq '[.items[] | select(.metadata.finalizers // [] | length > 0)] | length')" = "$SEEDED" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || die "the seeded Backups of $ns have no finalizer after 60s (log: $dir/controller-$starts.log)"
    sleep 0.5
  done
  # The recorders: a watch each, from a list; a sentinel Job (no Backup owns it) shows the Job watch is up.
  setsid "$BIN/kubectl" -n "$ns" get backups -w --output-watch-events -o json >"$dir/backups.json" 2>"$dir/backups-watch.err" </dev/null 8>&- &
  RECORDER_PIDS=($!)
  setsid "$BIN/kubectl" -n "$ns" get jobs -w --output-watch-events -o json >"$dir/jobs.json" 2>"$dir/jobs-watch.err" </dev/null 8>&- &
  RECORDER_PIDS+=($!)
  kc -n "$ns" create job recorder-sentinel --image=busybox -- true >/dev/null 2>&1 || true
  deadline=$(( $(date +%s) + 30 ))
  until [ "$(grep -o '"type": *"ADDED"' "$dir/backups.json" 2>/dev/null | wc -l)" -ge "$SEEDED" ] \
        && grep -q '"name": *"recorder-sentinel"' "$dir/jobs.json" 2>/dev/null; do
    [ "$(date +%s)" -lt "$deadline" ] || die "the watch recorders of $ns did not start in 30s ($dir/*-watch.err)"
    sleep 0.2
  done
  ev "recorders up: $(snapshot "$ns")"

  kc -n "$ns" patch backupschedule "$SCHEDULE" --type=merge -p "{\"spec\":{\"pause\":false,\"maxBackups\":$MAX_BACKUPS}}" >/dev/null
  ev "retention started: pause false, maxBackups $MAX_BACKUPS"

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
      RUN_KILLS=$((RUN_KILLS + 1))
      # Whether this kill landed while retention (or a Job it started) was still unfinished.
      if [ -n "$(not_converged "$ns")" ]; then RUN_KILLS_DURING=$((RUN_KILLS_DURING + 1)) during=during; else during=after; fi
      ev "kill $k/$kills: SIGKILL pid $CONTROLLER_PID, ${delay}ms after the last (re)start, $during the clean-up; $(snapshot "$ns")"
    fi
    starts=$((starts + 1))
    start_controller "$ns" "$dir/controller-$starts.log"
    if controller_ready; then
      ev "restart $starts: controller pid $CONTROLLER_PID ready"
    else
      ev "restart $starts: controller pid $CONTROLLER_PID NOT ready after 120s (or exited)"
    fi
  done

  deadline=$(( $(date +%s) + CONVERGE_TIMEOUT ))
  while :; do
    reasons=$(not_converged "$ns")
    if [ -z "$reasons" ]; then RUN_CONVERGED=1; break; fi
    [ "$reasons" = "$last" ] || { ev "waiting: ${reasons//$'\n'/; }"; last=$reasons; }
    if ! kill -0 "$CONTROLLER_PID" 2>/dev/null; then
      wait "$CONTROLLER_PID" 2>/dev/null && code=0 || code=$?
      ev "VIOLATION controller-exited: pid $CONTROLLER_PID exited by itself (code $code) while converging; restarting it"
      extra_violations=$((extra_violations + 1))
      starts=$((starts + 1))
      start_controller "$ns" "$dir/controller-$starts.log"
    fi
    [ "$(date +%s)" -lt "$deadline" ] || break
    sleep 1
  done
  if [ "$RUN_CONVERGED" = 1 ]; then
    ev "CONVERGED: $(snapshot "$ns")"
    result="converged"
  else
    ev "NOT CONVERGED after ${CONVERGE_TIMEOUT}s: ${reasons//$'\n'/; }"
    result="not converged after ${CONVERGE_TIMEOUT}s: ${reasons//$'\n'/; }"
  fi
  result="kills=$kills (${schedule# }; $RUN_KILLS_DURING during the clean-up) $result"

  # Records: stop the controller, then the recorders once they have seen the last state.
  stop_gracefully "$CONTROLLER_PID"
  CONTROLLER_PID=
  sleep 1   # the watches deliver what the API server already committed; they are stopped after
  for i in "${RECORDER_PIDS[@]}"; do sigkill "$i"; done
  RECORDER_PIDS=()
  kc -n "$ns" get backupschedules,backups,jobs -o yaml >"$dir/objects.yaml" 2>&1 || true
  kc -n "$ns" get events --sort-by=.lastTimestamp >"$dir/k8s-events.txt" 2>&1 || true
  kc delete namespace "$ns" --wait=false >/dev/null 2>&1 || true

  code=0
  java -cp "$CHECKER_CLASSES:$CP" "$CHECKER" --run-dir="$dir" --schedule="$SCHEDULE" --max-backups="$MAX_BACKUPS" \
    >"$dir/check.txt" 2>&1 8>&- || code=$?
  checked=$(sed -n 's/^violations=//p' "$dir/check.txt")
  if [ "$code" -gt 1 ] || [ -z "$checked" ]; then
    ev "the checker failed (exit $code): see check.txt"
    checked=1
  fi
  RUN_VIOLATIONS=$((checked + extra_violations))
  ev "checker: $RUN_VIOLATIONS violation(s); $(grep '^deleted=' "$dir/check.txt" || true)"
  {
    echo "scenario=backup-retention run=$n namespace=$ns converged=$RUN_CONVERGED violations=$RUN_VIOLATIONS"
    echo "$result"
  } >"$dir/result.txt"
  printf '    backup-retention run %d/%d: violations=%d %s; %s\n' "$n" "$RUNS" "$RUN_VIOLATIONS" "$result" \
    "$(grep '^deleted=' "$dir/check.txt" | sed 's/ kept=.* jobs=/ jobs=/' || true)"
  grep '^violation ' "$dir/check.txt" | sed 's/^/        /' || true
  grep 'VIOLATION' "$events" | sed 's/^/        /' || true
}

# ---- all runs -----------------------------------------------------------------------------------
say "==> backup-retention"
TOTAL_VIOLATIONS=0 TOTAL_CONVERGED=0 TOTAL_KILLS=0 TOTAL_KILLS_DURING=0
for n in $(seq 1 "$RUNS"); do
  run_one "$n"
  TOTAL_VIOLATIONS=$(( TOTAL_VIOLATIONS + RUN_VIOLATIONS ))
  TOTAL_CONVERGED=$(( TOTAL_CONVERGED + RUN_CONVERGED ))
  TOTAL_KILLS=$(( TOTAL_KILLS + RUN_KILLS ))
  TOTAL_KILLS_DURING=$(( TOTAL_KILLS_DURING + RUN_KILLS_DURING ))
done
say ""
line="scenario=backup-retention runs=$RUNS violations=$TOTAL_VIOLATIONS converged=$TOTAL_CONVERGED kills=$TOTAL_KILLS kills-during-clean-up=$TOTAL_KILLS_DURING"
say "$line"
echo "$line" >>"$RUNS_DIR/summary.txt"
say "records: $RUNS_DIR (seed $SEED)"
[ "$TOTAL_VIOLATIONS" = 0 ] && [ "$TOTAL_CONVERGED" = "$RUNS" ]
