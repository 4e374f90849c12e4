#!/usr/bin/env bash
# Times one controller start: from the exec to the first /readyz 200 (polled every 20 ms), and the
# CPU the process used until then (utime + stime), then stops it. For docs/benchmarks-controller.md
# ("Start with a class-data sharing archive").
#
#   hack/controller-start-time.sh LIB_DIR NAMESPACE [extra JVM options...]
#
# LIB_DIR holds the controller's jars as in the image (class path LIB_DIR/*); NAMESPACE is the one
# namespace watched. The JVM gets the chart's controller.jvmOptions after -XX:MaxRAM=512m (its memory
# limit), then the extra options (e.g. -XX:SharedArchiveFile=...), and the chart's
# controller.mallocArenaMax as MALLOC_ARENA_MAX. Uses KUBECONFIG (default: the local control
# plane's). Environment: PORT (default 18089), LOG (default: a temporary file).
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,/^set -euo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
lib=$1 namespace=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
kubeconfig=${KUBECONFIG:-$HOME/.local/share/tidb-operator-java/control-plane/kubeconfig}
port=${PORT:-18089}
log=${LOG:-$(mktemp /tmp/controller-start-XXXXXX.log)}
# shellcheck source=hack/chart-values.lib.sh
. "$root/hack/chart-values.lib.sh"
chart_jvm_settings "$root/charts/tidb-operator/values.yaml" controller

if curl -s -o /dev/null "http://127.0.0.1:$port/readyz"; then
  echo "something already answers on 127.0.0.1:$port; set PORT" >&2
  exit 1
fi
start=$(date +%s%N)
# shellcheck disable=SC2086 # the chart's options are a space-separated list
java -XX:MaxRAM=512m $JVM_OPTIONS -XX:-UsePerfData "$@" -cp "$lib/*" io.tidb.operator.controller.ControllerMain \
  --kubeconfig="$kubeconfig" --watch-namespaces="$namespace" --bind=127.0.0.1 --port="$port" \
  --log-level=info >"$log" 2>&1 &
pid=$!
# Stopped (SIGTERM) and awaited at exit, so the next run finds the port free.
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do
  kill -0 "$pid" 2>/dev/null || { echo "the controller exited; its log: $log" >&2; exit 1; }
  sleep 0.02
done
ready=$(date +%s%N)
cpu=$(awk '{print ($14 + $15) * 10}' "/proc/$pid/stat")
echo "exec to /readyz $(( (ready - start) / 1000000 )) ms, CPU until ready $cpu ms, load $(cut -d' ' -f1-3 /proc/loadavg), log $log"
