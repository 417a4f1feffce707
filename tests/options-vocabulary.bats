#!/usr/bin/env bats
# One option vocabulary (issue 26): a short letter means one thing in
# every tool, usage errors are one line and a Try, old spellings still
# work with a note, and zhreplay -F ucipos is read by Fairy-Stockfish.

load common
bats_require_minimum_version 1.5.0

TOOLS="zhfen zhpgn zhcheck zhreplay zhperft"
P="$BATS_TEST_DIRNAME/../testdata/pgn"
ZP="$BATS_TEST_DIRNAME/../testdata/zhpgn"
FSF=$(command -v fairy-stockfish || command -v /usr/games/fairy-stockfish || true)

@test "options-vocabulary: no short option means two different long options across the tools' --help" {
	local t pairs
	for t in $TOOLS; do
		run -0 "$t" --help
		# every "-X, --long" pair of the help, one a line: "X long tool"
		pairs+=$(grep -oE -- '(^|[[:space:]])-[A-Za-z], --[a-z][a-z-]*' <<<"$output" |
		    sed -E "s/^[[:space:]]*-(.), --(.*)/\1 \2 $t/")$'\n'
	done
	# sanity: the walk found the common letters in every tool
	[ "$(grep -c '^o output ' <<<"$pairs")" -eq 5 ]
	[ "$(grep -c '^v variant ' <<<"$pairs")" -eq 5 ]
	[ "$(grep -c '^j jobs ' <<<"$pairs")" -eq 3 ]
	run awk 'NF == 3 { if ($1 in long && long[$1] != $2) {
		print "-" $1 ": --" long[$1] " (" tool[$1] ") and --" $2 " (" $3 ")"; bad = 1 }
		long[$1] = $2; tool[$1] = $3 } END { exit bad }' <<<"$pairs"
	assert_success
	assert_output ''
}

@test "options-vocabulary: a long option's short letter is the same wherever both are in --help" {
	local t pairs
	for t in $TOOLS; do
		run -0 "$t" --help
		# "-X, --long" anywhere, a bare "--long" where an option's line starts
		pairs+=$({ grep -oE -- '(^|[[:space:]])-[A-Za-z], --[a-z][a-z-]*' <<<"$output"
			grep -oE -- '^[[:space:]]+--[a-z][a-z-]*' <<<"$output"; } |
		    sed -E "s/^[[:space:]]*//; s/^-(.), --(.*)/\2 \1 $t/; s/^--(.*)/\1 - $t/")$'\n'
	done
	run awk 'NF == 3 { if ($1 in s && s[$1] != $2) {
		print "--" $1 ": " s[$1] " (" tool[$1] ") and " $2 " (" $3 ")"; bad = 1 }
		s[$1] = $2; tool[$1] = $3 } END { exit bad }' <<<"$pairs"
	assert_success
}

@test "options-vocabulary: a short letter a tool takes but its --help does not show is a deprecated spelling, said so" {
	local t l shown hidden=""
	for t in $TOOLS; do
		shown=$("$t" --help | grep -oE -- '(^|[[:space:]\[])-[A-Za-z]+' | tr -d ' [-' | fold -w1 | sort -u | tr -d '\n')
		for l in {a..z} {A..Z}; do
			[[ $shown == *"$l"* ]] && continue
			run --separate-stderr timeout 20 "$t" "-$l" /dev/null </dev/null
			if [[ $stderr == *"invalid option -- '$l'"* ]]; then
				continue
			fi
			[[ ${stderr_lines[0]} == "$t: warning: -$l for --"*" is deprecated; use "* ]] ||
			    fail "$t -$l: taken, not in --help, and no deprecation note: ${stderr_lines[0]-}"
			hidden+=" $t:-$l"
		done
	done
	# the five of zhkit(7)'s table, and no other (zhreplay's -f is
	# --from, as in every tool; a format's name after it is still read
	# as -F's, with the note: json-one-face.bats; zhpgn's -F is --format
	# now, shown, and a bare -F still its old --fens, with the note)
	assert_equal "$hidden" " zhfen:-j zhcheck:-m zhperft:-f zhperft:-m zhperft:-s"
}

# A usage error: nothing on stdout, the reason and a Try on stderr, exit 2.
usage_error() {
	local t=$1; shift
	run -2 --separate-stderr "$t" "$@"
	assert_output ''
	[ "${#stderr_lines[@]}" -eq 2 ] || { printf '%s\n' "$stderr" >&2; false; }
	[ "${stderr_lines[1]}" = "Try '$t --help' for more information." ]
}

@test "options-vocabulary: usage errors are one line and Try 'TOOL --help', exit 2; --help is the full help on stdout" {
	local t
	for t in $TOOLS; do
		usage_error "$t" --no-such-option
		[[ ${stderr_lines[0]} == *"unrecognized option '--no-such-option'"* ]]
		usage_error "$t" -o		# missing argument
		[[ ${stderr_lines[0]} == *"requires an argument"* ]]
		run -0 --separate-stderr "$t" --help
		[[ ${lines[0]} == "usage: $t"* ]]
		[ "${#lines[@]}" -gt 5 ]
		assert_equal "$stderr" ''
	done
	usage_error zhfen --to nosuch
	[[ ${stderr_lines[0]} == "zhfen: --to: unknown dialect 'nosuch'"* ]]
	usage_error zhpgn --tag 'WhiteElo >== 2000' /dev/null
	assert_equal "${stderr_lines[0]}" "zhpgn: --tag 'WhiteElo >== 2000': 10: unknown operator '>=='"
	usage_error zhpgn --fens /dev/null		# conflicting: needs --json
	usage_error zhcheck --max-errors x /dev/null
	usage_error zhreplay -F nosuch /dev/null
	[[ ${stderr_lines[0]} == *"unknown format 'nosuch'"* ]]
	usage_error zhperft
	assert_equal "${stderr_lines[0]}" "zhperft: a DEPTH is needed"
	usage_error zhperft 2 3
	usage_error zhperft x
	usage_error zhperft --suite /dev/null 3
	usage_error zhperft --fen 'rnbqkbnr/pppppppp/8/8 w' 1
	[[ ${stderr_lines[0]} == "zhperft: --fen:1:"*"error: "* ]]
}

# "$@" with the old spelling and with the new: the same stdout and exit
# status; stderr the same after one note, exactly $note.
same_but_note() {
	local note=$1 new=$2; shift 2
	local old=("$@") i
	run --separate-stderr "${old[@]}"
	local ost=$status oout=$output oerr=$stderr
	for i in "${!old[@]}"; do
		[ "${old[$i]}" != "$OLDOPT" ] || old[$i]=$new
	done
	run --separate-stderr "${old[@]}"
	assert_equal "$oout" "$output"
	assert_equal "$ost" "$status"
	assert_equal "$(sed -n 1p <<<"$oerr")" "$note"
	assert_equal "$(sed 1d <<<"$oerr")" "$stderr"
	[ -n "$oout" ]
}

@test "options-vocabulary: each deprecated spelling works as the new one and prints its note" {
	local f="$P/python-chess-saturs-jannlee-zh.pgn"
	local start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	local s="$BATS_TEST_TMPDIR/s.perft"
	printf 'id x\nvariant crazyhouse\nepd %s\nperft 1 20\nperft 2 400\n' "$start" >"$s"
	OLDOPT=-j same_but_note 'zhfen: warning: -j for --json is deprecated; use -J' -J \
	    zhfen -j "$start"
	OLDOPT=-F same_but_note 'zhpgn: warning: -F for --fens is deprecated; use --fens' --fens \
	    zhpgn -J -F "$f"
	OLDOPT=-m same_but_note 'zhcheck: warning: -m for --max-errors is deprecated; use --max-errors' \
	    --max-errors zhcheck --json -m 1 "$P/pychess-variants-grand.pgn" "$f"
	OLDOPT=-f same_but_note 'zhreplay: warning: -f for --format is deprecated; use -F' -F \
	    zhreplay -f uci "$f"
	OLDOPT=-f same_but_note 'zhperft: warning: -f for --fen is deprecated; use --fen' --fen \
	    zhperft -f "$start" 2
	OLDOPT=-s same_but_note 'zhperft: warning: -s for --suite is deprecated; use --suite' --suite \
	    zhperft -s "$s"
	OLDOPT=-m same_but_note 'zhperft: warning: -m for --max-nodes is deprecated; use --max-nodes' \
	    --max-nodes zhperft --suite "$s" -m 100
	# the old zhfen -j 0 of the issue: JSON, then 0 is a file (as before)
	run -2 --separate-stderr zhfen -j 0
	assert_equal "${stderr_lines[0]}" 'zhfen: warning: -j for --json is deprecated; use -J'
}

# The final FEN Fairy-Stockfish reaches for each "position" line of
# stdin, variant $1 (one engine for all the lines).
fsf_fens() {
	{ printf 'uci\nsetoption name UCI_Variant value %s\n' "$1"
	  sed 's/$/\nd/'
	  printf 'quit\n'; } | timeout 120 "$FSF" | sed -n 's/^Fen: //p'
}

@test "options-vocabulary: zhreplay -F ucipos: one position command a game, which Fairy-Stockfish plays to zhreplay's final FEN" {
	[ -n "$FSF" ] || skip "fairy-stockfish not installed"
	local f v
	for f in "$ZP/setup.pgn:crazyhouse" "$P/python-chess-saturs-jannlee-zh.pgn:crazyhouse" \
	    "$P/lichess-2018-JannLee-CrazyAra.pgn:crazyhouse" "$P/pychess-variants-grand.pgn:grand"; do
		v=${f##*:} f=${f%:*}
		[ "$f" != "$ZP/setup.pgn" ] ||
		    [ "$(zhreplay -q -F ucipos "$f" | cut -c1-13)" = "position fen " ]
		run -0 zhreplay -q -F ucipos "$f"
		# one line a game, each a UCI position command
		assert_equal "${#lines[@]}" "$(grep -c '^\[Event ' "$f")"
		for l in "${lines[@]}"; do
			[[ $l =~ ^position\ (startpos|fen\ [^m]+)(\ moves(\ [a-zA-Z@0-9+]+)+)?$ ]]
		done
		# no FEN tag, no "position fen"
		grep -q '^\[FEN ' "$f" || ! grep -q '^position fen ' <<<"$output"
		diff <(fsf_fens "$v" <<<"$output") \
		    <(zhreplay -q -F fen -t fairy --final-only "$f" | grep .)
	done
}

@test "options-vocabulary: zhreplay -F ucipos --plies -B stops at ply B; a game that fails before its start writes nothing" {
	local f="$P/python-chess-saturs-jannlee-zh.pgn"
	run -0 zhreplay -q -F ucipos --plies -6 "$f"
	assert_equal "$(awk '{ print NF - 3 }' <<<"${lines[0]}")" 6
	assert_equal "$(cut -d' ' -f4- <<<"${lines[0]}")" \
	    "$(zhreplay -q -F uci "$f" | sed -n 1p | cut -d' ' -f1-6)"
	run -1 --separate-stderr zhreplay -q -F ucipos \
	    <(printf '[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n[Variant "nosuch"]\n\n1. e4 *\n\n[Event "c"]\n\n1. d4 Qxd4 *\n')
	# a line for each game that has a position: none for the failed
	# tag's game (its error on stderr), as zhkit-json(5) and issue 32
	assert_equal "$output" $'position startpos moves e2e4 e7e5\nposition startpos moves d2d4'
}

@test "options-vocabulary: zhreplay -F jsonl marks the positions of a game with an error \"valid\":false; --only-valid and --only-invalid part them" {
	local f="$BATS_TEST_TMPDIR/mixed.pgn"
	{ cat "$P/python-chess-saturs-jannlee-zh.pgn"; echo
	  printf '[Event "bad variant"]\n[Variant "nosuch"]\n\n1. e4 *\n\n'
	  printf '[Event "bad move"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. Qxf7 *\n\n'
	  printf '[Event "broken tag\n\n1. d4 d5 *\n\n'
	  printf '[Event "good"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. Nf3 *\n'; } >"$f"
	run -1 --separate-stderr zhreplay -q -F jsonl "$f"
	local out=$output
	# the games the errors name, against the games marked (one or
	# more positions each; a game with no position has no mark to carry)
	local named marked
	named=$(printf '%s\n' "$stderr" | grep -oE ': game [0-9]+' | grep -oE '[0-9]+' | sort -un)
	marked=$(printf '%s\n' "$out" | python3 -c '
import json, sys
bad, good = set(), set()
for l in sys.stdin:
    o = json.loads(l)
    assert o.get("valid", True) is False or "valid" not in o
    (bad if "valid" in o else good).add(o["game"])
assert not bad & good, "a game with marked and unmarked positions"
print("\n".join(str(g) for g in sorted(bad)))')
	[ -n "$named" ]
	# every marked game is a named one; every named one that wrote a
	# position is marked
	wrote=$(printf '%s\n' "$out" | jq -r .game | sort -un)
	assert_equal "$marked" "$(comm -12 <(echo "$named") <(echo "$wrote") | sort -n)"
	[ "$(echo "$marked" | wc -l)" -ge 2 ]
	# --only-valid: the unmarked positions, and no mark; --only-invalid the marked ones
	run -0 --separate-stderr zhreplay -q -F jsonl --only-valid "$f"
	assert_equal "$output" "$(printf '%s\n' "$out" | grep -v '"valid":false')"
	run -1 --separate-stderr zhreplay -q -F jsonl --only-invalid "$f"
	assert_equal "$output" "$(printf '%s\n' "$out" | grep '"valid":false')"
}

@test "options-vocabulary: --default-variant plays only the games whose tags name no variant as it; --variant every game" {
	local f="$BATS_TEST_TMPDIR/mix.pgn" d="$BATS_TEST_TMPDIR/one" t i
	{ printf '1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n\n'
	  printf '[Event "x"]\n[Variant "chess"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n\n'
	  printf '[Event "Rated Crazyhouse game"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n\n'
	  printf '[Event "x"]\n\n1. e4 e5 2. Nf3 *\n\n'
	  cat "$P/python-chess-saturs-jannlee-zh.pgn"; } >"$f"
	# one file a game (a game starts at a tag after a blank line, or at
	# the first line), then what each alone gives: untagged with
	# --variant, the others as they are
	mkdir "$d"
	awk -v d="$d" '/^$/ { blank = 1 } /^./ { if (NR == 1 || (blank && !tag)) n++
		tag = /^\[/; blank = 0 } { print > (d "/" n ".pgn") }' "$f"
	[ "$(ls "$d" | wc -l)" -eq "$(($(grep -c '^\[Event ' "$P/python-chess-saturs-jannlee-zh.pgn") + 4))" ]
	# (zhcheck --json's file and line differ: its variant and outcome)
	norm() { if [[ $t == zhcheck* ]]; then jq -c '{variant, valid, plies}'; else grep -v '^$' || true; fi; }
	for t in "zhreplay -q -F uci" "zhcheck -q --json" "zhpgn -q"; do
		local want="" got
		for i in $(ls "$d" | sort -n); do
			if grep -qE '^\[Variant "[^"]+"\]|^\[Event ".*[Cc]razyhouse' "$d/$i"; then
				want+=$($t "$d/$i" 2>/dev/null | norm)$'\n'
			else
				want+=$($t --variant crazyhouse "$d/$i" 2>/dev/null | norm)$'\n'
			fi
		done
		got=$($t --default-variant crazyhouse "$f" 2>/dev/null | norm)
		assert_equal "$got" "$(grep -v '^$' <<<"$want")"
	done
	# the untagged game is crazyhouse with it, chess (an error) without
	run -0 zhcheck -q --default-variant crazyhouse "$d/1.pgn"
	run -1 zhcheck -q "$d/1.pgn"
	run -1 zhcheck -q --default-variant crazyhouse "$d/2.pgn"
	run -0 zhcheck -q --variant crazyhouse "$d/2.pgn"
}
