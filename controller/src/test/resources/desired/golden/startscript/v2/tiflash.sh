#!/bin/sh
# Start script for /tiflash/tiflash, written by TiDB Operator (Java) into the component's ConfigMap.
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
    echo "runmode=debug: not starting /tiflash/tiflash, idling for debugging"
    tail -f /dev/null
fi

POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}

ARGS="server --config-file /data0/config.toml"

echo "starting /tiflash/tiflash ${ARGS}"
exec /tiflash/tiflash ${ARGS}
