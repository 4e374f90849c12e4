#!/usr/bin/env bash
# Runs every test: unit tests (*Test, surefire), then integration and end-to-end tests (*IT, failsafe)
# against real Kubernetes components built by hack/build-binaries.sh.
#
#   hack/test.sh [extra Maven arguments, e.g. -o or -pl test-support]
#
# - builds the control-plane binaries if they are not cached yet (seconds when they are);
# - starts the local control plane (hack/control-plane.sh up) for the end-to-end tests unless one is
#   running already, and stops it at the end only if this run started it;
# - points KUBECONFIG at it, so no test can reach another cluster by accident;
# - starts the loopback MariaDB that stands in for TiDB in the TidbInitializer tests
#   (hack/mariadb.sh up), and stops it at the end only if this run started it;
# - runs 'mvn -B --fail-at-end verify' (every module's failures in one run);
# - on a control plane it did not start (kept up between runs), prunes the Released volumes the
#   tests' deleted namespaces left (hack/control-plane.sh prune).
# API-server-only tests (@WithKubeApiServer) start their own etcd + kube-apiserver per test JVM.
set -euo pipefail
cd "$(dirname "$0")/.."

hack/build-binaries.sh >/dev/null

started_here=0
if ! hack/control-plane.sh status >/dev/null 2>&1; then
  started_here=1
fi
kubeconfig=$(hack/control-plane.sh up | tail -n 1)
if [ "$started_here" = 1 ]; then
  trap 'hack/control-plane.sh down' EXIT
fi
export KUBECONFIG=$kubeconfig

mariadb_started_here=0
if ! hack/mariadb.sh status >/dev/null 2>&1; then
  mariadb_started_here=1
fi
hack/mariadb.sh up >/dev/null
if [ "$mariadb_started_here" = 1 ]; then
  if [ "$started_here" = 1 ]; then
    trap 'hack/mariadb.sh down; hack/control-plane.sh down' EXIT
  else
    trap 'hack/mariadb.sh down' EXIT
  fi
fi

status=0
mvn -B --fail-at-end verify "$@" || status=$?
if [ "$started_here" = 0 ]; then
  # The control plane stays up: drop the volumes the tests' deleted namespaces left (Retain).
  hack/control-plane.sh prune || true
fi
exit "$status"
