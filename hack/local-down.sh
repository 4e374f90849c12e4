#!/usr/bin/env bash
# Stops everything hack/local-up.sh started — the controller, the webhook and the PD simulator
# (by their pid files), then the local control plane — and deletes the local run's state
# directory (data, logs, certificates, kubeconfig). Running it when nothing runs is fine.
#
# Environment: TIDB_OPERATOR_LOCAL_RUN_DIR, as for hack/local-up.sh.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${TIDB_OPERATOR_LOCAL_RUN_DIR:-$HOME/.local/share/tidb-operator-java/local-run}
export TIDB_OPERATOR_LOCAL_DIR=$STATE/control-plane

# shellcheck source=hack/local-run.lib.sh
. "$ROOT/hack/local-run.lib.sh"

if [ ! -d "$STATE" ]; then
  echo "Nothing to stop: $STATE does not exist."
  exit 0
fi

echo "==> Stopping the operator processes"
for p in controller webhook pd-simulator; do stop_process "$p"; done

echo "==> Stopping the local control plane"
"$ROOT/hack/control-plane.sh" down 2>&1 | sed 's/^/    /'

rm -rf "$STATE"
echo "==> Removed $STATE. Nothing of the local run is left running."
