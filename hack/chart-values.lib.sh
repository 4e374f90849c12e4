# Shared by hack/controller-start-time.sh and hack/webhook-start-time.sh: reads the chart's
# values.yaml, a key directly under a top-level section (controller.jvmOptions,
# webhook.mallocArenaMax), whatever order the sections and keys are in.
# ChartValuesScriptTest checks it reads what the benchmarks' ChartJvmOptions reads.
# shellcheck shell=bash

# chart_value FILE SECTION KEY: the value of SECTION.KEY (one line, quotes removed), or nothing
# when the section has no such key. Fails when FILE cannot be read.
chart_value() {
  local file=$1 section=$2 key=$3
  [ -r "$file" ] || { echo "chart_value: cannot read $file" >&2; return 1; }
  awk -v section="$section" -v key="$key" '
    /^[^ #][^:]*:/ { current = substr($0, 1, index($0, ":") - 1); next }
    current == section && index($0, "  " key ":") == 1 {
      value = substr($0, length(key) + 4)
      sub(/^[ \t]+/, "", value); sub(/[ \t]+#.*$/, "", value); sub(/[ \t]+$/, "", value)
      if (value ~ /^".*"$/ || value ~ /^'"'"'.*'"'"'$/) value = substr(value, 2, length(value) - 2)
      print value
      exit
    }' "$file"
}

# chart_jvm_settings FILE SECTION: what the chart's Deployment gives SECTION's JVM. Sets
# JVM_OPTIONS to SECTION.jvmOptions and exports MALLOC_ARENA_MAX from SECTION.mallocArenaMax when
# it is above 0 (as the template does; ChartJvmOptions does the same for the benchmarks).
chart_jvm_settings() {
  local file=$1 section=$2 arenas
  JVM_OPTIONS=$(chart_value "$file" "$section" jvmOptions) || return 1
  arenas=$(chart_value "$file" "$section" mallocArenaMax) || return 1
  if [ "${arenas:-0}" -gt 0 ]; then
    export MALLOC_ARENA_MAX=$arenas
  fi
}
