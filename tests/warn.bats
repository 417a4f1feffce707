#!/usr/bin/env bats
# Issue 26: warning classes and their control (-w, -W, -Werror) in every
# tool, the same JSON names and units everywhere (checked against
# man/zhkit-game.schema.json and man/zhkit-position.schema.json), and
# null moves.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	W=$TESTDATA/warn
	cd "$TESTDATA/pgn"
}

# Lichess exports have no Round tag (before 2021): one warning a game.
LI=python-chess-saturs-jannlee-zh.pgn

@test "warn: every warning ends with its class, [-WNAME], and -Wno-NAME turns that one off" {
	run -0 --separate-stderr zhcheck "$LI"
	assert_equal "${stderr_lines[0]##* }" "[-Wmissing-round]"
	run -0 --separate-stderr zhcheck -Wno-missing-round "$LI"
	assert_equal "$stderr" "zhcheck: checked 1 game: 1 valid, 0 invalid (0 warnings)"
	# a class that is off is off in the JSON report too
	run -0 zhcheck -q --json -Wno-missing-round "$LI"
	[ "$(jq '.errors | length' <<<"$output")" = 0 ]
	# -W NAME turns it on again (gcc: the last one wins)
	run -0 --separate-stderr zhcheck -w -W missing-round "$LI"
	assert_equal "${#stderr_lines[@]}" 2
	# the warning's "code" in JSON is its class
	run -0 zhcheck -q --json "$LI"
	[ "$(jq -r '.errors[0].code' <<<"$output")" = missing-round ]
	# a list, and an unknown name is a usage error
	run -0 --separate-stderr zhcheck -Wno-missing-round,tag "$LI"
	run -2 --separate-stderr zhcheck -Wno-round "$LI"
	assert_equal "${stderr_lines[0]%% (try*}" "zhcheck: -Wno-: unknown warning class 'round'"
}

@test "warn: -w drops every warning in every tool, and disabled warnings are not counted" {
	local a=crazyara-zh-50_startpos.pgn	# a PV at the wrong ply: a variation warning
	run -0 --separate-stderr zhcheck -w "$a" "$LI"
	assert_equal "$stderr" "zhcheck: checked 51 games: 51 valid, 0 invalid (0 warnings)"
	run -0 --separate-stderr zhpgn -w -o /dev/null "$a"
	assert_equal "$stderr" "zhpgn: 50 games: 50 written, 0 rejected"
	printf 'junk\n\n' | cat - "$LI" >"$T/j.pgn"
	for t in zhcheck zhpgn zhreplay; do
		run --separate-stderr "$t" -q -w "$T/j.pgn"
		[[ $stderr != *warning* ]] || fail "$t -w: $stderr"
		run --separate-stderr "$t" -q "$T/j.pgn"
		[[ $stderr == *"skipped (1 line, 4 bytes) [-Wtext-between-games]"* ]] || fail "$t: $stderr"
	done
}

@test "warn: -Werror=NAME makes a class an error: the game is invalid (zhcheck) or rejected (zhpgn)" {
	local a=crazyara-zh-50_startpos.pgn
	run -1 --separate-stderr zhcheck -Werror=variation "$a"
	assert_equal "${stderr_lines[0]##* }" "[-Werror=variation]"
	assert_equal "${stderr_lines[1]}" "zhcheck: checked 50 games: 49 valid, 1 invalid (0 warnings)"
	run -1 --separate-stderr zhpgn -Werror=variation -r "$T/rej" -o "$T/out" "$a"
	assert_equal "${stderr_lines[-1]}" "zhpgn: 50 games: 49 written, 1 rejected (0 warnings; -Werror: 1 variation)"
	# the rejected game, whole, in the rejects file
	[ "$(grep -c '^\[Event ' "$T/rej")" = 1 ]
	[ "$(grep -c '^\[Event ' "$T/out")" = 49 ]
	# -Werror: all of them; -Wno-error=NAME takes one back
	run -1 --separate-stderr zhcheck -Werror "$LI"
	run -0 --separate-stderr zhcheck -Werror -Wno-error=missing-round "$LI"
	# zhpgn: a game without a termination marker
	printf '[Event "a"]\n\n1. e4 e5\n\n[Event "b"]\n\n1. d4 d5 *\n' >"$T/nm.pgn"
	run -0 --separate-stderr zhpgn "$T/nm.pgn"
	[[ ${stderr_lines[0]} == *"[-Wno-termination]" ]]
	run -1 --separate-stderr zhpgn -Werror=no-termination "$T/nm.pgn"
	[[ ${stderr_lines[0]} == *": error: game 1: no termination marker; game rejected [-Werror=no-termination]" ]]
}

@test "warn: --strict is -Werror of the classes zhkit(7) lists for it" {
	local f
	for f in "$TESTDATA"/zhcheck/*.pgn crazyara-zh-50_startpos.pgn "$LI"; do
		zhcheck --strict "$f" >"$T/a" 2>&1 || true
		zhcheck -Werror=tag,missing-round,result,plycount,setup,variation \
		    "$f" >"$T/b" 2>&1 || true
		cmp "$T/a" "$T/b" || fail "$f: --strict is not its expansion"
	done
}

@test "warn: the same options in every tool's --help" {
	local t
	for t in zhfen zhpgn zhcheck zhreplay zhperft; do
		run -0 "$t" --help
		assert_output --partial "-w, --no-warnings"
		assert_output --partial "-Werror[=NAME]"
		run -2 --separate-stderr "$t" -Wbogus
	done
}

# The FEN after a null move from FEN $1, by the rule (python-chess's
# Board.push(Move.null())): the other side to move, no en passant
# square, the halfmove clock one more, the move number one more after
# Black's.
after_null() {
	awk '{ $2 = $2 == "w" ? "b" : "w"; if ($2 == "w") $6++; $4 = "-"; $5++; print }' <<<"$1"
}

@test "null: read in variations in every spelling; the position after one is the rule's" {
	head -n 10 "$W/null-moves.pgn" >"$T/g1.pgn"
	run -0 --separate-stderr zhcheck -q "$T/g1.pgn"
	assert_equal "$stderr" ""
	# zhreplay --variations: each position after a null move
	zhreplay -F jsonl --variations -t xboard "$T/g1.pgn" >"$T/p.jsonl"
	# xboard writes the ep square after every double step: a null move clears it
	python3 - "$T/p.jsonl" >"$T/pairs" <<-'PY'
	import json, sys
	rows = [json.loads(l) for l in open(sys.argv[1])]
	key = {(r["variation"], r["ply"]): r for r in rows}
	for r in rows:
	    if r["move"] and r["move"]["uci"] == "0000":
	        v, p = r["variation"], r["ply"]
	        before = key.get((v, p - 1)) or key[(None, p - 1)]
	        print(before["fen"] + "|" + r["fen"] + "|" + r["move"]["san"])
	PY
	[ "$(wc -l <"$T/pairs")" = 4 ]	# --, Z0, @@@@ and Z0
	while IFS='|' read -r before fen san; do
		assert_equal "$fen" "$(after_null "$before")"
		assert_equal "$san" "@@@@"	# XBoard's form
	done <"$T/pairs"
}

@test "null: written back in each dialect's form; UCI 0000; read again the same" {
	head -n 10 "$W/null-moves.pgn" >"$T/g1.pgn"
	zhpgn -q "$T/g1.pgn" >"$T/li.pgn"
	grep -q '(1\.\.\. -- 2\. d4)' "$T/li.pgn"
	grep -q '(2\.\.\. -- 3\. Nxe5)' "$T/li.pgn"
	zhpgn -q -t xboard "$T/g1.pgn" >"$T/xb.pgn"
	grep -q '(3\. @@@@ Nf6)' "$T/xb.pgn"
	grep -q '(3\.\.\. @@@@ 4\. Ng5)' "$T/xb.pgn"
	zhpgn -q "$T/xb.pgn" | cmp - "$T/li.pgn"
	run -0 --separate-stderr zhpgn -q --json "$T/g1.pgn"
	[ "$(jq -r '[.. | objects | select(.san? == "--") | .uci] | unique | join(",")' <<<"$output")" = 0000 ]
}

@test "null: in the mainline an error, unless --null-moves: then a warning of class null-move" {
	sed -n '12,21p' "$W/null-moves.pgn" >"$T/g2.pgn"
	run -1 --separate-stderr zhcheck "$T/g2.pgn"
	[[ ${stderr_lines[0]} == *":10:7: error: game 1 (a - b), ply 2: null move '--' in the mainline"* ]]
	run -0 zhcheck -q --json "$T/g2.pgn" --null-moves
	[ "$(jq -r '[.errors[].code] | join(",")' <<<"$output")" = null-move,null-move ]
	run -0 --separate-stderr zhreplay --null-moves -F uci "$T/g2.pgn"
	assert_output "e2e4 0000 d2d4 0000 g1f3"
	[[ ${stderr_lines[1]} == *"ply 4: null move 'Z0' in the mainline [-Wnull-move]" ]]
	run -1 --separate-stderr zhpgn --null-moves -Werror=null-move -o /dev/null "$T/g2.pgn"
	# the final position, by the rule from the one before the last null
	zhreplay --null-moves -w -F fen "$T/g2.pgn" >"$T/f"
	assert_equal "$(sed -n 5p "$T/f")" "$(after_null "$(sed -n 4p "$T/f")")"
	# not while in check (2. Qh5+)
	sed -n '23,$p' "$W/null-moves.pgn" >"$T/g3.pgn"
	run -1 --separate-stderr zhcheck --null-moves "$T/g3.pgn"
	[[ ${stderr_lines[-2]} == *"ply 4: illegal null move '--': Black is in check" ]]
}

@test "null: the position search and the duplicate key walk through a null move" {
	sed -n '12,21p' "$W/null-moves.pgn" >"$T/g2.pgn"
	zhreplay --null-moves -w -F fen "$T/g2.pgn" >"$T/f"
	# every position the game passes through is found, and one it does not is not
	while read -r fen; do
		[ -n "$fen" ] || continue
		run -0 zhpgn -q -w --null-moves --position "$fen" "$T/g2.pgn"
		assert_output --partial '[Round "2"]'
	done <"$T/f"
	run -0 zhpgn -q -w --null-moves --position \
	    'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR/ b KQkq - 0 1' "$T/g2.pgn"
	assert_output ""
	# the key: the same game twice is one, a game with e5 for the null another
	sed 's/1\. e4 -- /1. e4 e5 /' "$T/g2.pgn" >"$T/g2b.pgn"
	run -0 --separate-stderr zhpgn -q -w --null-moves --dedupe "$T/g2.pgn" "$T/g2.pgn" "$T/g2b.pgn"
	[ "$(grep -c '^\[Event ' <<<"$output")" = 2 ]
}

@test "json: file, game, index across files, site, cp: the same names in every tool" {
	local a=lichess-2018-JannLee-CrazyAra.pgn b=fatics-zh.pgn
	zhpgn -q --json "$a" "$b" "$a" >"$T/g.jsonl" 2>/dev/null
	zhcheck -q --json "$a" "$b" "$a" >"$T/c.jsonl" 2>/dev/null
	zhreplay -q -F jsonl "$a" "$b" "$a" >"$T/p.jsonl" 2>/dev/null
	# index counts on across the files; game restarts; file is the name given
	python3 - "$T" "$a" "$b" <<-'PY'
	import json, sys
	t, a, b = sys.argv[1:]
	na = sum(1 for l in open(a) if l.startswith("[Event "))
	nb = sum(1 for l in open(b) if l.startswith("[Event "))
	want = [(a, i + 1, i + 1) for i in range(na)] + \
	    [(b, i + 1, na + i + 1) for i in range(nb)] + \
	    [(a, i + 1, na + nb + i + 1) for i in range(na)]
	for f in ("g", "c"):
	    got = [(o["file"], o["game"], o["index"]) for o in map(json.loads, open(f"{t}/{f}.jsonl"))]
	    assert got == want, (f, got, want)
	seen = []
	for o in map(json.loads, open(f"{t}/p.jsonl")):
	    k = (o["file"], o["game"], o["index"])
	    if not seen or seen[-1] != k:
	        seen.append(k)
	assert seen == want, seen
	# Site where there is one; cp in both tools from the same comment
	sites = {o["index"]: o.get("site") for o in map(json.loads, open(f"{t}/p.jsonl"))}
	for g in map(json.loads, open(f"{t}/g.jsonl")):
	    assert sites[g["index"]] == g["tags"].get("Site"), g["index"]
	cp_g = [m["cp"] for g in map(json.loads, open(f"{t}/g.jsonl")) for m in g["moves"] if "cp" in m]
	cp_p = [o["cp"] for o in map(json.loads, open(f"{t}/p.jsonl")) if "cp" in o]
	assert cp_g and cp_g == cp_p, (cp_g[:5], cp_p[:5])
	PY
	# cp is the [%eval] of the comment, in centipawns, read here by awk
	grep -o '\[%eval -\?[0-9.]*\]' "$a" | head -n 5 | tr -d '[]%eval ' |
	    awk '{ printf "%d\n", ($1 < 0 ? $1 * 100 - 0.5 : $1 * 100 + 0.5) }' >"$T/want"
	jq -c '.moves[] | select(.cp) | .cp' "$T/g.jsonl" | head -n 5 | cmp - "$T/want"
}

@test "json: every tool's JSON on the corpus fits the schemas" {
	local s=$ZH_TOP/man j=$ZH_TOP/tests/helpers/check-json.py
	zhpgn -q --json ./*.pgn "$TESTDATA"/zhcheck/*.pgn "$TESTDATA"/zhpgn/*.pgn >"$T/g" 2>/dev/null || true
	python3 "$j" "$s/zhkit-game.schema.json" "$T/g"
	zhcheck -q --json ./*.pgn "$TESTDATA"/zhcheck/*.pgn >"$T/c" 2>/dev/null || true
	python3 "$j" "$s/zhkit-game.schema.json" "$T/c" check
	zhcheck -q --json --fen "$TESTDATA"/fen/*.fen >"$T/cf" 2>/dev/null || true
	python3 "$j" "$s/zhkit-game.schema.json" "$T/cf" check
	zhreplay -q -F jsonl --variations ./*.pgn >"$T/p" 2>/dev/null || true
	python3 "$j" "$s/zhkit-position.schema.json" "$T/p"
	zhfen -q --json "$TESTDATA"/fen/*.fen >"$T/f" 2>/dev/null || true
	python3 "$j" "$s/zhkit-position.schema.json" "$T/f" fen
	# and each error has a code, in every tool
	[ "$(cat "$T/g" "$T/c" | jq -c '.errors[] | select(.code == null)' | wc -l)" = 0 ]
	[ "$(jq -c 'select(.error) | .error | select(.code == null)' "$T/f" | wc -l)" = 0 ]
}
