#!/usr/bin/env bats
# One face (issue 32, items 21 and 22): the same game and the same
# positions through zhpgn --json, zhreplay -F jsonl, zhcheck --json and
# zhfen --json say every shared thing with one name, one meaning and one
# unit (zhkit-json(5)), and each output fits its schema.  The expected
# values (side to move, pieces held, promoted squares, check, centipawns)
# are read from the FEN and the PGN text by the test itself, not from
# another tool's JSON.  Then the options every tool shares, and
# zhreplay's output for a game that fails before its start.

load common
bats_require_minimum_version 1.5.0

SCHEMAS="$ZH_TOP/man"
CHECKJSON="$ZH_TOP/tests/helpers/check-json.py"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# game 1: captures, drops, a promotion, checks, clocks and evals;
	# game 2: no result anywhere; game 3: an illegal drop at ply 5
	cat > g.pgn <<'EOF'
[Event "face"]
[Site "https://lichess.org/face0001"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]
[Variant "Crazyhouse"]

1. e4 { [%clk 0:03:00] [%eval 0.3] } d5 { [%clk 0:02:59.5] [%eval 0.25] }
2. exd5 Nf6 3. d6 Ne4 4. dxc7 Nd6 5. cxb8=Q { [%eval -1.52] } Qa5
6. Qxa7 Rxa7 7. N@c7+ { [%eval #3] } Kd8 8. Nf3 { [%eval -12.34] } 1-0

[Event "face"]
[Site "https://lichess.org/face0002"]
[White "Carol"]
[Black "Dave"]
[Variant "Crazyhouse"]

1. e4 e5 2. Nf3

[Event "face"]
[Site "https://lichess.org/face0003"]
[White "Eve"]
[Black "Frank"]
[Result "0-1"]
[Variant "Crazyhouse"]

1. e4 e5 2. Nf3 Nc6 3. N@f6 0-1
EOF
}

# Validate every line of FILE against SCHEMA (or its $defs/DEF).
fits() {
	run python3 "$CHECKJSON" "$SCHEMAS/$1" "$2" ${3:+"$3"}
	assert_success
}

@test "json-one-face: one game through zhpgn, zhreplay, zhcheck and zhfen: the same names, units and values" {
	zhpgn --json g.pgn > pgn.jsonl 2>/dev/null || true
	zhreplay -F jsonl g.pgn > rep.jsonl 2>/dev/null || true
	zhcheck --json g.pgn > chk.jsonl 2>/dev/null || true
	# every position zhreplay wrote, as a FEN file for zhfen
	jq -r .fen rep.jsonl > fens.txt
	zhfen --json fens.txt > fen.jsonl
	fits zhkit-game.schema.json pgn.jsonl
	fits zhkit-game.schema.json chk.jsonl check
	fits zhkit-position.schema.json rep.jsonl
	fits zhkit-position.schema.json fen.jsonl fen
	run python3 - <<'EOF'
import json, re

def load(n):
    return [json.loads(l) for l in open(n, encoding="utf-8")]

pgn, rep, chk, fen = (load(n) for n in ("pgn.jsonl", "rep.jsonl",
                                          "chk.jsonl", "fen.jsonl"))
assert len(pgn) == len(chk) == 3 and len(fen) == len(rep), (len(pgn), len(chk), len(fen), len(rep))
text = open("g.pgn").read()

# what the FEN says (lichess dialect: holdings after the 8th '/')
def from_fen(f):
    board, side = f.split()[:2]
    ranks = board.split("/")
    held = ranks[8] if len(ranks) > 8 else ""
    pockets = {"white": {}, "black": {}}
    for ch in "PNBRQ":
        for col, c in (("white", ch), ("black", ch.lower())):
            if held.count(c):
                pockets[col][ch] = held.count(c)
    promoted = []
    for i, r in enumerate(ranks[:8]):
        file = 0
        for j, c in enumerate(r):
            if c.isdigit():
                file += int(c)
            elif c == "~":
                promoted.append("abcdefgh"[file - 1] + str(8 - i))
            else:
                file += 1
    return {"side": {"w": "white", "b": "black"}[side], "pockets": pockets,
            "promoted": promoted}

# where each record came from: one name in every tool
for k in range(3):
    for key in ("file", "game", "index"):
        assert pgn[k][key] == chk[k][key], (key, pgn[k], chk[k])
    assert pgn[k]["file"] == "g.pgn" and pgn[k]["game"] == k + 1
for r in rep:
    assert r["file"] == "g.pgn", r
for i, f in enumerate(fen):
    assert f["file"] == "fens.txt" and f["line"] == i + 1, f

# result: the marker, else the tag, else null -- in every tool
want = ["1-0", None, "0-1"]
assert [g["result"] for g in pgn] == want, [g["result"] for g in pgn]
assert [g["result"] for g in chk] == want, [g["result"] for g in chk]
for r in rep:
    assert r["result"] == want[r["game"] - 1], r

# positions: zhreplay's and zhfen's members of the same name agree, and
# say what the FEN says; "in_check" is the '+' or '#' of the move
assert len(fen) == len(rep)
for r, f in zip(rep, fen):
    assert f["valid"] and f["fen"] == r["fen"], (r, f)
    exp = from_fen(r["fen"])
    for key in ("side", "pockets", "promoted", "in_check"):
        assert key in r and key in f, (key, r, f)
        assert r[key] == f[key], (key, r[key], f[key])
    for key in ("side", "pockets", "promoted"):
        assert r[key] == exp[key], (key, r[key], exp[key], r["fen"])
    if r["move"] is not None:
        assert r["in_check"] == (r["move"]["san"][-1] in "+#"), r
    assert "check" not in r and "eval" not in r, r

# evaluations: centipawns as "cp" (or "mate"), the same in zhpgn's moves
# and zhreplay's positions; the text's [%eval] in pawns
evals = {0: 30, 1: 25, 8: -152, 14: -1234}
g1 = pgn[0]["moves"]
for i, m in enumerate(g1):
    assert "eval" not in m, m
    if i in evals:
        assert m.get("cp") == evals[i], (i, m)
    elif i == 12:
        assert m.get("mate") == 3 and "cp" not in m, m
    else:
        assert "cp" not in m and "mate" not in m, (i, m)
byply = {r["ply"]: r for r in rep if r["game"] == 1}
for i, m in enumerate(g1):
    for key in ("cp", "mate", "clock"):
        assert m.get(key) == byply[i + 1].get(key), (key, m, byply[i + 1])
    assert m["san"] == byply[i + 1]["move"]["san"], (m, byply[i + 1])
    assert m["uci"] == byply[i + 1]["move"]["uci"], (m, byply[i + 1])
assert g1[0]["clock"] == 180 and g1[1]["clock"] == 179.5

# errors: one object in every tool, with "severity"
e_pgn = pgn[2]["errors"]
e_chk = [e for e in chk[2]["errors"] if e["severity"] == "error"]
assert len(e_pgn) == 1 and len(e_chk) == 1, (e_pgn, e_chk)
assert e_pgn[0] == e_chk[0], (e_pgn[0], e_chk[0])
line = next(i for i, l in enumerate(text.split("\n"), 1) if "N@f6" in l)
col = text.split("\n")[line - 1].index("N@f6") + 1
assert (e_pgn[0]["line"], e_pgn[0]["col"], e_pgn[0]["ply"],
        e_pgn[0]["severity"]) == (line, col, 5, "error"), e_pgn[0]
assert pgn[2]["valid"] is False and chk[2]["valid"] is False
for w in chk[0]["errors"] + chk[1]["errors"]:
    assert w["severity"] == "warning", w
EOF
	assert_success
}

@test "json-one-face: zhfen's pockets are the pieces held, as zhreplay's; {} without drops; errors as every tool's" {
	printf '%s\n' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pq w KQkq - 0 1' \
	    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX/ w KQkq - 0 1' > p.fen
	run --separate-stderr zhfen --json p.fen
	assert_failure 1
	[ "$(jq -c '[.file, .line, .pockets]' <<<"${lines[0]}")" = '["p.fen",1,{"white":{"P":1},"black":{"Q":1}}]' ]
	# an error object: line, col, ply, code, message and severity
	[ "$(jq -c '.error | keys_unsorted' <<<"${lines[1]}")" = '["line","col","ply","code","message","severity"]' ]
	[ "$(jq -c '[.file, .error.line, .error.ply, .error.severity]' <<<"${lines[1]}")" = '["p.fen",2,0,"error"]' ]
	run zhfen --json -v chess 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
	[ "$(jq -c '[.file, .pockets]' <<<"$output")" = '["<arg>",{"white":{},"black":{}}]' ]
	printf '[Variant "Standard"]\n\n1. e4 *\n' > c.pgn
	[ "$(zhreplay -F jsonl c.pgn | jq -c .pockets | sort -u)" = '{"white":{},"black":{}}' ]
	printf '%s\n' "${lines[@]}" > p.jsonl
	fits zhkit-position.schema.json p.jsonl fen
}

@test "json-one-face: bughouse: 'mover' is who moved (zhpgn and zhreplay), 'side' the side to move, 'in_check' per board as zhfen says it" {
	B="$TESTDATA/bughouse/hand/lichess.bpgn"
	zhpgn --json "$B" > pgn.jsonl
	zhreplay -F jsonl "$B" > rep.jsonl
	jq -r .fen rep.jsonl > fens.txt
	zhfen --json -v bughouse fens.txt > fen.jsonl
	fits zhkit-game.schema.json pgn.jsonl
	fits zhkit-position.schema.json rep.jsonl bughouse
	fits zhkit-position.schema.json fen.jsonl bfen
	run python3 - <<'EOF'
import json
load = lambda n: [json.loads(l) for l in open(n, encoding="utf-8")]
pgn, rep, fen = load("pgn.jsonl"), load("rep.jsonl"), load("fen.jsonl")
assert len(rep) == len(fen)
moves = {(g["game"], i + 1): m for g in pgn for i, m in enumerate(g["moves"])}
for r, f in zip(rep, fen):
    assert r["result"] == pgn[r["game"] - 1]["result"], r
    for bd, (a, b) in enumerate(zip(r["boards"], f["boards"])):
        side = {"w": "white", "b": "black"}[r["fen"].split(" | ")[bd].split()[1]]
        assert a["side"] == b["side"] == side, (a, b)
        for key in ("pockets", "promoted", "in_check"):
            assert a[key] == b[key], (key, a, b)
        assert "check" not in a, a
    if r["move"] is None:
        continue
    m = moves[(r["game"], r["ply"])]
    mover = "white" if m["label"][-1].isupper() else "black"
    assert r["move"]["mover"] == m["mover"] == mover, (r["move"], m)
    assert "side" not in r["move"] and "side" not in m, (r["move"], m)
    assert m["pockets"] == {"A": r["boards"][0]["pockets"],
                            "B": r["boards"][1]["pockets"]}, (m, r)
    # the board that moved: the other side is to move there now
    bd = 0 if r["move"]["board"] == "A" else 1
    assert r["boards"][bd]["side"] != mover, r
    assert r["boards"][bd]["in_check"] == (m["san"][-1] in "+#"), (m, r)
EOF
	assert_success
}

@test "json-one-face: zhreplay writes nothing for a game that fails before its start (the error on stderr)" {
	printf '[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n[SetUp "1"]\n[FEN "bad fen"]\n\n1. e4 *\n\n[Event "c"]\n[Variant "Nosuch"]\n\n1. d4 *\n\n[Event "d"]\n\n1. d4 d5 *\n' > f.pgn
	printf '[Event "a"]\n\n1. e4 e5 *\n\n[Event "d"]\n\n1. d4 d5 *\n' > good.pgn
	for f in fen epd uci ucipos san jsonl; do
		run --separate-stderr zhreplay -F "$f" f.pgn
		assert_failure 1
		assert_equal "$(grep -c ': error: ' <<<"$stderr")" 2
		want=$(zhreplay -F "$f" good.pgn | sed 's/"file":"good.pgn"/"file":"f.pgn"/; s/"game":2,"index":2/"game":4,"index":4/')
		[ "$output" = "$want" ] || { echo "-F $f:"; diff <(echo "$output") <(echo "$want"); return 1; }
		case $f in
		fen|epd) ;;
		*) ! grep -qx '' <<<"$output" ;;
		esac
	done
	# fen and epd: one blank line ends each game's block, none for a
	# failed game
	assert_equal "$(zhreplay -F fen f.pgn 2>/dev/null | grep -c '^$')" 2
	run --separate-stderr zhreplay -F uci f.pgn
	assert_equal "$output" $'e2e4 e7e5\nd2d4 d7d5'
}

@test "json-one-face: -q silences the summary in every tool, never a diagnostic" {
	run --separate-stderr zhfen -q 'not a fen' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
	assert_failure 1
	assert_equal "${#stderr_lines[@]}" 1
	[[ ${stderr_lines[0]} == 'zhfen: <arg>:1:'*': error: '* ]]
	run --separate-stderr zhfen -q -c 'not a fen'
	assert_failure 1
	assert_equal "${#stderr_lines[@]}" 1
	printf '[Event "x"]\n\n1. e4 e5 2. Ke3 *\n' > bad.pgn
	for t in zhcheck zhpgn zhreplay; do
		run --separate-stderr "$t" -q bad.pgn
		assert_failure 1
		[ "$(grep -c ': error: ' <<<"$stderr")" -ge 1 ]
		run --separate-stderr "$t" bad.pgn
		[ "$(grep -c ': error: ' <<<"$stderr")" -ge 1 ]
	done
}

@test "json-one-face: zhreplay -J is -F jsonl; zhcheck and zhreplay take -f/--from as zhfen and zhpgn do" {
	[ "$(zhreplay -J g.pgn 2>/dev/null)" = "$(zhreplay -F jsonl g.pgn 2>/dev/null)" ]
	[ "$(zhreplay --json g.pgn 2>/dev/null | head -1 | jq -r .ply)" = 0 ]
	for t in zhfen zhpgn zhcheck zhreplay; do
		"$t" --help | grep -qE -- '-f, --from'
		"$t" --help | grep -qE -- '-q, --quiet'
	done
	for t in zhpgn zhcheck zhreplay; do
		[ "$t" = zhfen ] && continue
		run --separate-stderr "$t" -f lichess -q g.pgn
		assert_failure 1		# game 3's illegal drop
		run --separate-stderr "$t" --from xboard -q g.pgn
		assert_failure 1
		run --separate-stderr "$t" --from nosuch g.pgn
		assert_failure 2
		assert_output ''
		[[ $stderr == *"unknown dialect 'nosuch'"* ]]
	done
	# the same output whatever --from says: every reader reads every form
	[ "$(zhcheck --json -f chesscom g.pgn 2>/dev/null)" = "$(zhcheck --json g.pgn 2>/dev/null)" ]
	[ "$(zhreplay -f fairy g.pgn 2>/dev/null)" = "$(zhreplay g.pgn 2>/dev/null)" ]
	# -f with a format's name is still the old -F (deprecated)
	run --separate-stderr zhreplay -f uci g.pgn
	assert_line --index 0 'e2e4 d7d5 e4d5 g8f6 d5d6 f6e4 d6c7 e4d6 c7b8q d8a5 b8a7 a8a7 N@c7 e8d8 g1f3'
	[[ $stderr == *"-f for --format is deprecated"* ]]
}

@test "json-one-face: completion offers formats after -F only to a tool with --format" {
	# shellcheck disable=SC1091
	source "$ZH_TOP/completion/zhkit.bash"
	complete_words() {	# TOOL WORDS...: what _zhkit offers for the last
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		_zhkit
		printf '%s\n' "${COMPREPLY[@]}"
	}
	[ "$(complete_words zhreplay -F js)" = jsonl ]
	[ "$(complete_words zhcheck -F js)" != jsonl ]
	[ "$(complete_words zhpgn -F js)" != jsonl ]
	[ "$(complete_words zhcheck -f li)" = lichess ]
	[ "$(complete_words zhreplay --from x)" = xboard ]
}
