#!/bin/sh
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

waited=0
while true; do
    sleep 1
    waited=$((waited + 1))
    if [ "${waited}" -ge 30 ]; then
        echo "waiting for pd cluster ready timeout" >&2
        exit 1
    fi
    if nslookup "${PD_DOMAIN}" >/dev/null 2>&1; then
        echo "domain ${PD_DOMAIN} resolves"
        break
    fi
    echo "domain ${PD_DOMAIN} does not resolve yet" >&2
done

ARGS="--data-dir=/var/lib/pd \
--name=${POD_NAME} \
--peer-urls=http://0.0.0.0:2380 \
--advertise-peer-urls=http://${PD_DOMAIN}:2380 \
--client-urls=http://0.0.0.0:2379 \
--advertise-client-urls=http://${PD_DOMAIN}:2379 \
--config=/etc/pd/pd.toml"

if [ -f /var/lib/pd/join ]; then
    # An earlier start recorded the members it joined, as name=peerURL,name=peerURL.
    join=$(tr ',' '\n' < /var/lib/pd/join | awk -F= '{print $2}' | tr '\n' ',')
    ARGS="${ARGS} --join=${join%,}"
elif [ ! -d /var/lib/pd/member/wal ]; then
    # First start: the discovery service says whether to bootstrap or join.
    encoded=$(printf '%s' "${PD_DOMAIN}:2380" | base64 | tr -d '\n')
    until result=$(wget -qO- -T 3 "http://basic-discovery.default.svc:10261/new/${encoded}" 2>/dev/null); do
        echo "waiting for the discovery service basic-discovery.default.svc:10261 ..."
        sleep $(( ${RANDOM:-0} % 5 ))
    done
    ARGS="${ARGS} ${result}"
fi

# Spread the starts of pods created together.
sleep $(( ${RANDOM:-0} % 10 ))

echo "starting /pd-server ${ARGS}"
exec /pd-server ${ARGS}
