#!/bin/sh
# make demo: the main jobs of zhkit on bundled data.
cd "$(dirname "$0")/.." || exit 2
PATH="$PWD/bin:$PATH"
echo "== perft of each variant's start position (depth 3) =="
for v in crazyhouse loop chessgi grandhouse upsidedown wild5 chess; do
	printf '%-11s %s\n' "$v" "$(zhperft -v "$v" 3)"
done
if [ -x bin/zhcheck ] && [ -f testdata/pgn/demo.pgn ]; then
	echo "== validate the sample archive =="
	zhcheck testdata/pgn/demo.pgn
fi
if [ -x bin/zhpgn ] && [ -f testdata/pgn/demo.pgn ]; then
	echo "== convert the sample archive to XBoard PGN (first game) =="
	zhpgn --to xboard testdata/pgn/demo.pgn | sed '/^$/q'
fi
