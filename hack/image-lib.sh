#!/usr/bin/env bash
# The folder of jars a process image runs from, made as its Dockerfile makes it: the module's
# runtime dependencies and its own jar, with the signature files of Bouncy Castle's jars removed.
# A class from a signed jar is left out of the class-data sharing archive, and the JVM checks the
# jar's signature (an 800 KB signature file) at every start; nothing registers Bouncy Castle as a
# JCE provider (only that needs the signature). The Dockerfiles run this script; a benchmark runs
# the process from the same folder, so it starts as the image does.
#
#   hack/image-lib.sh controller|webhook [OUT]
#
# OUT defaults to <module>/target/image-lib. The module and those it needs must be installed
# (mvn -pl <module> -am install -DskipTests). MAVEN_FLAGS (e.g. -o) is passed to Maven.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODULE=${1:?usage: hack/image-lib.sh controller|webhook [OUT]}
OUT=${2:-$ROOT/$MODULE/target/image-lib}
case $MODULE in controller|webhook) ;; *) echo "image-lib: no image for module '$MODULE'" >&2; exit 2 ;; esac

rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
(cd "$ROOT" && mvn -B -q ${MAVEN_FLAGS:-} -pl "$MODULE" dependency:copy-dependencies \
  -DincludeScope=runtime -DoutputDirectory="$OUT")
jars=("$ROOT/$MODULE"/target/"$MODULE"-*.jar)
[[ -f ${jars[0]} ]] || { echo "image-lib: no $MODULE/target/$MODULE-*.jar: build the module first" >&2; exit 1; }
cp "${jars[@]}" "$OUT/"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for jar in "$OUT"/bc*.jar; do
  [[ -f $jar ]] || continue
  rm -rf "$work/x" && mkdir "$work/x"
  (cd "$work/x" && jar xf "$jar")
  rm -f "$work"/x/META-INF/*.SF "$work"/x/META-INF/*.DSA "$work"/x/META-INF/*.RSA "$work"/x/META-INF/*.EC
  jar cfm "$jar" "$work/x/META-INF/MANIFEST.MF" -C "$work/x" .
done
echo "$OUT"
