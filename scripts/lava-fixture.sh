#!/usr/bin/env bash
# A private LAVA instance on 127.0.0.1 for the farm tests, from Debian's packages (lava-server,
# lava-dispatcher, postgresql): a PostgreSQL cluster in DIR (run as the postgres user when
# started as root), lava-server under gunicorn, the scheduler, one lava-worker, device type
# `ssh` and one device per --device NAME:PORT:USER:KEY (an sshd the caller started). Nothing
# outside DIR is written except the migrated cluster cached in ~/.cache/embark/lava-fixture
# (so later starts skip the migrations). Everything stops with `stop DIR` or when PARENT_PID
# (--parent) exits.
#
#   lava-fixture.sh start DIR [--parent PID] [--device NAME:PORT:USER:KEY]...
#       prints URL=, TOKEN= (the test user's API token), then READY
#   lava-fixture.sh stop DIR
# Exit status 77: the packages are not installed (the caller skips).
set -euo pipefail

die() { echo "lava-fixture: $*" >&2; exit 1; }
skip() { echo "lava-fixture: $*" >&2; exit 77; }

cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: lava-fixture.sh start|stop DIR [--parent PID] [--device NAME:PORT:USER:KEY]..."
here=$(cd "$(dirname "$0")" && pwd)

stop_all() {
  local d=$1
  [ -f "$d/pids" ] || return 0
  # The worker first (it kills its dispatchers), the PostgreSQL cluster last.
  while read -r pid; do
    [ -n "$pid" ] || continue
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done < <(tac "$d/pids")
  sleep 0.5
  while read -r pid; do
    [ -n "$pid" ] || continue
    kill -KILL -- "-$pid" 2>/dev/null || true
  done < <(tac "$d/pids")
  local pgd; pgd=$(readlink -f "$d/pg" 2>/dev/null || true)
  if [ -n "$pgd" ] && [ -f "$pgd/data/postmaster.pid" ]; then
    local pgbin; pgbin=$(cat "$d/pgbin")
    if [ "$(id -u)" -eq 0 ]; then
      su postgres -s /bin/sh -c "$pgbin/pg_ctl -D '$pgd/data' -m immediate stop" >/dev/null 2>&1 || true
    else
      "$pgbin/pg_ctl" -D "$pgd/data" -m immediate stop >/dev/null 2>&1 || true
    fi
  fi
  rm -f "$d/pids"
  if [ -L "$d/pg" ]; then rm -rf "$(readlink "$d/pg")"; rm -f "$d/pg"; fi
}

if [ "$cmd" = stop ]; then stop_all "$dir"; exit 0; fi
[ "$cmd" = start ] || die "unknown command '$cmd' (start or stop)"
shift 2
parent=""; devices=()
while [ $# -gt 0 ]; do
  case $1 in
    --parent) parent=$2; shift 2 ;;
    --device) devices+=("$2"); shift 2 ;;
    *) die "unknown option '$1'" ;;
  esac
done

for p in lava-server lava-worker lava-run gunicorn3; do
  command -v "$p" >/dev/null || skip "$p is not installed (Debian packages lava-server and lava-dispatcher: scripts/install-deps.sh)"
done
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pgbin/initdb" ] || skip "PostgreSQL is not installed (Debian package postgresql)"
lava_version=$(dpkg-query -W -f='${Version}' lava-server 2>/dev/null || echo unknown)

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
echo "$pgbin" > "$dir/pgbin"
: > "$dir/pids"

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pg_port=$(free_port); http_port=$(free_port)

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

# --- PostgreSQL: a migrated cluster from the cache, or a fresh one migrated now.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/embark/lava-fixture/pg-$lava_version
# The cluster lives in its own folder under /tmp: the postgres user must reach it, and DIR may
# be private to the caller. DIR/pg links to it; `stop` removes it.
pgroot=$(mktemp -d /tmp/embark-lava-pg.XXXXXX)
chmod 755 "$pgroot"
ln -s "$pgroot" "$dir/pg"
if [ -d "$cache/data" ]; then
  cp -a "$cache/data" "$pgroot/data"
  migrated=1
else
  migrated=0
fi
[ "$(id -u)" -eq 0 ] && chown -R postgres "$pgroot"
if [ $migrated = 0 ]; then
  as_pg "'$pgbin/initdb' -D '$pgroot/data' -U lavaserver --auth=trust -E UTF8 --no-sync" > "$dir/initdb.log" 2>&1 ||
    die "initdb failed: $(tail -5 "$dir/initdb.log")"
fi
start_pg() {
  as_pg "'$pgbin/pg_ctl' -D '$pgroot/data' -l '$pgroot/postgres.log' -w -o \"-p $pg_port -k '$pgroot' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off\" start" >/dev/null ||
    die "PostgreSQL did not start: $(tail -5 "$pgroot/postgres.log")"
}
start_pg
if [ $migrated = 0 ]; then
  as_pg "'$pgbin/createdb' -h 127.0.0.1 -p $pg_port -U lavaserver lavaserver" || die "createdb failed"
fi

# --- lava-server's settings, all through the environment: nothing in /etc is touched.
export DATABASE_URL="postgres://lavaserver@127.0.0.1:$pg_port/lavaserver"
export SECRET_KEY="embark-test-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
export ALLOWED_HOSTS="127.0.0.1,localhost"
export LAVA_SETTINGS_DEVICES_PATH="$dir/devices"
export LAVA_SETTINGS_HEALTH_CHECKS_PATH="$dir/health-checks"
export LAVA_SETTINGS_DISPATCHER_CONFIG_PATH="$dir/dispatcher.d"
export LAVA_SETTINGS_MEDIA_ROOT="$dir/media"
export LAVA_SETTINGS_DJANGO_LOGFILE="$dir/django.log"
export LAVA_SETTINGS_EVENT_NOTIFICATION=False
export DJANGO_SETTINGS_MODULE=lava_server.settings.prod
mkdir -p "$dir/devices" "$dir/health-checks" "$dir/dispatcher.d" "$dir/media" "$dir/worker"
cd "$dir"

if [ $migrated = 0 ]; then
  /usr/bin/python3 "$here/lava-fixture-setup.py" migrate > "$dir/migrate.log" 2>&1 || die "migrations failed: $(tail -5 "$dir/migrate.log")"
  # Cache the migrated cluster (stopped, so the copy is consistent).
  as_pg "'$pgbin/pg_ctl' -D '$pgroot/data' -m fast stop" >/dev/null
  mkdir -p "$cache.tmp.$$" && cp -a "$pgroot/data" "$cache.tmp.$$/data" && rm -f "$cache.tmp.$$/data/postmaster.pid" &&
    { mv -T "$cache.tmp.$$" "$cache" 2>/dev/null || rm -rf "$cache.tmp.$$"; }
  start_pg
fi

worker=embark-worker
names=()
for spec in "${devices[@]}"; do
  IFS=: read -r name port user key <<< "$spec"
  names+=("$name")
  cat > "$dir/devices/$name.jinja2" <<DEV
{% extends 'ssh.jinja2' %}
{% set ssh_host = '127.0.0.1' %}
{% set ssh_port = $port %}
{% set ssh_user = '$user' %}
{% set ssh_identity_file = '$key' %}
{% set schroot = '' %}
DEV
done
/usr/bin/python3 "$here/lava-fixture-setup.py" populate "$worker" ssh "${names[@]}" > "$dir/populate.out" 2> "$dir/populate.log" ||
  die "creating the user, worker and devices failed: $(tail -5 "$dir/populate.log")"
token=$(sed -n 's/^TOKEN=//p' "$dir/populate.out")
worker_token=$(sed -n 's/^WORKER_TOKEN=//p' "$dir/populate.out")

# --- the server, the scheduler (woken every second rather than every 20 s) and the worker.
setsid gunicorn3 lava_server.wsgi --bind "127.0.0.1:$http_port" --workers 3 --timeout 120 \
  --log-file "$dir/gunicorn.log" --log-level warning < /dev/null > "$dir/gunicorn.out" 2>&1 &
echo $! >> "$dir/pids"
setsid /usr/bin/python3 -c '
import importlib, os, sys
import django
django.setup()
m = importlib.import_module("lava_server.management.commands.lava-scheduler")
m.INTERVAL = 1
from django.core.management import call_command
import grp, pwd
# Stay this user (it drops to lavaserver otherwise, which cannot reach a private DIR).
me, group = pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name
call_command(m.Command(), "--level", "INFO", "--log-file", sys.argv[1], "--user", me, "--group", group)
' "$dir/scheduler.log" < /dev/null > "$dir/scheduler.out" 2>&1 &
echo $! >> "$dir/pids"
setsid lava-worker --name "$worker" --url "http://127.0.0.1:$http_port/" --token "$worker_token" \
  --worker-dir "$dir/worker" --ping-interval 1 --job-log-interval 1 --level INFO --log-file "$dir/worker.log" \
  < /dev/null > "$dir/worker.out" 2>&1 &
echo $! >> "$dir/pids"

if [ -n "$parent" ]; then
  # Stops everything when the test process goes, even when it crashes.
  setsid bash -c 'while kill -0 '"$parent"' 2>/dev/null && [ -f "'"$dir"'/pids" ]; do sleep 1; done; "'"$here/lava-fixture.sh"'" stop "'"$dir"'"' \
    < /dev/null > /dev/null 2>&1 &
fi

# Ready when the API answers with the token and the worker is online.
for _ in $(seq 1 240); do
  state=$(curl -s -H "Authorization: Token $token" "http://127.0.0.1:$http_port/api/v0.2/workers/$worker/" 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("state",""))' 2>/dev/null || true)
  if [ "$state" = Online ]; then
    echo "URL=http://127.0.0.1:$http_port"
    echo "TOKEN=$token"
    echo "READY"
    exit 0
  fi
  sleep 0.25
done
stop_all "$dir"
die "LAVA did not come up within 60 s: $(tail -3 "$dir/gunicorn.log" "$dir/worker.log" "$dir/scheduler.log" 2>/dev/null)"
