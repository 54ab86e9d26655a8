#!/bin/bash
# Loadlab subject "drogon", build step: compiles server.cpp inside the Debian trixie root (see
# trixie-root.sh) with that root's g++ 14 against its libdrogon, and links it to the root's dynamic
# loader and libraries (--dynamic-linker, and an RPATH, which unlike RUNPATH also applies to the
# libraries' own dependencies), so that the binary runs here directly: the harness starts, pins,
# samples and stops the server process itself, with no chroot or wrapper in between.
#   bash build.sh BUILD CACHE
set -euo pipefail
build=$1 cache=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(bash "$here/trixie-root.sh" "$cache")
lib="$root/usr/lib/x86_64-linux-gnu"
work=$(mktemp -d "$root/tmp/drogon-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here/server.cpp" "$work/"
inside="/tmp/$(basename "$work")"
# chroot needs root; without it, a user namespace that maps this user to root does the same.
enter=(chroot)
[ "$(id -u)" = 0 ] || enter=(unshare --map-root-user chroot)
# -O3 -DNDEBUG: what CMake's Release type, which drogon's own project template uses, passes.
"${enter[@]}" "$root" g++ -O3 -DNDEBUG -std=c++17 -I/usr/include/jsoncpp \
    -o "$inside/server" "$inside/server.cpp" -ldrogon -ltrantor -ljsoncpp -pthread \
    -Wl,--disable-new-dtags -Wl,-rpath,"$lib" -Wl,--dynamic-linker="$lib/ld-linux-x86-64.so.2"
cp "$work/server" "$build/server"
# It must load with the root's libraries: an unknown option makes it print its usage and exit 2.
set +e
out=$("$build/server" --loadlab-build-check x 2>&1)
rc=$?
set -e
if [ $rc != 2 ] || [[ "$out" != *usage:* ]]; then
    echo "build.sh: the built server does not start (exit $rc): $out" >&2
    exit 1
fi
echo "built $build/server against $root"
