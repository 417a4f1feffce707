#!/bin/sh
# Install the Debian packages zhkit builds and tests with, if missing.
# Needs root (or sudo); does nothing when everything is present.  The
# pictures' checkers (Pillow, librsvg, Chromium) are tried on their own:
# one that cannot be installed makes its tests skip, not the build fail.
missing() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		    printf ' %s' "$p"
	done
}
need=$(missing jq libjansson-dev libpcre2-dev libzstd-dev zlib1g-dev libbz2-dev libsnappy-dev liblz4-dev libbrotli-dev \
    liblzma-dev zstd gzip bzip2 xz-utils bats bats-assert bats-support libsqlite3-dev sqlite3 \
    fairy-stockfish parallel pkg-config python3 python3-numpy python3-jsonschema \
    python3-dev python3-setuptools python3-pytest python3-pandas python3-dask \
    python3-distributed python3-yaml)
opt=$(missing python3-pil librsvg2-bin chromium)
[ -z "$need$opt" ] && exit 0
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "installing:$need$opt" >&2
$SUDO apt-get update -qq >/dev/null
if [ -n "$need" ]; then
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null ||
	    { echo "deps: could not install:$need" >&2; exit 2; }
fi
for p in $opt; do
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$p" >/dev/null ||
	    echo "deps: $p not installed: its picture tests will skip" >&2
done
exit 0
