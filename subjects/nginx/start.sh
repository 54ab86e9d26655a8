#!/bin/bash
# Loadlab subject "nginx", start step: writes {workdir}/nginx.conf from nginx.conf.in, then
# replaces itself with the nginx master (so the harness's SIGTERM reaches the master, which stops
# its workers before it exits).
#   bash start.sh PORT WORKERS WORKDIR BUILD
set -eu
if [ $# -ne 4 ]; then
    echo "usage: start.sh PORT WORKERS WORKDIR BUILD" >&2
    exit 2
fi
port=$1 workers=$2 workdir=$3 build=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$workdir/temp"
# Run by root, nginx would switch its workers to 'nobody', who may not be allowed to read the build
# folder; keep them as the invoking user, like every other subject's threads. (Not run by root,
# nginx cannot switch users and the directive would only earn a warning, so leave it out.)
user=""
if [ "$(id -u)" = 0 ]; then
    user="user $(id -un) $(id -gn);"
fi
sed -e "s|@USER@|$user|" -e "s|@THREADS@|$workers|" -e "s|@PORT@|$port|" \
    -e "s|@WORKDIR@|$workdir|g" -e "s|@WWW@|$build/www|" \
    "$here/nginx.conf.in" > "$workdir/nginx.conf"
echo "nginx: $workers worker(s) on port $port, config $workdir/nginx.conf"
exec nginx -p "$workdir/" -e "$workdir/error.log" -c "$workdir/nginx.conf"
