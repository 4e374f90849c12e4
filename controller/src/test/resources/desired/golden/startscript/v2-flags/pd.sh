#!/bin/bash
# Start script for /pd-server, written by TiDB Operator (Java) into the component's ConfigMap.
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
    echo "runmode=debug: not starting /pd-server, idling for debugging"
    tail -f /dev/null
fi

POD_NAME=${POD_NAME:-${HOSTNAME:-$(hostname)}}
PD_DOMAIN=${POD_NAME}.basic-pd-peer.default.svc

sleep 0

waited=0
while true; do
    sleep 1
    waited=$((waited + 1))
    if [ "${waited}" -ge 30 ]; then
        echo "waiting for cluster ready timeout" >&2
        exit 1
    fi
    if ! resolved=$(dig "${PD_DOMAIN}" A "${PD_DOMAIN}" AAAA +search +short 2>/dev/null); then
        echo "domain resolve ${PD_DOMAIN} failed"
        continue
    fi
    if [ -z "${resolved}" ]; then
        echo "domain resolve ${PD_DOMAIN} no record return"
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
        echo "domain ${PD_DOMAIN} resolves to one of the pod's addresses:${own}"
        break
    fi
    echo "domain ${PD_DOMAIN} resolves to ${resolved}, none of the pod's addresses:${own}"
done

ARGS="--data-dir=/var/lib/pd \
--name=${POD_NAME} \
--peer-urls=http://0.0.0.0:2380 \
--advertise-peer-urls=http://${PD_DOMAIN}:2380 \
--client-urls=http://0.0.0.0:2379 \
--advertise-client-urls=http://${PD_DOMAIN}:2379 \
--config=/etc/pd/pd.toml"

ARGS="${ARGS} --join=http://pd-a.example:2380,http://pd-b.example:2380"

# Spread the starts of pods created together.
sleep $(( ${RANDOM:-0} % 10 ))

echo "starting /pd-server ${ARGS}"
exec /pd-server ${ARGS}
