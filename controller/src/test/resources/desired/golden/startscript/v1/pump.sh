#!/bin/sh
# Start script for /pump, written by TiDB Operator (Java) into the component's ConfigMap.
# The operator owns this text; a change to it rolls the pods when configUpdateStrategy is
# RollingUpdate.
set -eu

ARGS="-pd-urls=http://basic-pd:2379 \
-L=info \
-advertise-addr=${HOSTNAME}.basic-pump:8250 \
-config=/etc/pump/pump.toml \
-data-dir=/data \
-log-file="

echo "starting /pump ${ARGS}"
/pump ${ARGS}
code=$?
if [ "${code}" -eq 0 ]; then
    echo "$(date -u +'[%Y/%m/%d %H:%M:%S %z]') pump offline, please delete my pod"
    tail -f /dev/null
fi
exit "${code}"
