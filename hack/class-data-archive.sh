#!/usr/bin/env bash
# Records a process image's class-data sharing archive, as its Dockerfile does: one training run
# of the process (its train-class-data mode: the real start and request path on 127.0.0.1) lists
# every class it loads, then the JVM dumps a static archive of those classes.
#
#   hack/class-data-archive.sh controller|webhook LIB_DIR OUT.jsa
#
# The process must then run with -XX:SharedArchiveFile=OUT.jsa, the same JVM and the same class
# path string, -cp "LIB_DIR/*" (the Dockerfiles' ENTRYPOINT; hack/image-lib.sh makes LIB_DIR).
#
# Why a static archive (-Xshare:dump from a class list) and not a dynamic one
# (-XX:ArchiveClassesAtExit): a dynamic archive leaves out every class of class-file version 49
# and older, and picocli's 170 classes, which both processes load while reading their flags, are
# version 49; a static archive holds them. docs/benchmarks-webhook.md has the figures.
# -Xmx256m: a heap of the chart's size, so compressed object pointers are on as in the pod (on a
# build machine with more than 128 GiB the default heap would turn them off, and the pod's JVM
# would then refuse the archive). JAVA (default: java on PATH) picks the JVM.
set -euo pipefail

MODULE=${1:?usage: hack/class-data-archive.sh controller|webhook LIB_DIR OUT.jsa}
LIB=${2:?usage: hack/class-data-archive.sh controller|webhook LIB_DIR OUT.jsa}
OUT=${3:?usage: hack/class-data-archive.sh controller|webhook LIB_DIR OUT.jsa}
JAVA=${JAVA:-java}
case $MODULE in
  controller) MAIN=io.tidb.operator.controller.ControllerMain ;;
  webhook) MAIN=io.tidb.operator.webhook.WebhookMain ;;
  *) echo "class-data-archive: no image for module '$MODULE'" >&2; exit 2 ;;
esac
[[ -d $LIB ]] || { echo "class-data-archive: no folder $LIB (hack/image-lib.sh makes it)" >&2; exit 1; }
LIB=$(cd "$LIB" && pwd)   # the archive records the class path as given: make it absolute

classes=$(mktemp)
trap 'rm -f "$classes"' EXIT
"$JAVA" -XX:DumpLoadedClassList="$classes" -XX:+UseSerialGC -Xmx256m -XX:-UsePerfData -cp "$LIB/*" "$MAIN" train-class-data
rm -f "$OUT"
# The dump names every class it cannot archive (JFR's event classes, generated ones) at warning
# level; those load from the JDK as before. Only its exit status and the archive matter here.
"$JAVA" -Xshare:dump -XX:SharedClassListFile="$classes" -XX:SharedArchiveFile="$OUT" -XX:+UseSerialGC -Xmx256m \
  -Xlog:cds=error -cp "$LIB/*"
[[ -s $OUT ]] || { echo "class-data-archive: no archive written to $OUT" >&2; exit 1; }
echo "$OUT"
