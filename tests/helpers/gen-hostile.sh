#!/bin/sh
# gen-hostile.sh CASE FILE: write one hostile input to FILE, for
# tests/hostile.bats.  Every PGN case is a valid game, the hostile game,
# and another valid game (but 'truncated', where the file ends inside the
# hostile game).  Deterministic: the same bytes every run, no network.
#
#   comment    a 100 MB comment on one line (the limit is 1 MiB)
#   nested     10,000 nested variations (the limit is 64)
#   tags       100,000 tag pairs (the limit is 1000)
#   nul        NUL bytes in a tag value and in the movetext
#   utf8       invalid UTF-8 in a tag value and in a comment
#   truncated  the file ends inside a comment, after a valid game
#   endless    200,000 plies of knight shuffles (the limit is 10,000)
#   garbage    1 MB of pseudo-random bytes
#   fen1000    (zhfen) a FEN with 1,000 fields, between two valid FENs
set -eu
export LC_ALL=C
case=$1 out=$2
: >"$out"

good() {	# good N: a short valid game, White "Good" Black "N"
	printf '[Event "hostile"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
	printf '[White "Good"]\n[Black "%s"]\n[Result "1-0"]\n[Variant "Crazyhouse"]\n\n' "$1"
	printf '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n'
}

head7() {	# the tags of the hostile game
	printf '[Event "hostile"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
	printf '[White "Bad"]\n[Black "%s"]\n[Result "*"]\n[Variant "Crazyhouse"]\n' "$1"
}

# n copies of the string s, without a newline (awk: no shell loop)
rep() { awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }

# n pseudo-random bytes (a fixed LCG, so the same bytes everywhere)
garbage() {
	awk -v n="$1" 'BEGIN { x = 12345; for (i = 0; i < n; i++) {
		x = (x * 1103515245 + 12345) % 2147483648
		printf "%c", int(x / 65536) % 256 } }'
}

case $case in
comment)
	{ good before; head7 comment; printf '\n1. e4 {'; } >>"$out"
	head -c 100000000 /dev/zero | tr '\0' 'x' >>"$out"
	{ printf '} e5 *\n\n'; good after; } >>"$out" ;;
nested)
	{ good before; head7 nested; printf '\n1. e4 e5 '
	  rep 10000 '( 1... d5 '; rep 10000 ') '; printf '*\n\n'; good after; } >>"$out" ;;
tags)
	{ good before; head7 tags
	  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[Tag%d \"%d\"]\n", i, i }'
	  printf '\n1. e4 *\n\n'; good after; } >>"$out" ;;
nul)
	{ good before; head7 nul; printf '[Annotator "a\000b"]\n\n1. e4 e5 2. N\000f3 *\n\n'
	  good after; } >>"$out" ;;
utf8)
	{ good before; head7 utf8; printf '[Annotator "\377\376 \300\200"]\n\n'
	  printf '1. e4 {bad \355\240\200 utf-8 \377} e5 *\n\n'; good after; } >>"$out" ;;
truncated)
	{ good before; head7 truncated; printf '\n1. e4 e5 2. Nf3 {a comment the fi'; } >>"$out" ;;
endless)
	{ good before; head7 endless; printf '\n'
	  awk 'BEGIN { for (i = 0; i < 50000; i++)
		printf "%d. Nf3 Nf6 %d. Ng1 Ng8\n", 2 * i + 1, 2 * i + 2 }'
	  printf '*\n\n'; good after; } >>"$out" ;;
garbage)
	{ good before; garbage 1000000; printf '\n\n'; good after; } >>"$out" ;;
fen1000)
	{ echo 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	  printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	  rep 994 ' x'; printf '\n'
	  echo 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 1'; } >>"$out" ;;
*)
	echo "gen-hostile.sh: unknown case '$case'" >&2
	exit 2 ;;
esac
