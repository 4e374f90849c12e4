#!/usr/bin/env bash
# Times one webhook start: from the exec to the first /readyz 200 (curl, polled every 10 ms), the
# CPU the process used until then (utime + stime) and its RSS, then stops it. For
# docs/benchmarks-webhook.md ("A static archive and a cheaper key store").
#
#   hack/webhook-start-time.sh LIB_DIR [extra JVM options...]
#
# LIB_DIR holds the webhook's jars as in the image (hack/image-lib.sh webhook; class path
# LIB_DIR/*). The JVM gets -XX:MaxRAM=512m (the chart's memory limit), the chart's
# webhook.jvmOptions and -XX:-UsePerfData (as the image's entry point), then the extra options
# (e.g. -XX:SharedArchiveFile=... from hack/class-data-archive.sh, which needs LIB_DIR given as the
# same absolute path), and the chart's webhook.mallocArenaMax as MALLOC_ARENA_MAX. The webhook
# serves a throwaway certificate (--cert-dir) on 127.0.0.1. Environment: PORT (default 19443), LOG
# (default: a temporary file), WEBHOOK_ARGS (flags instead of --cert-dir, e.g. the chart's secret-mode
# flags; that mode reads the API server named by the environment, as in a pod:
# KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT, and for files outside /var/run/secrets
# KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN, KUBERNETES_CERTS_CA_FILE and KUBERNETES_AUTH_TRYKUBECONFIG=false).
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,/^set -euo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
lib=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-19443}
log=${LOG:-$(mktemp /tmp/webhook-start-XXXXXX.log)}
# shellcheck source=hack/chart-values.lib.sh
. "$root/hack/chart-values.lib.sh"
chart_jvm_settings "$root/charts/tidb-operator/values.yaml" webhook
certs=$(mktemp -d)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$certs/tls.key" -out "$certs/tls.crt" 2>/dev/null

if curl -sk -o /dev/null "https://127.0.0.1:$port/readyz"; then
  echo "something already answers on 127.0.0.1:$port; set PORT" >&2
  exit 1
fi
start=$(date +%s%N)
# shellcheck disable=SC2086 # the chart's options are a space-separated list
java -XX:MaxRAM=512m $JVM_OPTIONS -XX:-UsePerfData "$@" -cp "$lib/*" io.tidb.operator.webhook.WebhookMain \
  --port="$port" --bind-address=127.0.0.1 ${WEBHOOK_ARGS:---cert-dir="$certs"} >"$log" 2>&1 &
pid=$!
# Stopped (SIGTERM) and awaited at exit, so the next run finds the port free.
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$certs"' EXIT
until [ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/readyz")" = 200 ]; do
  kill -0 "$pid" 2>/dev/null || { echo "the webhook exited; its log: $log" >&2; exit 1; }
  sleep 0.01
done
ready=$(date +%s%N)
cpu=$(awk '{print ($14 + $15) * 10}' "/proc/$pid/stat")
rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status")
echo "exec to /readyz $(( (ready - start) / 1000000 )) ms, CPU until ready $cpu ms, RSS $rss MiB, load $(cut -d' ' -f1-3 /proc/loadavg), log $log"
