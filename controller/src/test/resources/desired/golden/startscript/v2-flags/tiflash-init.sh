set -u
ordinal=$(echo "${POD_NAME}" | awk -F- '{print $NF}')
sed "s/POD_NUM/${ordinal}/g" /etc/tiflash/config_templ.toml > /data0/config.toml
sed "s/POD_NUM/${ordinal}/g" /etc/tiflash/proxy_templ.toml > /data0/proxy.toml
