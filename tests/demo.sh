#!/bin/sh
# make demo: every capability of zhkit on the bundled sample archive
# (testdata/pgn/pychess-zh.pgn: 83 crazyhouse games from the FICS games
# database, CRLF line ends, lower-case Variant tag).
cd "$(dirname "$0")/.." || exit 2
PATH="$PWD/bin:$PATH"
A=testdata/pgn/pychess-zh.pgn
say() { printf '\n== %s\n' "$*"; }

say "validate the archive (zhcheck)"
zhcheck -q "$A" && echo "all games valid"
zhcheck "$A" 2>&1 | tail -1

say "convert it: FICS -> Lichess PGN (zhpgn --to lichess), first game"
zhpgn -q --to lichess "$A" | sed '/^$/q' | sed -n '1,14p;15s/$/ .../p'
say "... and -> chess.com (pawn drops written @e4), first 3 lines of moves"
zhpgn -q --to chesscom "$A" | awk 'NF == 0 { n++ } n == 1 && NF' | head -3

say "one JSON object per game (zhpgn --json): games, plies, drops"
zhpgn -q --json "$A" | python3 -c '
import json, sys
g = [json.loads(l) for l in sys.stdin]
moves = [m for x in g for m in x["moves"]]
print(len(g), "games,", len(moves), "plies,", sum("@" in m["san"] for m in moves), "drops")'

say "the final position of game 1 (zhreplay --final-only), in four dialects"
for d in lichess xboard chesscom fairy; do
	printf '%-9s ' "$d"
	zhreplay --final-only --to "$d" "$A" | head -1
done

say "the same position as a diagram (zhreplay --format board)"
zhreplay --final-only --format board "$A" | sed '/^$/q'

say "it is mate; the legal moves ten plies earlier (zhfen --moves), and perft"
fen=$(zhreplay --plies 52-52 --to fairy "$A" | head -1)
echo "$fen"
zhfen --moves "$fen" | cut -c1-72
printf 'perft 3 = %s\n' "$(zhperft --fen "$fen" 3)"

say "perft of each variant's start position (depth 3)"
for v in crazyhouse loop chessgi grandhouse upsidedown wild5 chess; do
	printf '%-11s %s\n' "$v" "$(zhperft -v "$v" 3)"
done

# The writers of data work, into a scratch directory removed at the end.
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
B=testdata/bughouse/real/1934301.bpgn

say "bughouse (BPGN from FICS): validated, and its final position as two boards"
zhcheck "$B" 2>&1 | tail -1
zhreplay --final-only "$B" | head -1

say "every position as NumPy tables (zhreplay -F npy) and as Parquet (-F parquet)"
zhreplay -q -F npy -o "$T/npy" "$A" && zhreplay -q -F parquet -o "$T/pq" "$A"
for f in "$T"/npy/positions.npy "$T"/pq/positions.parquet; do
	printf '%-20s %8d bytes\n' "${f#"$T"/}" "$(wc -c <"$f")"
done
/usr/bin/python3 -c 'import numpy as np, sys; p = np.load(sys.argv[1]); print(len(p), "positions;", "fields:", ", ".join(p.dtype.names[:8]), "...")' "$T/npy/positions.npy" 2>/dev/null ||
	echo "(python3 with numpy not installed: the tables are not read back)"

say "CrazyAra's training tensors (zhreplay -F planes, version 3)"
zhreplay -q -F planes -o "$T/planes" "$A"
/usr/bin/python3 -c 'import numpy as np, glob, sys
p = np.load(sorted(glob.glob(sys.argv[1] + "/train-*-planes.npy"))[0], mmap_mode="r")
print("planes", p.shape, p.dtype)' "$T/planes" 2>/dev/null || ls "$T/planes"

say "an opening index (zhindex build) asked about the start position"
zhindex build -q -o "$T/zh.zhi" "$A"
zhindex query "$T/zh.zhi" --moves ''

say "the Python module: the same tables in memory (import zhkit)"
PYTHONPATH=build/python /usr/bin/python3 -c 'import zhkit, sys
t = zhkit.read(sys.argv[1])
print(t.read, "games read,", len(t.positions), "positions, as NumPy arrays")' "$A" 2>/dev/null ||
	echo "(the module is not built: make python)"

say "a position as a picture (zhfen -F svg)"
zhfen -F svg -o "$T/pos.svg" "$fen" && printf 'pos.svg: %d bytes of SVG\n' "$(wc -c <"$T/pos.svg")"

say "validation for CI: SARIF with one rule per error and warning class"
zhcheck --report sarif testdata/zhcheck/drop-not-in-hand.pgn 2>/dev/null |
	python3 -c 'import json, sys; r = json.load(sys.stdin)["runs"][0]; print(len(r["results"]), "finding(s),", len(r["tool"]["driver"]["rules"]), "rules")'
