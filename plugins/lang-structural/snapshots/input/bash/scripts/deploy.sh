#!/usr/bin/env bash
# Builds the release and copies it to the hosts given on the command line.
set -euo pipefail

source "$(dirname "$0")/lib/common.sh"
. ./config.env

log() {
    printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

function build_release {
    local version="$1"
    log "building ${version}"
    make -C "$ROOT" release VERSION="$version"
    tar -czf "release-${version}.tgz" -C dist .
}

deploy_to() {
    local host=$1
    scp "release-$VERSION.tgz" "$host:/srv/app/" && ssh "$host" <<EOF2
cd /srv/app && tar -xzf release-$VERSION.tgz
EOF2
    log "deployed to $host"
}

if [ -z "${VERSION:-}" -a "$#" -gt 0 ]; then
    VERSION=$(git describe --tags)
fi
build_release "${VERSION:?set VERSION}"
for host in "$@"; do
    deploy_to "$host"
done
