#!/bin/sh
# Start script for /tikv-server, written by TiDB Operator (Java) into the component's ConfigMap.
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
    echo "runmode=debug: not starting /tikv-server, idling for debugging"
    tail -f /dev/null
fi

POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}

waited=0
while true; do
    sleep 1
    waited=$((waited + 1))
    if [ "${waited}" -ge 30 ]; then
        echo "waiting for cluster ready timeout" >&2
        exit 1
    fi
    if ! resolved=$(getent ahosts "${POD_NAME}.basic-tikv-peer.default.svc" 2>/dev/null | sed -n 's/ *STREAM.*//p' 2>/dev/null); then
        echo "domain resolve ${POD_NAME}.basic-tikv-peer.default.svc failed"
        continue
    fi
    if [ -z "${resolved}" ]; then
        echo "domain resolve ${POD_NAME}.basic-tikv-peer.default.svc no record return"
        continue
    fi
    own=" $(hostname -I 2>/dev/null | tr '\n\t' '  ') "
    matched=false
    for ip in ${resolved}; do
        case "${own}" in
            *" ${ip} "*) matched=true; break ;;
        esac
    done
    if [ "${matched}" = true ]; then
        echo "domain ${POD_NAME}.basic-tikv-peer.default.svc resolves to one of the pod's addresses:${own}"
        break
    fi
    echo "domain ${POD_NAME}.basic-tikv-peer.default.svc resolves to ${resolved}, none of the pod's addresses:${own}"
done

ARGS="--pd=pd-a.example:2379,pd-b.example:2379 \
--advertise-addr=${POD_NAME}.basic-tikv-peer.default.svc:20160 \
--addr=0.0.0.0:20160 \
--status-addr=0.0.0.0:20180 \
--data-dir=/var/lib/tikv \
--capacity=${CAPACITY} \
--config=/etc/tikv/tikv.toml"
ARGS="${ARGS} --advertise-status-addr=${POD_NAME}.basic-tikv-peer.default.svc:20180"

if [ -n "${STORE_LABELS:-}" ]; then
    ARGS="${ARGS} --labels ${STORE_LABELS}"
fi

echo "starting /tikv-server ${ARGS}"
exec /tikv-server ${ARGS}
