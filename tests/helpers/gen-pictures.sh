#!/bin/sh
# Make testdata/pictures/*.svg again from cases.tsv and drop.pgn with the
# tools of bin/ (after a deliberate change of the pictures; look at
# them, e.g. with rsvg-convert, before committing: tests/pictures.bats
# compares the tools' output with these byte for byte).
set -eu
cd "$(dirname "$0")/../.."
P=testdata/pictures
grep -v '^#' "$P/cases.tsv" | while IFS='	' read -r name v opt fen; do
	[ "$opt" = - ] && opt=
	# shellcheck disable=SC2086
	bin/zhfen -v "$v" $opt -F svg "$fen" </dev/null >"$P/$name.svg"
done
bin/zhreplay -F svg --final-only "$P/drop.pgn" >"$P/drop.svg"
