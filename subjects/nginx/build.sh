#!/bin/bash
# Loadlab subject "nginx", build step: writes the files that /bytes/{n} serves into BUILD/www/bytes/,
# each n bytes of the contract's pattern (byte i = 'a' + i % 26). Coreutils only, no network.
#   bash build.sh BUILD
set -eu
out="$1/www/bytes"
mkdir -p "$out"
for n in 65536 1048576; do
    # `yes` repeats the alphabet line; dropping the newlines leaves the pattern. (No pipefail:
    # head closing the pipe is how yes is meant to stop.)
    yes abcdefghijklmnopqrstuvwxyz | tr -d '\n' | head -c "$n" > "$out/$n.tmp"
    size=$(stat -c %s "$out/$n.tmp")
    if [ "$size" != "$n" ]; then
        echo "build.sh: $out/$n has $size bytes, expected $n" >&2
        exit 1
    fi
    mv "$out/$n.tmp" "$out/$n"
done
echo "wrote $(ls "$out" | tr '\n' ' ')into $out"
