#!/usr/bin/env bash
# The server of tests/cms.spec.ts (the editors' web UI): regpulse serve
# with --cms-repo over a clone of a content repository whose remote is a
# bare repository on disk, so the spec can read the commits a publish
# pushes. Everything lives in test-results/cms, made afresh at each run:
#   seed/       content/ and media/ of this repository, one commit
#   remote.git  the bare remote (what a static host would deploy from)
#   clone/      the server's clone, pushing to remote.git as origin
#   public/     the site built from clone/content
#   data/       the server's store
# Usage (from e2e/): ./cms-server.sh PORT
set -euo pipefail
port=${1:?usage: cms-server.sh PORT}
root=test-results/cms
rm -rf "$root"
mkdir -p "$root/seed"

# No user or system git configuration (hooks, signing, templates): the
# seed's commit is the only one made by the git binary.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
cp -r ../content "$root/seed/content"
if [ -d ../media ]; then cp -r ../media "$root/seed/media"; fi
git -C "$root/seed" init -q -b main
git -C "$root/seed" add -A
git -C "$root/seed" -c user.name="RegPulse seed" -c user.email=seed@example.com commit -q -m "The content as the tests start"
git clone -q --bare "$root/seed" "$root/remote.git"
git clone -q "$root/remote.git" "$root/clone"

../bin/regpulse build --content "$root/clone/content" --out "$root/public" --templates ../templates --assets ../islands/dist \
  --data "$root/data" --base-url "http://127.0.0.1:$port/"

# --templates and --assets: a publish rebuilds the site in-process, from
# this directory.
exec ../bin/regpulse serve --addr "127.0.0.1:$port" --public "$root/public" --data "$root/data" \
  --cms-repo "$root/clone" --cms-remote origin --cms-branch main \
  --templates ../templates --assets ../islands/dist --base-url "http://127.0.0.1:$port/" \
  --login-limit 1000 --signup-limit 1000 --log-level warn --site-url "http://127.0.0.1:$port"
