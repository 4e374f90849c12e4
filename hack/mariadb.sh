#!/usr/bin/env bash
# A MariaDB server on 127.0.0.1 that stands in for TiDB (MySQL protocol) in the TidbInitializer
# tests, from Debian's mariadb-server package (.ci/run installs it when missing).
#
#   hack/mariadb.sh up       start it (or find it running); idempotent; last stdout line = port
#   hack/mariadb.sh down     stop the server this script started and delete its data
#   hack/mariadb.sh status   exit 0 only if it runs and answers on its port
#
# It listens only on 127.0.0.1 (no other address, no name resolution). Its admin account for tests
# is tidb_operator_admin@127.0.0.1 (password in $STATE/admin-password, mode 0600); tests reset the
# root@% account (empty password, all privileges, as a new TiDB has it) before each scenario.
#
# Environment (all optional):
#   TIDB_OPERATOR_MARIADB_DIR   state dir (default ~/.local/share/tidb-operator-java/mariadb)
#   TIDB_OPERATOR_MARIADB_PORT  port (default 13306: below Linux's ephemeral range, 32768-60999,
#                               so no connection's kernel-chosen local port can hold it; 33306,
#                               the default before, was once held by the API server's connection
#                               to etcd and the server could not bind)
#   TIDB_OPERATOR_MARIADB_TLS_DIR  a directory with ca.crt, tls.crt, tls.key (PEM): the server
#                               then serves TLS with that certificate, verifies client
#                               certificates against ca.crt and refuses plaintext TCP connections
#                               (the TLS tests start a second instance this way)
set -euo pipefail

STATE=${TIDB_OPERATOR_MARIADB_DIR:-$HOME/.local/share/tidb-operator-java/mariadb}
PORT=${TIDB_OPERATOR_MARIADB_PORT:-13306}
TLS_DIR=${TIDB_OPERATOR_MARIADB_TLS_DIR:-}
DATA=$STATE/data
SOCKET=$STATE/mysqld.sock
PIDFILE=$STATE/mysqld.pid
ADMIN=tidb_operator_admin

log() { printf '[mariadb] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

server_bin() {
  command -v mariadbd 2>/dev/null || { [ -x /usr/sbin/mariadbd ] && echo /usr/sbin/mariadbd; } || true
}

is_running() {
  local pid
  pid=$(cat "$PIDFILE" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

answers() {
  mariadb --protocol=socket -S "$SOCKET" -uroot -e 'SELECT 1' >/dev/null 2>&1
}

up() {
  local bin user
  bin=$(server_bin)
  [ -n "$bin" ] || die "mariadbd not found: install Debian's mariadb-server (apt-get install -y mariadb-server)"
  if is_running && answers; then
    log "running on 127.0.0.1:$PORT"
    echo "$PORT"
    return
  fi
  mkdir -p "$STATE"
  user=$(id -un)
  if [ ! -d "$DATA/mysql" ]; then
    log "initialising $DATA"
    rm -rf "$DATA"
    mariadb-install-db --no-defaults --datadir="$DATA" --user="$user" \
      --auth-root-authentication-method=socket --skip-test-db >"$STATE/install.log" 2>&1 \
      || die "mariadb-install-db failed; see $STATE/install.log"
  fi
  local tls=()
  if [ -n "$TLS_DIR" ]; then
    for f in ca.crt tls.crt tls.key; do
      [ -r "$TLS_DIR/$f" ] || die "TIDB_OPERATOR_MARIADB_TLS_DIR=$TLS_DIR has no readable $f"
    done
    tls=(--ssl-ca="$TLS_DIR/ca.crt" --ssl-cert="$TLS_DIR/tls.crt" --ssl-key="$TLS_DIR/tls.key"
      --require-secure-transport=ON)
  fi
  log "starting on 127.0.0.1:$PORT${TLS_DIR:+ with TLS from $TLS_DIR}"
  # setsid: the server outlives the shell that started it (test.sh, a terminal).
  setsid "$bin" --no-defaults --datadir="$DATA" --user="$user" \
    --bind-address=127.0.0.1 --port="$PORT" --socket="$SOCKET" --pid-file="$PIDFILE" \
    --skip-name-resolve --log-error="$STATE/error.log" "${tls[@]}" </dev/null >/dev/null 2>&1 &
  local server=$!
  for _ in $(seq 1 60); do
    answers && break
    if ! kill -0 "$server" 2>/dev/null; then
      # It stopped (its port taken, its data unreadable): say why now rather than after 60 s.
      die "the server exited: $(grep -F '[ERROR]' "$STATE/error.log" | tail -3 | tr '\n' ' ')(see $STATE/error.log)"
    fi
    sleep 1
  done
  answers || die "not answering after 60s; see $STATE/error.log"
  if [ ! -s "$STATE/admin-password" ]; then
    (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$STATE/admin-password")
  fi
  mariadb --protocol=socket -S "$SOCKET" -uroot <<SQL
CREATE USER IF NOT EXISTS '$ADMIN'@'127.0.0.1' IDENTIFIED BY '$(cat "$STATE/admin-password")';
ALTER USER '$ADMIN'@'127.0.0.1' IDENTIFIED BY '$(cat "$STATE/admin-password")';
GRANT ALL PRIVILEGES ON *.* TO '$ADMIN'@'127.0.0.1' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
  echo "$PORT"
}

down() {
  if is_running; then
    local pid
    pid=$(cat "$PIDFILE")
    log "stopping pid $pid"
    kill "$pid"
    for _ in $(seq 1 30); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
  fi
  rm -rf "$STATE"
}

status() {
  if is_running && answers; then
    log "running on 127.0.0.1:$PORT (pid $(cat "$PIDFILE"))"
    return 0
  fi
  log "not running"
  return 1
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) sed -n '2,/^set -euo pipefail/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
