#!/bin/sh
# Start script for /tiflash/tiflash, written by TiDB Operator (Java) into the component's ConfigMap.
# The operator owns this text; a change to it rolls the pods when configUpdateStrategy is
# RollingUpdate.

ARGS="server --config-file /data0/config.toml"

echo "starting /tiflash/tiflash ${ARGS}"
exec /tiflash/tiflash ${ARGS}
