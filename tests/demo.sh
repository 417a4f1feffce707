#!/bin/sh
# make demo: the main jobs of zhkit on the bundled sample archive
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
