#!/bin/sh
# Start script for /pump, written by TiDB Operator (Java) into the component's ConfigMap.
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
    echo "runmode=debug: not starting /pump, idling for debugging"
    tail -f /dev/null
fi

POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}

ARGS="-pd-urls=http://basic-pd:2379 \
-L info \
-log-file= \
-advertise-addr=${HOSTNAME}.basic-pump:8250 \
-data-dir=/data \
--config=/etc/pump/pump.toml"

echo "starting /pump ${ARGS}"
exec /pump ${ARGS}
