#!/bin/sh
# Start script for /tidb-server, written by TiDB Operator (Java) into the component's ConfigMap.
# The operator owns this text; a change to it rolls the pods when configUpdateStrategy is
# RollingUpdate.
set -u

ANNOTATIONS=/etc/podinfo/annotations
if [ ! -f "${ANNOTATIONS}" ]; then
    echo "${ANNOTATIONS} is missing; the pod must mount its annotations there" >&2
    exit 1
fi
runmode=$(sed -n 's/^runmode="\(.*\)"$/\1/p' "${ANNOTATIONS}")
if [ "${runmode:-normal}" = "debug" ]; then
    echo "runmode=debug: not starting /tidb-server, idling for debugging"
    tail -f /dev/null
fi

POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}

ARGS="--store=tikv \
--advertise-address=${POD_NAME}.basic-tidb-peer.default.svc \
--host=0.0.0.0 \
--path=basic-pd:2379 \
--config=/etc/tidb/tidb.toml"
ARGS="${ARGS} --enable-binlog=true"

if [ -n "${SLOW_LOG_FILE:-}" ]; then
    ARGS="${ARGS} --log-slow-query=${SLOW_LOG_FILE}"
fi

echo "starting /tidb-server ${ARGS}"
exec /tidb-server ${ARGS}
