#!/bin/bash
# Loadlab subject "nginx", start step: writes {workdir}/nginx.conf from nginx.conf.in, then
# replaces itself with the nginx master (so the harness's SIGTERM reaches the master, which stops
# its workers before it exits).
#   bash start.sh PORT WORKERS WORKDIR BUILD [PROTOCOL CERT KEY]
# PROTOCOL is h1 (default), h1-tls or h2-tls; CERT and KEY are the server certificate's PEM files.
set -eu
if [ $# -ne 4 ] && [ $# -ne 7 ]; then
    echo "usage: start.sh PORT WORKERS WORKDIR BUILD [h1|h1-tls|h2-tls CERT KEY]" >&2
    exit 2
fi
port=$1 workers=$2 workdir=$3 build=$4 protocol=${5:-h1} cert=${6:--} key=${7:--}
case "$protocol" in
    h1) flags="" tls="" ;;
    h1-tls|h2-tls)
        flags=" ssl"
        [ "$protocol" = h2-tls ] && flags=" ssl http2"
        # TLS 1.2 and 1.3 (nginx 1.22's default list lacks 1.3), a session cache and tickets, so that
        # clients resume as they would against a production nginx.
        tls="        ssl_certificate \"$cert\";
        ssl_certificate_key \"$key\";
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;
        ssl_session_tickets on;" ;;
    *) echo "start.sh: protocol must be h1, h1-tls or h2-tls, got '$protocol'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$workdir/temp"
# Run by root, nginx would switch its workers to 'nobody', who may not be allowed to read the build
# folder; keep them as the invoking user, like every other subject's threads. (Not run by root,
# nginx cannot switch users and the directive would only earn a warning, so leave it out.)
user=""
if [ "$(id -u)" = 0 ]; then
    user="user $(id -un) $(id -gn);"
fi
# The TLS lines are inserted by awk (sed would need every path escaped).
sed -e "s|@USER@|$user|" -e "s|@THREADS@|$workers|" -e "s|@PORT@|$port|" -e "s|@LISTEN_FLAGS@|$flags|" \
    -e "s|@WORKDIR@|$workdir|g" -e "s|@WWW@|$build/www|" "$here/nginx.conf.in" \
    | TLS="$tls" awk '$1 == "@TLS@" { print ENVIRON["TLS"]; next } { print }' > "$workdir/nginx.conf"
echo "nginx: $workers worker(s) on port $port, $protocol, config $workdir/nginx.conf"
exec nginx -p "$workdir/" -e "$workdir/error.log" -c "$workdir/nginx.conf"
