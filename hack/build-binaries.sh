#!/usr/bin/env bash
# Builds the pinned Kubernetes control-plane binaries used by tests and the local run,
# from Go modules (no container engine, no release downloads).
#
# Output layout (kube-api-test's):  $KUBE_API_TEST_DIR/k8s/<k8s-version>-linux-amd64/
#   kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok helm prometheus promtool
#   fake-gcs-server   Google Cloud Storage emulator (Go module), for the backup clean-up tests
#   azurite-blob      Azure Blob Storage emulator (npm package azurite, run with Node.js), same use
#   kwok-stages/   kwok's stage definitions from its module (hack/control-plane.sh uses them)
# A second run with everything present does nothing (and does not need Go).
# Each tool is built in its own wrapper module under $TIDB_OPERATOR_BUILD_DIR
# (default ~/.cache/tidb-operator-java/wrappers) with GOTOOLCHAIN=local, so nothing fetches a newer Go.
# Caches: GOMODCACHE (~1.5 GB) and GOCACHE (~4.2 GB) at Go's defaults; binaries ~470 MB.
# Linux amd64 only. Measured cold on 2 cores: about 36 minutes (see docs/development.md).
set -euo pipefail

K8S_VERSION=${K8S_VERSION:-1.36.3}
K8S_MINOR=$(echo "$K8S_VERSION" | cut -d. -f2)
STAGING_VERSION=0.${K8S_MINOR}.$(echo "$K8S_VERSION" | cut -d. -f3)
ETCD_VERSION=${ETCD_VERSION:-3.6.16}
KWOK_VERSION=${KWOK_VERSION:-0.8.0}
HELM_VERSION=${HELM_VERSION:-3.22.0}
# Prometheus 2.53 (LTS) is Go module v0.53.x. Debian's prometheus package is built without
# kubernetes_sd_configs, which the TidbMonitor configuration uses, so the tests need upstream's.
PROMETHEUS_VERSION=${PROMETHEUS_VERSION:-0.53.4}
# Storage emulators the backup clean-up tests delete objects from, through Google's and Azure's SDKs.
FAKE_GCS_SERVER_VERSION=${FAKE_GCS_SERVER_VERSION:-1.52.2}
AZURITE_VERSION=${AZURITE_VERSION:-3.35.0}

TEST_DIR=${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}
BIN=$TEST_DIR/k8s/$K8S_VERSION-linux-amd64
WRAP=${TIDB_OPERATOR_BUILD_DIR:-$HOME/.cache/tidb-operator-java/wrappers}

log() { printf '[build-binaries] %s\n' "$*" >&2; }

have() { [ -x "$BIN/$1" ] && [ -f "$BIN/.stamp-$1-$2" ]; }
stamp() { rm -f "$BIN"/.stamp-"$1"-*; touch "$BIN/.stamp-$1-$2"; }

if have kube-apiserver "$K8S_VERSION" && have kube-controller-manager "$K8S_VERSION" \
   && have kube-scheduler "$K8S_VERSION" && have kubectl "$K8S_VERSION" \
   && have etcd "$ETCD_VERSION" && have kwok "$KWOK_VERSION" && have helm "$HELM_VERSION" \
   && have prometheus "$PROMETHEUS_VERSION" && have promtool "$PROMETHEUS_VERSION" \
   && have fake-gcs-server "$FAKE_GCS_SERVER_VERSION" && have azurite-blob "$AZURITE_VERSION"; then
  log "all binaries present in $BIN"
  echo "$BIN"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  log "Go is not installed (need Go >= 1.26 on PATH) and binaries are missing in $BIN. Install Go and run again."
  exit 1
fi
# GOTOOLCHAIN=local below: an older Go must fail here, clearly, rather than try to download a toolchain.
go_version=$(GOTOOLCHAIN=local go env GOVERSION)
go_minor=$(echo "$go_version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$go_minor" ] || [ "$go_minor" -lt 26 ]; then
  log "found $go_version; these modules need Go >= 1.26 (go.mod says go 1.26.0). Install a newer Go and run again."
  exit 1
fi

export GOTOOLCHAIN=local GOFLAGS=-modcacherw CGO_ENABLED=0
mkdir -p "$BIN" "$WRAP"
start=$(date +%s)
step_start=$start
# Logs how long the step took and the total so far.
step_done() {
  local now; now=$(date +%s)
  log "$1 done in $(( now - step_start ))s (total $(( now - start ))s)"
  step_start=$now
}

# --- kube-apiserver, kube-controller-manager, kube-scheduler, kubectl --------------------------
K8S_CMDS="kube-apiserver kube-controller-manager kube-scheduler kubectl"
need_k8s=0
for c in $K8S_CMDS; do have "$c" "$K8S_VERSION" || need_k8s=1; done
if [ "$need_k8s" = 1 ]; then
  log "building $K8S_CMDS v$K8S_VERSION (staging modules v$STAGING_VERSION)"
  d=$WRAP/k8s-$K8S_VERSION; rm -rf "$d"; mkdir -p "$d"; cd "$d"
  printf 'module local.invalid/k8sbins\n\ngo 1.26.0\n' > go.mod
  gomod=$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
  [ -f "$gomod" ] || { log "could not download k8s.io/kubernetes@v$K8S_VERSION"; exit 1; }
  # Every staging module the root go.mod replaces with ./staging/... must point at the published one.
  for m in $(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' "$gomod"); do
    go mod edit -replace="$m=$m@v$STAGING_VERSION"
  done
  for c in $K8S_CMDS; do go get -tool "k8s.io/kubernetes/cmd/$c@v$K8S_VERSION"; done
  ld="-s -w"
  bd=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $p.gitVersion=v$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$K8S_MINOR -X $p.gitTreeState=clean -X $p.buildDate=$bd"
  done
  pkgs=""; for c in $K8S_CMDS; do pkgs="$pkgs k8s.io/kubernetes/cmd/$c"; done
  # shellcheck disable=SC2086
  go build -trimpath -ldflags "$ld" -o "$BIN/" $pkgs
  for c in $K8S_CMDS; do stamp "$c" "$K8S_VERSION"; done
  step_done "kubernetes binaries"
fi

# --- etcd ----------------------------------------------------------------------------------------
if ! have etcd "$ETCD_VERSION"; then
  log "building etcd v$ETCD_VERSION"
  d=$WRAP/etcd-$ETCD_VERSION; rm -rf "$d"; mkdir -p "$d"; cd "$d"
  printf 'module local.invalid/etcdbin\n\ngo 1.26.0\n' > go.mod
  go get -tool "go.etcd.io/etcd/server/v3@v$ETCD_VERSION"
  go build -trimpath -ldflags "-s -w" -o "$BIN/etcd" go.etcd.io/etcd/server/v3
  stamp etcd "$ETCD_VERSION"
  step_done etcd
fi

# --- kwok ----------------------------------------------------------------------------------------
if ! have kwok "$KWOK_VERSION"; then
  log "building kwok v$KWOK_VERSION"
  d=$WRAP/kwok-$KWOK_VERSION; rm -rf "$d"; mkdir -p "$d"; cd "$d"
  printf 'module local.invalid/kwokbin\n\ngo 1.26.0\n' > go.mod
  go get -tool "sigs.k8s.io/kwok/cmd/kwok@v$KWOK_VERSION"
  go build -trimpath -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=v$KWOK_VERSION" -o "$BIN/kwok" sigs.k8s.io/kwok/cmd/kwok
  # kwok has no built-in stages: keep the stage definitions from the module beside the binary.
  src=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage
  rm -rf "$BIN/kwok-stages"; mkdir -p "$BIN/kwok-stages"; cp -r "$src"/. "$BIN/kwok-stages/"; chmod -R u+w "$BIN/kwok-stages"
  stamp kwok "$KWOK_VERSION"
  step_done kwok
fi

# --- helm ----------------------------------------------------------------------------------------
if ! have helm "$HELM_VERSION"; then
  log "building helm v$HELM_VERSION"
  d=$WRAP/helm-$HELM_VERSION; rm -rf "$d"; mkdir -p "$d"; cd "$d"
  printf 'module local.invalid/helmbin\n\ngo 1.26.0\n' > go.mod
  go get -tool "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"
  h=helm.sh/helm/v3
  go build -trimpath -ldflags "-s -w -X $h/internal/version.version=v$HELM_VERSION \
    -X $h/pkg/chartutil.k8sVersionMajor=1 -X $h/pkg/chartutil.k8sVersionMinor=$K8S_MINOR \
    -X $h/pkg/lint/rules.k8sVersionMajor=1 -X $h/pkg/lint/rules.k8sVersionMinor=$K8S_MINOR" \
    -o "$BIN/helm" "$h/cmd/helm"
  stamp helm "$HELM_VERSION"
  step_done helm
fi

# --- prometheus, promtool ------------------------------------------------------------------------
if ! have prometheus "$PROMETHEUS_VERSION" || ! have promtool "$PROMETHEUS_VERSION"; then
  log "building prometheus and promtool (module v$PROMETHEUS_VERSION)"
  cd "$WRAP"
  # Its go.mod has replace directives, so it is built as the main module from a copy of its source.
  src=$(go mod download -json "github.com/prometheus/prometheus@v$PROMETHEUS_VERSION" | sed -n 's/.*"Dir": "\(.*\)",*/\1/p')
  [ -d "$src" ] || { log "could not download github.com/prometheus/prometheus@v$PROMETHEUS_VERSION"; exit 1; }
  d=$WRAP/prometheus-$PROMETHEUS_VERSION; rm -rf "$d"; cp -r "$src" "$d"; chmod -R u+w "$d"; cd "$d"
  p=github.com/prometheus/common/version
  go build -trimpath -ldflags "-s -w -X $p.Version=2${PROMETHEUS_VERSION#0} -X $p.Branch=module" \
    -o "$BIN/" ./cmd/prometheus ./cmd/promtool
  stamp prometheus "$PROMETHEUS_VERSION"; stamp promtool "$PROMETHEUS_VERSION"
  step_done prometheus
fi

# --- fake-gcs-server ----------------------------------------------------------------------------
if ! have fake-gcs-server "$FAKE_GCS_SERVER_VERSION"; then
  log "building fake-gcs-server v$FAKE_GCS_SERVER_VERSION"
  cd "$WRAP"
  GOBIN="$BIN" go install -trimpath -ldflags "-s -w" \
    "github.com/fsouza/fake-gcs-server@v$FAKE_GCS_SERVER_VERSION"
  stamp fake-gcs-server "$FAKE_GCS_SERVER_VERSION"
  step_done fake-gcs-server
fi

# --- azurite (blob service) -----------------------------------------------------------------------
if ! have azurite-blob "$AZURITE_VERSION"; then
  command -v npm >/dev/null 2>&1 || { log "npm is not installed (needed for azurite); install Node.js and npm"; exit 1; }
  log "installing azurite $AZURITE_VERSION from npm"
  d=$WRAP/azurite-$AZURITE_VERSION; rm -rf "$d"; mkdir -p "$d"
  npm install --prefix "$d" --no-audit --no-fund --loglevel=error "azurite@$AZURITE_VERSION" >&2
  printf '#!/bin/sh\nexec node "%s/node_modules/azurite/dist/src/blob/main.js" "$@"\n' "$d" > "$BIN/azurite-blob"
  chmod +x "$BIN/azurite-blob"
  stamp azurite-blob "$AZURITE_VERSION"
  step_done azurite
fi

log "all binaries present in $BIN ($(( $(date +%s) - start ))s)"
echo "$BIN"
