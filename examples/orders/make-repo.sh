#!/usr/bin/env bash
# Makes a git repository of the example project in DIR (a new folder) with two revisions:
#   v1    every answer checksums its body 1,000 times (a deliberately slow version), tagged v1
#   HEAD  it does not
# Then `cd DIR && loadlab run` measures both, as api@v1 and api@HEAD.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR (a folder that does not exist yet)" >&2
  exit 2
fi
dest="$1"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -e "$dest" ]; then
  echo "make-repo.sh: $dest exists; give a new folder" >&2
  exit 2
fi
mkdir -p "$dest"
cp -r "$src/loadlab.yaml" "$src/go.mod" "$src/server" "$src/fixtures" "$dest/"
cd "$dest"
git init -q
git config user.email example@loadlab.invalid
git config user.name "Loadlab example"
printf 'data/\nreports/\n' > .gitignore
sed -i 's/^const checksumRounds = 0$/const checksumRounds = 1000/' server/main.go
grep -q '^const checksumRounds = 1000$' server/main.go
git add -A
git commit -q -m "v1: every answer checksums its body 1,000 times"
git tag v1
cp "$src/server/main.go" server/main.go
git commit -q -a -m "Answer without the checksum rounds"
echo "$dest: revisions v1 and HEAD; measure both with: cd $dest && loadlab run"
