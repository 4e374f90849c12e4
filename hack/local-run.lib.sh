# Shared by hack/local-up.sh and hack/local-down.sh: the local run's processes and its progress view.
# Expects STATE (the local run's state directory) and, for kubectl, BIN and KUBECONFIG.
# shellcheck shell=bash

die() { printf '[local-run] ERROR: %s\n' "$*" >&2; exit 1; }

# ---- ports --------------------------------------------------------------------------------------

# Free ports for the webhook, the PD simulator and the controller's HTTP server, chosen once and
# reused by later runs (so the webhook URL in the webhook configurations stays valid).
pick_ports() {
  local used name p picked=""
  if [ -f "$STATE/ports" ]; then return 0; fi
  used=$(ss -Htln | awk '{print $4}' | sed 's/.*://' | sort -u)
  : >"$STATE/ports.tmp"
  for name in WEBHOOK_PORT PDSIM_PORT CONTROLLER_PORT; do
    while :; do
      p=$(( 20000 + RANDOM % 12000 ))
      if ! grep -qx "$p" <<<"$used"$'\n'"$picked"; then break; fi
    done
    picked="$picked"$'\n'"$p"
    echo "$name=$p" >>"$STATE/ports.tmp"
  done
  mv "$STATE/ports.tmp" "$STATE/ports"
}

# ---- processes ----------------------------------------------------------------------------------

# A process counts as ours only if its pid is alive and its command line still names the recorded
# main class (guards against a reused pid).
process_running() {
  local name=$1 pid main
  pid=$(cat "$STATE/pids/$name.pid" 2>/dev/null) || return 1
  main=$(cat "$STATE/pids/$name.main" 2>/dev/null) || return 1
  [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$main"
}

# start_process <name> <main class> <args...>: java in the background, in its own session so it
# outlives this script; stdout and stderr go to $STATE/logs/<name>.log. Needs CP (the classpath).
start_process() {
  local name=$1 main=$2; shift 2
  setsid java -XX:+ExitOnOutOfMemoryError -cp "$CP" "$main" "$@" </dev/null >"$STATE/logs/$name.log" 2>&1 &
  echo $! >"$STATE/pids/$name.pid"
  echo "$main" >"$STATE/pids/$name.main"
}

# stop_process <name>: SIGTERM (graceful shutdown), SIGKILL after 20 s; forgets the pid files.
stop_process() {
  local name=$1 pid
  pid=$(cat "$STATE/pids/$name.pid" 2>/dev/null) || return 0
  if process_running "$name"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
      process_running "$name" || break
      sleep 0.2
    done
    if process_running "$name"; then
      printf '    %s (pid %s) ignored SIGTERM for 20s; sending SIGKILL\n' "$name" "$pid"
      kill -KILL "$pid" 2>/dev/null || true
      # SIGKILL is delivered asynchronously: return only once the process is really gone.
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
    fi
    printf '    stopped %s (pid %s)\n' "$name" "$pid"
  fi
  rm -f "$STATE/pids/$name.pid" "$STATE/pids/$name.main"
}

# wait_until <what> <process whose log explains a failure> <timeout s> <command...>
wait_until() {
  local what=$1 name=$2 timeout=$3; shift 3
  local deadline=$(( $(date +%s) + timeout ))
  printf '    waiting for %s ...\n' "$what"
  until "$@" >/dev/null 2>&1; do
    if ! process_running "$name"; then
      tail -n 30 "$STATE/logs/$name.log" >&2
      die "$name exited while waiting for $what (log: $STATE/logs/$name.log)"
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      tail -n 30 "$STATE/logs/$name.log" >&2
      die "timed out after ${timeout}s waiting for $what (log: $STATE/logs/$name.log)"
    fi
    sleep 0.5
  done
}

# True when both webhook configurations carry a non-empty caBundle in every webhook.
ca_bundles_injected() {
  local kind bundles
  for kind in validatingwebhookconfiguration mutatingwebhookconfiguration; do
    bundles=$("$BIN/kubectl" get "$kind" "$WEBHOOK_CONFIG" -o jsonpath='{range .webhooks[*]}[{.clientConfig.caBundle}]{end}')
    [ -n "$bundles" ] && ! grep -q '\[\]' <<<"$bundles" || return 1
  done
}

# ---- progress view ------------------------------------------------------------------------------

# One line per object: "<kind>/<name> <state>", for the objects a TidbCluster brings.
SNAPSHOT_TEMPLATE='{{range .items}}{{.kind}}/{{.metadata.name}}
{{- if eq .kind "TidbCluster"}}{{with .status}}{{range .conditions}}{{if eq .type "Ready"}} Ready={{.status}} ({{.reason}}){{end}}{{end}}{{end}}
{{- else if eq .kind "Pod"}} {{with .status}}{{.phase}}{{range .conditions}}{{if eq .type "Ready"}}, ready={{.status}}{{end}}{{end}}{{end}}
{{- else if or (eq .kind "StatefulSet") (eq .kind "Deployment")}} {{with .status}}{{or .readyReplicas 0}}{{end}}/{{.spec.replicas}} ready
{{- else if eq .kind "PersistentVolumeClaim"}} {{with .status}}{{.phase}}{{end}}
{{- else if eq .kind "Service"}} {{or .spec.clusterIP ""}}
{{- end}}{{"\n"}}{{end}}'

snapshot() {
  "$BIN/kubectl" -n "$1" get tidbclusters,deployments,statefulsets,pods,persistentvolumeclaims,services,configmaps \
    -o go-template="$SNAPSHOT_TEMPLATE" 2>/dev/null | grep -v '^ConfigMap/kube-root-ca.crt' | sort
}

# Prints what appeared (+), changed (~) and went away (-) between two snapshots.
print_changes() {
  awk -v t="$3" '
    FILENAME == ARGV[1] { key = $1; $1 = ""; before[key] = $0; next }
    { key = $1; $1 = ""; now[key] = $0
      if (!(key in before)) printf "  %6s  + %-45s%s\n", t, key, $0
      else if (before[key] != $0) printf "  %6s  ~ %-45s%s\n", t, key, $0 }
    END { for (k in before) if (!(k in now)) printf "  %6s  - %s\n", t, k }
  ' "$1" "$2"
}

# watch_until_ready <namespace> <tidbcluster> <timeout s>: prints object changes and what the
# cluster waits for (its Ready condition's message) until Ready=True.
watch_until_ready() {
  local ns=$1 tc=$2 timeout=$3 t0 now ready message last_message="" status
  t0=$(date +%s)
  : >"$STATE/snapshot.prev"
  while :; do
    now=$(( $(date +%s) - t0 ))
    snapshot "$ns" >"$STATE/snapshot.now" || true
    print_changes "$STATE/snapshot.prev" "$STATE/snapshot.now" "+${now}s"
    mv "$STATE/snapshot.now" "$STATE/snapshot.prev"
    # One read for both, so the status and the message belong together.
    ready=$("$BIN/kubectl" -n "$ns" get tc "$tc" \
      -o jsonpath='{range .status.conditions[?(@.type=="Ready")]}{.status}|{.message}{end}' 2>/dev/null || true)
    status=${ready%%|*}
    message=${ready#*|}
    if [ -n "$message" ] && [ "$message" != "$last_message" ]; then
      printf '  %6s    %s: %s\n' "+${now}s" "$([ "$status" = True ] && echo ready || echo waiting)" "$message"
      last_message=$message
    fi
    if [ "$status" = True ]; then
      printf '\n    TidbCluster %s/%s is Ready after %ss.\n' "$ns" "$tc" "$now"
      return 0
    fi
    for p in controller webhook pd-simulator; do
      process_running "$p" || die "$p exited (log: $STATE/logs/$p.log)"
    done
    if [ "$now" -ge "$timeout" ]; then
      die "TidbCluster $ns/$tc is not Ready after ${timeout}s (last: ${last_message:-no Ready condition yet}).
    Everything is left running to look at: export KUBECONFIG=$KUBECONFIG; logs in $STATE/logs/"
    fi
    sleep 2
  done
}
