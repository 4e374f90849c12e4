#!/bin/sh
# Start script for /cdc, written by TiDB Operator (Java) into the component's ConfigMap.
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
    echo "runmode=debug: not starting /cdc, idling for debugging"
    tail -f /dev/null
fi

POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}

ARGS="server --addr=0.0.0.0:8301 \
--advertise-addr=${POD_NAME}.basic-ticdc-peer.default.svc:8301 \
--gc-ttl=86400 \
--log-file=/dev/stderr \
--log-level=info \
--pd=http://basic-pd:2379"

echo "starting /cdc ${ARGS}"
exec /cdc ${ARGS}
