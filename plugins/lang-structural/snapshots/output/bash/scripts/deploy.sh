#!/usr/bin/env bash
# Builds the release and copies it to the hosts given on the command line.
set -euo pipefail

source "$(dirname "$0")/lib/common.sh"
#         ^^^^^^^ reference calls dirname
#                      ^^^^^^^^^^^^^^ reference imports /lib/common.sh
. ./config.env
# ^^^^^^^^^^^^ reference imports ./config.env

log() {
# ^^^^^^^ definition function log [8:0-10:1]
    printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2
#                       ^^^^ reference calls date (from log)
}

function build_release {
# ^^^^^^^^^^^^^^^^^^^^^^^^ definition function build_release [12:0-17:1]
    local version="$1"
    log "building ${version}"
#   ^^^ reference calls log (from build_release)
    make -C "$ROOT" release VERSION="$version"
#   ^^^^ reference calls make (from build_release)
    tar -czf "release-${version}.tgz" -C dist .
#   ^^^ reference calls tar (from build_release)
}

deploy_to() {
# ^^^^^^^^^^^^^ definition function deploy_to [19:0-25:1]
    local host=$1
    scp "release-$VERSION.tgz" "$host:/srv/app/" && ssh "$host" <<EOF2
#   ^^^ reference calls scp (from deploy_to)
#                                                   ^^^ reference calls ssh (from deploy_to)
cd /srv/app && tar -xzf release-$VERSION.tgz
EOF2
    log "deployed to $host"
#   ^^^ reference calls log (from deploy_to)
}

if [ -z "${VERSION:-}" -a "$#" -gt 0 ]; then
    VERSION=$(git describe --tags)
#             ^^^ reference calls git
fi
build_release "${VERSION:?set VERSION}"
# ^^^^^^^^^^^^^ reference calls build_release [30:0-30:13]
for host in "$@"; do
    deploy_to "$host"
#   ^^^^^^^^^ reference calls deploy_to
done
# ----- travsr snapshot: bash/scripts/deploy.sh (bash, phase A, status ok) -----
# node file <file> (deploy.sh)
# skeleton build_release: "function build_release"
# skeleton deploy_to: "deploy_to()"
# skeleton log: "log()"
# edge contains <file> -> build_release (confidence 1, phase-a)
# edge contains <file> -> deploy_to (confidence 1, phase-a)
# edge contains <file> -> log (confidence 1, phase-a)
