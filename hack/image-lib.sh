#!/usr/bin/env bash
# The folder of jars a process image runs from, made as its Dockerfile makes it: the module's
# runtime dependencies and its own jar, with the signature files of Bouncy Castle's jars removed
# (and their manifests' per-entry digests, which only a signature uses).
# A class from a signed jar is left out of the class-data sharing archive, and the JVM checks the
# jar's signature (an 800 KB signature file) at every start; nothing registers Bouncy Castle as a
# JCE provider (only that needs the signature). The Dockerfiles run this script; a benchmark runs
# the process from the same folder, so it starts as the image does.
#
#   hack/image-lib.sh controller|webhook [OUT]
#
# OUT defaults to <module>/target/image-lib. The module and those it needs must be installed
# (mvn -pl <module> -am install -DskipTests). MAVEN_FLAGS (e.g. -o) is passed to Maven.
#
# For the controller, the jars only its backup-manager mode needs (the cloud storage SDKs) go to
# OUT/backup-manager/, which only that mode puts on its class path (docker/controller-entrypoint.sh).
# The controller itself and its other modes run from OUT/* alone: the JVM opens every jar of its
# class path at start and keeps each one's central directory in the heap (5.9 MiB for all 216 jars,
# 2.5 MiB for the 66 the controller needs).
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
  # The manifest's main section only: the per-entry sections are the signature's digests (5,795 in
  # bcprov's 834 KB manifest), which the JVM parses when it first loads a class from the jar and
  # keeps: 5,845 Attributes objects, 2.1 MiB of the webhook's live heap.
  awk '{ sub(/\r$/, "") } NF == 0 { exit } { print }' "$work/x/META-INF/MANIFEST.MF" >"$work/main.mf"
  rm "$work/x/META-INF/MANIFEST.MF"
  jar cfm "$jar" "$work/main.mf" -C "$work/x" .
done

if [[ $MODULE == controller ]]; then
  # The controller's direct dependencies only the backup-manager uses (controller/pom.xml says
  # which; ArchitectureTest keeps the other modes' code off them).
  backup_roots=(software.amazon.awssdk:s3 software.amazon.awssdk:url-connection-client
    com.google.cloud:google-cloud-storage com.azure:azure-storage-blob com.azure:azure-identity)
  # shellcheck disable=SC2086
  (cd "$ROOT" && mvn -B -q ${MAVEN_FLAGS:-} -pl controller dependency:tree -Dverbose=true -Dscope=runtime \
    -DoutputFile="$work/tree.txt")
  mkdir "$OUT/backup-manager"
  java "$ROOT/hack/SubtreeOnlyJars.java" "$work/tree.txt" "${backup_roots[@]}" >"$work/backup-manager.txt"
  while read -r jar; do
    [[ -f $OUT/$jar ]] || { echo "image-lib: $jar (the backup-manager's alone by the dependency tree) is not in $OUT" >&2; exit 1; }
    mv "$OUT/$jar" "$OUT/backup-manager/"
  done <"$work/backup-manager.txt"
fi
echo "$OUT"
