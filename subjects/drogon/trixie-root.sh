#!/bin/bash
# Loadlab subject "drogon": the Debian trixie root it is built and run against. drogon 1.9 is
# packaged in trixie (libdrogon-dev, libdrogon1t64, libtrantor-dev), whose libraries need a newer
# glibc and libstdc++ than this machine's Debian has, so they live in a minimal root of their own:
# `debootstrap --variant=minbase` with g++ and drogon's development packages, made once under the
# shared cache and used by every clone. The host's apt sources are never touched: debootstrap keeps
# its own package lists inside the root, and its downloads under CACHE/debs/trixie (reused when the
# root is made again).
#   bash trixie-root.sh CACHE            make the root if needed (needs root), print its folder
#   bash trixie-root.sh --version CACHE  print drogon's, trantor's and g++'s versions in the root
# The mirror is the one the host's apt uses for Debian (or $LOADLAB_DEBIAN_MIRROR).
set -euo pipefail
version=no
if [ "${1:-}" = --version ]; then version=yes; shift; fi
if [ $# -ne 1 ]; then
    echo "usage: trixie-root.sh [--version] CACHE" >&2
    exit 2
fi
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
# The root is named after this script, so changing the package set makes a new root.
hash=$(sha256sum "$here/trixie-root.sh" | cut -c1-16)
root="$cache/roots/drogon-trixie-$hash"
packages=g++,libdrogon-dev,libjsoncpp-dev

if [ $version = yes ]; then
    status="$root/var/lib/dpkg/status"
    if [ ! -f "$root/.made" ]; then
        echo "drogon 1.9 (Debian trixie root not made yet: scripts/setup makes it)"
        exit 0
    fi
    v() { awk -v p="$1" '$1 == "Package:" { hit = ($2 == p) } hit && $1 == "Version:" { print $2; exit }' "$status"; }
    echo "drogon $(v libdrogon-dev), trantor $(v libtrantor-dev), g++ $(v g++-14) (Debian trixie root)"
    exit 0
fi

if [ -f "$root/.made" ]; then
    echo "$root"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "trixie-root.sh: making $root needs debootstrap as root; run scripts/setup as root once" >&2
    exit 1
fi

mirror=${LOADLAB_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
    # deb822 sources first (URIs: line of a Debian suite), then the one-line format.
    mirror=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
    mirror=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
        /etc/apt/sources.list 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
    echo "trixie-root.sh: no Debian mirror in /etc/apt/sources.list*; set LOADLAB_DEBIAN_MIRROR" >&2
    exit 1
fi

mkdir -p "$cache/roots" "$cache/debs/trixie"
# One maker at a time (two clones may build at once); the others wait, then find it made.
exec 9>"$cache/roots/drogon-trixie.lock"
flock 9
if [ -f "$root/.made" ]; then
    echo "$root"
    exit 0
fi
tmp="$root.tmp"
rm -rf "$tmp" "$root"
echo "trixie-root.sh: debootstrap trixie ($packages) from $mirror into $root" >&2
if ! debootstrap --variant=minbase --include="$packages" --cache-dir="$cache/debs/trixie" \
        trixie "$tmp" "$mirror" > "$cache/roots/drogon-trixie-$hash.log" 2>&1; then
    tail -20 "$cache/roots/drogon-trixie-$hash.log" >&2
    rm -rf "$tmp"
    echo "trixie-root.sh: debootstrap failed; its log is $cache/roots/drogon-trixie-$hash.log" >&2
    exit 1
fi
touch "$tmp/.made"
mv "$tmp" "$root"
echo "$root"
