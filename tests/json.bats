#!/usr/bin/env bats
# zhkit-json(5) says what each tool's JSON holds: run the tools and check
# that every top-level member written is documented there, and that every
# member documented as always present is written.

load common
bats_require_minimum_version 1.5.0

M="$BATS_TEST_DIRNAME/../man/zhkit-json.5"

# keys SECTION-PREFIX KIND: compare the JSON lines in $output with the `.It Li NAME`
# items of that section of zhkit-json.5.  KIND: game or position (for
# zhcheck, whose items say "Not in position reports"/"Position reports
# only"), or any.
keys() {
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out.jsonl"
	python3 - "$M" "$1" "$2" "$BATS_TEST_TMPDIR/out.jsonl" <<-'EOF'
	import json, re, sys
	man, sect, kind, path = sys.argv[1:]
	doc, req, cur = set(), set(), None
	lines = open(man).read().split("\n")
	on = False
	items = []
	for ln in lines:
	    if ln.startswith((".Ss", ".Sh")):
	        on = ln.startswith(".Ss " + sect)
	        continue
	    if not on:
	        continue
	    m = re.match(r"\.It (Li .*)", ln)
	    if m:
	        names = re.findall(r"Li ([a-z_]+)", m.group(1).split(" No ")[0])
	        items.append([names, m.group(1)])
	    elif items:
	        items[-1][1] += " " + ln
	for names, text in items:
	    optional = "optional" in text or "only with" in text
	    if kind == "game" and "Position reports only" in text:
	        continue
	    if kind == "position" and "Not in position reports" in text:
	        continue
	    doc.update(names)
	    if not optional:
	        req.update(names)
	assert doc, f"no members documented under {sect!r}"
	n = 0
	for line in open(path):
	    if not line.strip():
	        continue
	    o = json.loads(line)
	    n += 1
	    extra, missing = set(o) - doc, req - set(o)
	    if "valid" in o and o["valid"] is False and sect.startswith("Positions: zhfen"):
	        missing -= {"from", "variant", "fen", "board", "pockets", "promoted", "side",
	                    "castling", "ep", "halfmove", "fullmove", "in_check", "legal_moves",
	                    "status"}
	    elif sect.startswith("Positions: zhfen"):
	        missing.discard("error")
	    assert not extra, f"undocumented members {sorted(extra)} in {line}"
	    assert not missing, f"documented members {sorted(missing)} missing from {line}"
	assert n, "no JSON written"
	print(f"{n} objects checked against {len(doc)} documented members")
	EOF
}

@test "json: zhcheck --json game reports have exactly the documented members" {
	run --separate-stderr zhcheck -q --json "$TESTDATA"/zhcheck/*.pgn "$TESTDATA"/pgn/fatics-zh.pgn
	assert_equal "$status" 1
	keys "Check reports" game
}
@test "json: zhcheck --fen --json position reports have the documented members" {
	run --separate-stderr bash -c "printf 'x\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n' | zhcheck -q --fen --json"
	assert_equal "$status" 1
	keys "Check reports" position
	python3 -c 'import json,sys
for l in open(sys.argv[1]): assert set(json.loads(l)) == {"file","line","fen","valid","errors"}, l' "$BATS_TEST_TMPDIR/out.jsonl"
}
@test "json: zhreplay --format jsonl positions have the documented members (clock, eval, variations)" {
	run -0 zhreplay -q -F jsonl --variations "$TESTDATA/pgn/lichess-2018-JannLee-CrazyAra.pgn" "$TESTDATA/pgn/pychess-variants-grand.pgn"
	keys "Positions: zhreplay" any
	assert_output --partial '"clock":'
	assert_output --partial '"cp":'
	assert_output --partial '"variation":"1"'
}
@test "json: zhfen --json objects, valid and invalid, have the documented members" {
	run --separate-stderr zhfen -q --json -m 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1' \
	    'r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1'
	assert_equal "$status" 1
	keys "Positions: zhfen" any
}
