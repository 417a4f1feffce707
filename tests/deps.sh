#!/bin/sh
# Install the Debian packages zhkit builds and tests with, if missing.
# Needs root (or sudo); does nothing when everything is present.
need=
for p in jq libjansson-dev libpcre2-dev libzstd-dev zlib1g-dev libbz2-dev liblzma-dev zstd gzip bzip2 xz-utils bats bats-assert bats-support fairy-stockfish parallel pkg-config python3 python3-numpy python3-jsonschema python3-pil librsvg2-bin chromium; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
	    need="$need $p"
done
[ -z "$need" ] && exit 0
echo "installing:$need" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq >/dev/null &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null ||
    { echo "deps: could not install:$need" >&2; exit 2; }
