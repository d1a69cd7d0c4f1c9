# Starts a throwaway PostgreSQL cluster in a temporary directory on a loopback port
# and exports TEST_DATABASE_URL. Source this file, then call pg_throwaway_start.
pg_throwaway_start() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    echo "PostgreSQL is not installed: the PostgreSQL tests will be skipped"
    return 0
  fi
  PG_DIR=$(mktemp -d /tmp/pg-throwaway.XXXXXX)
  PG_PORT=${PG_PORT:-55432}
  # Step past ports something else already listens on.
  while (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; do PG_PORT=$((PG_PORT + 1)); done
  local run=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$PG_DIR"
    run=(runuser -u postgres --)
  fi
  "${run[@]}" "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  "${run[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off -c max_connections=200" start >/dev/null
  export PG_BIN="$bin" PG_DIR PG_PORT
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  echo "PostgreSQL running on 127.0.0.1:$PG_PORT"
}

pg_throwaway_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  local run=()
  [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
