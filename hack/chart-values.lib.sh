# Shared by hack/controller-start-time.sh and hack/webhook-start-time.sh: reads one value of the
# chart's values.yaml, a key directly under a top-level section (controller.jvmOptions,
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
