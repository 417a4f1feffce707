#!/usr/bin/env bats
# Trust at the edges (issue #22), the rules side: deep variations walked
# without the C stack, variants zhkit does not play refused by name,
# impossible material caught by --strict, and the smaller edges of zhfen,
# zhcheck --fen, zhreplay's EPD, zhperft's suites, zh.h and the pages.

bats_require_minimum_version 1.5.0
load common

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# deep N: a game whose first move has a variation, which has one, ... N
# deep, each the same move 1. e4 again; the innermost holds 'Ke2', which
# is illegal there (the e-pawn has not moved).
deep() {
	awk -v n="$1" 'BEGIN {
		printf "[Event \"deep\"]\n\n1. e4 "
		for (i = 0; i < n; i++) printf "( e4 "
		printf "Ke2 "
		for (i = 0; i < n; i++) printf ") "
		printf "e5 *\n"
	}' >deep.pgn
}

# The depth of the deep game: 100000, the top of --limit depth (a tenth
# of it in valgrind, which is slow, but still past the old crash at ~5300).
DEPTH=100000
[ -n "${VALGRIND-}" ] && DEPTH=10000

# repeat N S: S N times.
repeat() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# The warning every PGN tool gives for the innermost move of deep.pgn.
deepmsg() {
	echo "deep.pgn:3:$((7 + 5 * DEPTH)): warning: game 1, ply 2$1 illegal move 'Ke2': no king of Black can move to e2"
}

@test "rules: 0: a variation $DEPTH deep: zhcheck walks it, -j 1 and -j 2, to the innermost illegal move" {
	deep "$DEPTH"
	for j in 1 2; do
		run --separate-stderr zhcheck -j "$j" --limit depth="$DEPTH" deep.pgn
		assert_success
		# [0] and [1]: the missing roster tags, and Round apart
		assert_equal "${stderr_lines[2]}" "zhcheck: $(deepmsg ': in a variation:') [-Wvariation]"
		assert_equal "${stderr_lines[3]}" "zhcheck: checked 1 game: 1 valid, 0 invalid (3 warnings: 1 tag, 1 missing-round, 1 variation)"
		run --separate-stderr zhcheck --json -j "$j" --limit depth="$DEPTH" deep.pgn
		assert_success
		assert_output --partial '"valid":true'
	done
}

@test "rules: 0: a variation $DEPTH deep: zhpgn writes it whole as PGN and as JSON, -j 1 and -j 2" {
	deep "$DEPTH"
	for j in 1 2; do
		zhpgn -j "$j" --limit depth="$DEPTH" deep.pgn >out.pgn 2>err
		grep -qF "zhpgn: $(deepmsg ", in a variation:"); the variation is kept as written" err
		assert_equal "$(grep -o '(1\. e4' out.pgn | wc -l)" "$DEPTH"
		assert_equal "$(grep -o ')' out.pgn | wc -l)" "$DEPTH"
		assert_equal "$(tr -d ' \n' <out.pgn | sed 's/.*Ke2//' | cksum)" \
		    "$({ repeat "$DEPTH" ')'; printf '1...e5*'; } | cksum)"
		for fens in "" --fens; do
			zhpgn --json $fens -j "$j" --limit depth="$DEPTH" deep.pgn >out.json
			assert_equal "$(grep -o '"variations":\[\[' out.json | wc -l)" "$DEPTH"
			assert_equal "$(grep -o '\[' out.json | wc -l)" "$(grep -o '\]' out.json | wc -l)"
			assert_equal "$(sed 's/.*"Ke2","uci":null}//; s/,"fen":"[^"]*"//g; s/,"result".*//' out.json | cksum)" \
			    "$({ repeat "$DEPTH" ']]}'; echo ',{"san":"e5","uci":"e7e5"}]'; } | cksum)"
		done
	done
}

@test "rules: 0: a variation $DEPTH deep: zhreplay replays it, -j 1 and -j 2" {
	deep "$DEPTH"
	for j in 1 2; do
		for f in fen jsonl; do
			run --separate-stderr zhreplay -F "$f" -j "$j" --limit depth="$DEPTH" deep.pgn
			assert_success
			assert_equal "${#lines[@]}" 3
		done
	done
}

# event EVENT: a game with that Event tag and no Variant tag, checked
# with zhcheck --json; the object's variant and first error message.
event() {
	printf '[Event "%s"]\n[Site "?"]\n[Date "?"]\n[Round "?"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 *\n' "$1" >ev.pgn
	zhcheck -q --json ev.pgn 2>/dev/null | sed -e 's/.*"variant":\([^,]*\),.*"errors":\[\(.*\)\]}$/\1 \2/' \
	    -e 's/{"line":[0-9]*,"col":[0-9]*,"ply":[0-9]*,"code":"[a-z-]*","message":"\([^"]*\)","severity":"error"}/\1/'
}

@test "rules: 6: an Event naming a game zhkit does not play is an unknown variant, the words quoted" {
	local e w v
	while IFS='|' read -r e w; do
		run event "$e"
		assert_output "null unknown variant '$w' in the Event tag (use --variant to read it as another)"
	done <<'LIST'
FICS rated atomic game|atomic
FICS unrated suicide game|suicide
FICS rated losers game|losers
internet, rated loser's match|loser's
FICS rated wild/fr game|wild/fr
ICS rated wild/22 match|wild/22
Rated Antichess game|Antichess
Casual Atomic game|Atomic
Rated Horde game|Horde
Rated King of the Hill game|King of the Hill
Casual Racing Kings game|Racing Kings
Rated Three-check game|Three-check
Rated Chess960 game|Chess960
Live Chess - Chess 960|Chess 960
Live Chess - 3 Check|3 Check
Live Chess - Giveaway|Giveaway
Live Chess - Fog of War|Fog of War
Live Chess - Duck Chess|Duck Chess
Live Chess - 4 Player Chess|4 Player
Live Chess - Crazyhouse 960|Crazyhouse 960
Atomic Open Championship|Atomic
LIST
	# the Variant tag says Chess960 is unknown, and the Event agrees
	printf '[Variant "Chess960"]\n\n1. e4 e5 *\n' >v.pgn
	run -1 zhcheck -q v.pgn
	assert_output --partial "unknown variant 'Chess960' in the Variant tag"
	# --variant reads the game as told
	event "Atomic Open" >/dev/null
	run zhcheck -q --variant chess ev.pgn
	assert_success
	# the Events of the games zhkit plays, or of chess, read as before
	while IFS='|' read -r e v; do
		run event "$e"
		assert_output "\"$v\" "
	done <<'LIST'
FICS rated crazyhouse game|crazyhouse
FICS unrated crazyhouse game|crazyhouse
internet, rated crazyhouse match|crazyhouse
Rated Crazyhouse game|crazyhouse
Hourly Crazyhouse Inc Arena|crazyhouse
Live Chess - Crazyhouse|crazyhouse
FICS rated wild/8a game|chess
Rated Blitz game|chess
Live Chess|chess
Frankfurt Open|chess
Open FR Crazyhouse|crazyhouse
Hastings|chess
LIST
	# wild/5 is read, and its start has no pawn for 1. e4
	run event "FICS rated wild/5 game"
	assert_output --partial "\"wild5\" illegal move 'e4'"
}

@test "rules: 6: bughouse PGN is read as such, by its tags, its Event or its move labels" {
	printf '%s\n' '[Event "FICS rated bughouse match"]' '[Site "freechess.org"]' \
	    '[Date "2021-10-05"]' \
	    '[WhiteA "a"][WhiteAElo "0"]' '[BlackA "b"][BlackAElo "0"]' \
	    '[WhiteB "c"][WhiteBElo "0"]' '[BlackB "d"][BlackBElo "0"]' \
	    '[Result "*"]' '1A. e4{118.585} 1B. e4{117.268} 1a. Nf6{118.687} 2A. Nc3{118.485} *' >b.pgn
	run -0 zhcheck --json b.pgn
	[ "$(jq -r '"\(.variant) \(.plies) \(.valid)"' <<<"${lines[0]}")" = "bughouse 4 true" ]
	# without the four players' tags: the Event names it
	sed -e '/WhiteA\|BlackA/d' b.pgn >c.pgn
	run -0 zhcheck -q -w --json c.pgn
	[ "$(jq -r .variant <<<"${lines[0]}")" = bughouse ]
	# without them and the Event: the labels; forced as chess, a label
	# is named for what it is
	sed -e 's/bughouse//' c.pgn >d.pgn
	run -0 zhcheck -q -w --json d.pgn
	[ "$(jq -r .variant <<<"${lines[0]}")" = bughouse ]
	run -1 zhcheck -q -w --variant chess d.pgn
	assert_line --index 0 "zhcheck: d.pgn:7:1: error: game 1, ply 1: '1A.' is a move label of bughouse PGN (BPGN); use --variant bughouse"
}

# strict VARIANT FEN: zhfen --strict --check's first diagnostic for FEN.
strict() {
	local out rc=0
	out=$(echo "$2" | zhfen -v "$1" --strict --check 2>&1) || rc=$?
	printf '%s\n' "${out%%$'\n'*}"
	return "$rc"
}

@test "rules: 8: --strict finds impossible material in the games without drops, per side" {
	local nine='1n2k2r/1p2Pp1p/P1P2b2/3q4/6PP/8/rP2PPP1/R3K1NR'
	# nine white pawns (python-chess: too many white pawns)
	run -1 strict chess "$nine w k - 0 18"
	assert_output "zhfen: <stdin>:1:1: error: material: White has 9 pawns, the start position has 8 (promoted pieces count as pawns)"
	for v in upsidedown wild5; do
		run -1 strict "$v" "$nine w - - 0 18"
		assert_output --partial "material: White has 9 pawns"
	done
	# eight pawns and a third knight: a ninth pawn promoted
	run -1 strict chess 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNNR w KQkq - 0 1'
	assert_output "zhfen: <stdin>:1:1: error: material: White has 8 pawns and 1 promoted pieces (beyond the start position's count of their type), more than the 8 pawns of the start position"
	# black, and grand chess's ten pawns
	run -1 strict grand 'r8r/1nbqkcabn1/pppppppppp/10/10/10/9q/PPPPPPPPPP/1NBQKCABN1/R8R b - - 0 1'
	assert_output --partial "material: Black has 10 pawns and 1 promoted pieces"
	# what a game can reach passes: seven pawns and two extra queens do
	# not, six and two do; and the start positions
	run -1 strict chess 'rnbqkbnr/pppppppp/8/8/8/P7/QQPPPPPP/RNBQKBNR w KQkq - 0 1'
	run -0 strict chess 'rnbqkbnr/pppppppp/8/8/8/8/QQPPPPPP/RNBQKBNR w KQkq - 0 1'
	run -0 strict chess 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
	run -0 strict upsidedown 'RNBQKBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr w - - 0 1'
	run -0 strict wild5 'RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1'
	run -0 strict grand 'r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1'
}

@test "rules: 8: --strict in the drop games: a loop pocket may hold promoted pieces, not more than the pawns lost" {
	# loop: a captured promoted queen stays a queen in the pocket
	run -0 strict loop 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[Q] w KQkq - 0 1'
	run -0 strict chessgi 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPP2/RNBQKBNR[Qq] w KQkq - 0 1'
	run -1 strict loop 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[QQ] w KQkq - 0 1'
	assert_output "zhfen: <stdin>:1:1: error: material: the board and the pockets hold 15 pawns and 2 promoted pieces (beyond the start position's count of their type), more than the 16 pawns of the start position"
	# crazyhouse: it would be a pawn; a promoted piece is marked
	run -1 strict crazyhouse 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[Q] w KQkq - 0 1'
	assert_output "zhfen: <stdin>:1:1: error: material: 3 queens on the board and in the pockets, the start position has 2"
	run -0 strict crazyhouse 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RQ~BQKBNR[] w KQkq - 0 1'
	run -1 strict crazyhouse 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RQ~BQKBNR[] w KQkq - 0 1'
	assert_output --partial "17 pawns on the board and in the pockets, the start position has 16"
	run -0 strict grandhouse 'r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPP1/1NBQKCABN1/R8R[P] w - - 0 1'
}

@test "rules: zh.h links from C++ (extern \"C\")" {
	command -v g++ >/dev/null || skip "g++ not installed"
	[ -r "$ZH_TOP/build/libzh.a" ] || skip "build/libzh.a not built"
	cat >t.cc <<'CC'
#include "zh.h"
#include <cstdio>

int
main()
{
	struct zh_pos p;

	zh_pos_start(&p, zh_variant_default());
	std::printf("%llu\n", (unsigned long long)zh_perft(&p, 2));
	return 0;
}
CC
	# shellcheck disable=SC2086 # (make asan: the library is instrumented)
	run g++ ${ZH_SANFLAGS-} -I"$ZH_TOP/lib" -o t t.cc "$ZH_TOP/build/libzh.a" -ljansson -lpthread
	assert_success
	run ./t
	assert_output 400
}

@test "rules: zhfen and zhcheck --fen: one line limit; a longer line is an error at it, not stored, and the next line is read" {
	local start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' t kb
	{ echo "$start"; head -c 30000000 /dev/zero | tr '\0' 'p'; echo; echo "$start"; } >long.fen
	for t in "zhfen --check" "zhcheck --fen" "zhcheck --fen --json"; do
		run --separate-stderr $t long.fen
		assert_failure 1
		assert_equal "${stderr_lines[0]}" "${t%% *}: long.fen:2:65537: error: line longer than 65536 bytes (not a FEN)"
		assert_equal "${stderr_lines[1]}" "${t%% *}: checked 3 positions: 2 valid, 1 invalid$([ "${t%% *}" = zhcheck ] && echo ' (0 warnings)')"
	done
	run --separate-stderr zhcheck --fen --json long.fen
	assert_equal "${#lines[@]}" 3
	assert_line --index 1 --partial '"line":2,"fen":"pppppppp'
	assert_line --index 2 --partial '"line":3,"fen":"rnbqkbnr'
	# the long line is not held in memory (it was 120 MB with --json)
	if [ -z "${VALGRIND-}" ] && [ -x /usr/bin/time ]; then
		for t in "zhfen --check" "zhcheck --fen" "zhcheck --fen --json"; do
			kb=$(/usr/bin/time -f %M $t long.fen 2>&1 >/dev/null | tail -1)
			[ "$kb" -lt 20000 ] || fail "$t: $kb KB"
		done
	fi
}

@test "rules: zhfen and zhcheck --fen read a file that starts with a UTF-8 byte order mark" {
	printf '\357\273\277%s\n' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' >bom.fen
	run zhfen --to fairy bom.fen
	assert_success
	assert_output 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	run zhcheck --fen bom.fen
	assert_success
	# only at the start of a file: inside, it is still not a piece
	printf '%s\n\357\273\277%s\n' 8/8/8/8/8/8/8/K6k 8/8/8/8/8/8/8/K6k >mid.fen
	run -1 zhfen --check mid.fen
	assert_line --index 0 --partial 'mid.fen:2:1: error:'
}

@test "rules: zhreplay -F epd of every dialect and variant reads back, as the same positions" {
	local v d n
	for v in crazyhouse loop chessgi grandhouse upsidedown wild5 chess grand; do
		awk -F '\t' -v v="$v" '$1 == v && n++ < 40 {
			printf "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n\n*\n\n", $2 }' \
		    "$TESTDATA/fen/corpus.tsv" >g.pgn
		n=$(grep -c FEN g.pgn)
		[ "$n" -gt 0 ] || fail "no $v positions"
		zhreplay -v "$v" -F fen --to lichess g.pgn | grep . |
		    awk '{ NF -= 2; print }' >want
		for d in lichess xboard chesscom fairy; do
			zhreplay -v "$v" -F epd --to "$d" g.pgn | grep . >epd
			run zhfen -v "$v" --check epd
			assert_success
			assert_output "zhfen: checked $n position$([ "$n" -gt 1 ] && echo s): $n valid, 0 invalid"
			zhfen -v "$v" --to lichess epd | awk '{ NF -= 2; print }' >got
			# fairy marks no promoted piece in loop and chessgi,
			# where it changes nothing (zhkit(7))
			case $v-$d in
			loop-fairy | chessgi-fairy) tr -d '~' <want >want2 ;;
			*) cp want want2 ;;
			esac
			cmp want2 got || fail "$v $d: $(diff want2 got | head -5)"
			run zhcheck --fen -v "$v" epd
			assert_success
		done
	done
}

@test "rules: zhperft -s: a suite that cannot be read is exit 2; --max-nodes bounds every entry, whatever its count says" {
	mkdir d
	run --separate-stderr zhperft --suite d
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "zhperft: d: read error: Is a directory"
	printf '%s\n' 'id start' \
	    'epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' \
	    'perft 9 1' 'perft 2 400' 'perft 3 8902' >s.epd
	run --separate-stderr timeout 60 zhperft --suite s.epd --max-nodes 100000
	assert_success
	assert_equal "$output" "ok start depth 2 400
ok start depth 3 8902"
	assert_equal "${stderr_lines[0]}" "zhperft: s.epd:3: note: start: depth 9 has more than 100000 nodes (--max-nodes), skipped"
	assert_equal "${stderr_lines[1]}" "zhperft: s.epd: 2 passed, 0 failed, 1 skipped"
}

@test "rules: no page renders plain words as flags (a roff macro left open)" {
	command -v groff >/dev/null || skip "groff not installed"
	local m bad=
	for m in "$ZH_TOP"/man/*.[1-9]; do
		bad=$bad$(groff -mdoc -Tascii -P-bcu "$m" 2>/dev/null |
		    grep -E '(^| )-[a-z]{2,} -[a-z]{2,}' | sed "s|^|${m##*/}: |")
	done
	assert_equal "$bad" ""
	# the sentence that had it
	groff -mdoc -Tascii -P-bcu "$ZH_TOP/man/zhpgn.1" 2>/dev/null | tr -s ' \n' '  ' |
	    grep -q 'as an invalid object with -J), and the next game is read'
}
