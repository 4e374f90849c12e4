#!/bin/sh
# The controller image's entry point: ControllerMain, with the class path its mode needs.
#
# The controller itself and its discovery and initializer modes run from lib/ alone. Only the
# backup-manager mode (a Backup's or Restore's Job) also needs lib/backup-manager/: the cloud
# storage SDKs, 150 jars (hack/image-lib.sh). The JVM opens every jar of its class path at start
# and keeps each one's central directory in the heap, so on the controller's class path they cost
# about 3.4 MiB of heap and their reading at every start. The class-data sharing archive was
# recorded with lib/ alone; a class path that only adds entries after it still uses the archive.
set -eu
lib=/opt/tidb-operator/lib
classpath="$lib/*"
if [ "${1:-}" = backup-manager ]; then
  classpath="$classpath:$lib/backup-manager/*"
fi
exec java -XX:SharedArchiveFile=/opt/tidb-operator/controller.jsa -XX:-UsePerfData -cp "$classpath" \
  io.tidb.operator.controller.ControllerMain "$@"
