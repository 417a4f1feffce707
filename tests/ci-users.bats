#!/usr/bin/env bats
# Issue 39, "CI users": zhcheck --report github's annotations up to a
# limit and the job summary, SARIF rules with zhkit(7)'s words, --baseline,
# and examples/zhcheck-workflow.yml parsed and run.  Counts are taken from
# zhcheck --json (every finding of every game), the SARIF log is checked
# against its published schema (testdata/sarif).
bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3
SCHEMA=$TESTDATA/sarif/sarif-2.1.0-rtm.5.json

setup() {
	cd "$BATS_TEST_TMPDIR"
	IN=("$TESTDATA"/zhcheck/*.pgn)
	unset GITHUB_STEP_SUMMARY
}

# findings.py JSONL: "LEVEL FILE LINE COL CODE" for every finding, in
# input order, from zhcheck --json.
findings() {
	"$PY" -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    for e in o["errors"]:
        print(e["severity"], o["file"], e["line"], e["col"], e["code"])
' "$1"
}

@test "ci-users: --report github writes 10 annotations of each level, then a notice with the count of the others" {
	zhcheck -q --json "${IN[@]}" >all.jsonl || true
	findings all.jsonl >all.txt
	E=$(grep -c '^error' all.txt) W=$(grep -c '^warning' all.txt)
	[ "$E" -gt 10 ]
	for lim in 10 3 0 1000; do
		run -1 --separate-stderr zhcheck --report github --max-annotations $lim "${IN[@]}"
		printf '%s\n' "$output" >gh.txt
		e=$(( E < lim ? E : lim )) w=$(( W < lim ? W : lim ))
		[ "$(grep -c '^::error ' gh.txt)" = $e ]
		[ "$(grep -c '^::warning ' gh.txt)" = $w ]
		# the first of each level, in input order
		diff <(grep '^::error ' gh.txt | sed -E 's/^::error file=([^,]*),line=([0-9]+),col=([0-9]+),title=zhcheck ([^:]*)::.*/error \1 \2 \3 \4/') \
		    <(grep '^error' all.txt | head -n $lim)
		if [ $e = $E ] && [ $w = $W ]; then
			! grep -q '^::notice' gh.txt
		else
			[ "$(grep -c '^::notice' gh.txt)" = 1 ]
			grep -q "^::notice title=zhcheck::$((E - e)) more errors\? and $((W - w)) more warnings\? than annotated (at most $lim of each); --report sarif or --json has every one$" gh.txt
		fi
	done
	run -2 zhcheck --report github --max-annotations -1 "${IN[@]}"
}

@test "ci-users: GITHUB_STEP_SUMMARY gets every finding as a Markdown table row, appended; a summary that cannot be written is exit 2" {
	zhcheck -q --json "${IN[@]}" >all.jsonl || true
	findings all.jsonl >all.txt
	# a player's name that breaks a naive table: '|', markup, a newline-free '<'
	printf '[Event "e"]\n[Site "s"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "a|b <i>x</i> `c` \\\\"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n' >hostile.pgn
	zhcheck -q --json hostile.pgn >>all.jsonl || true
	findings all.jsonl >all.txt
	echo "before" >sum.md
	run -1 --separate-stderr env GITHUB_STEP_SUMMARY="$PWD/sum.md" zhcheck -q --report github "${IN[@]}" hostile.pgn
	[ "$(head -1 sum.md)" = before ]
	grep -q '^## zhcheck: [0-9]* of [0-9]* games or positions invalid$' sum.md
	"$PY" - sum.md all.txt <<'EOF'
import re, sys
rows = []
for l in open(sys.argv[1], encoding="utf-8"):
    if l.startswith("| ") and not l.startswith("| File"):
        # cells split on '|' not escaped by a backslash
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", l.strip())[1:-1]]
        assert len(cells) == 6, cells
        rows.append(cells)
want = [l.split() for l in open(sys.argv[2])]
got = [[c[3], c[0], c[1], c[2], c[4]] for c in rows]
assert got == want, (got[:2], want[:2])
hostile = [c for c in rows if "hostile" in c[0]][0][5]
assert "a\\|b &lt;i&gt;x&lt;/i&gt; \\`c\\` \\\\" in hostile, hostile
print(len(rows), "rows")
EOF
	# not set: no summary; set to a file that cannot be written: exit 2
	run -1 --separate-stderr zhcheck -q --report github "${IN[@]}"
	run -2 --separate-stderr env GITHUB_STEP_SUMMARY=/dev/full zhcheck -q --report github "${IN[@]}"
	[[ $stderr == *"job summary (GITHUB_STEP_SUMMARY) /dev/full"* ]]
	run -2 --separate-stderr env GITHUB_STEP_SUMMARY=/nonexistent/dir/sum.md zhcheck -q --report github "${IN[@]}"
}

@test "ci-users: SARIF rules: one per error code and warning class, with zhkit(7)'s words as descriptions, help, and the schema holds" {
	run -1 --separate-stderr zhcheck -q --report sarif -o r.sarif "${IN[@]}"
	run -0 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-users.py" rules "$SCHEMA" r.sarif "$ZH_TOP/man/zhkit.7"
	[[ $output == "23 rules"* ]] || fail "$output"
	# the check fails on a rule whose words differ from the man page's
	jq -c '.runs[0].tool.driver.rules[0].fullDescription.text = "Other words."' r.sarif >bad.sarif
	run -1 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-users.py" rules "$SCHEMA" bad.sarif "$ZH_TOP/man/zhkit.7"
}

@test "ci-users: --baseline: known findings said as such (baselineState), not failing; a new one fails; games moved or renumbered stay known" {
	cat "$TESTDATA"/zhcheck/drop-not-in-hand.pgn "$TESTDATA"/zhcheck/king-left-in-check.pgn >old.pgn
	run -1 --separate-stderr zhcheck -q --report sarif -o base.sarif old.pgn
	# all known: exit 0, every result unchanged, the schema holds
	run -0 --separate-stderr zhcheck --report sarif --baseline base.sarif -o r.sarif old.pgn
	[[ $stderr == *"(known: --baseline)"* ]]
	[[ $stderr == *"checked 4 games: 2 valid, 2 invalid (0 warnings) (2 invalid known from --baseline)"* ]]
	[ "$(jq -r '[.runs[0].results[].baselineState] | unique | join(",")' r.sarif)" = unchanged ]
	run -0 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-users.py" rules "$SCHEMA" r.sarif "$ZH_TOP/man/zhkit.7"
	# the games in another order, in other files, after a new bad game
	printf '[Event "new"]\n[Site "s"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "n"]\n[Black "m"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n' >new.pgn
	cat new.pgn "$TESTDATA"/zhcheck/king-left-in-check.pgn >a.pgn
	cp "$TESTDATA"/zhcheck/drop-not-in-hand.pgn b.pgn
	run -1 --separate-stderr zhcheck --report sarif --baseline base.sarif -o r2.sarif a.pgn b.pgn
	[ "$(jq -r '[.runs[0].results[] | select(.baselineState == "new")] | length' r2.sarif)" = 1 ]
	[ "$(jq -r '[.runs[0].results[] | select(.baselineState == "new")][0].locations[0].physicalLocation.artifactLocation.uri' r2.sarif)" = a.pgn ]
	[ "$(jq -r '[.runs[0].results[] | select(.baselineState == "unchanged")] | length' r2.sarif)" = \
	  "$(jq -r '.runs[0].results | length' base.sarif)" ]
	# github: only the new finding annotated, the known ones counted
	run -1 --separate-stderr zhcheck --report github --baseline base.sarif a.pgn b.pgn
	[ "$(grep -c '^::error ' <<<"$output")" = 1 ]
	grep -q '^::error file=a.pgn,line=9,' <<<"$output"
	grep -q "; $(jq -r '.runs[0].results | length' base.sarif) known findings of the baseline not annotated" <<<"$output"
	# junit: one failure, the known errors in system-out
	run -1 --separate-stderr zhcheck --report junit --baseline base.sarif a.pgn b.pgn
	[ "$(grep -c '<failure ' <<<"$output")" = 1 ]
	grep -q '(known: --baseline)' <<<"$output"
	# a file of fingerprints, one a line, does the same
	{ echo "# known"; jq -r '.runs[0].results[].partialFingerprints["zhcheckFinding/v1"]' base.sarif; } >base.txt
	run -0 --separate-stderr zhcheck --baseline base.txt old.pgn
	# a changed move is a new finding; a missing baseline is exit 2
	sed 's/1. e4 d5 2. exd5 Qxd5 3. N@f3/1. d4 d5 2. e4 dxe4 3. N@f3/' "$TESTDATA"/zhcheck/drop-not-in-hand.pgn >c.pgn
	run -1 --separate-stderr zhcheck --baseline base.sarif c.pgn
	run -2 --separate-stderr zhcheck --baseline nonexistent.sarif old.pgn
}

@test "ci-users: --baseline by game id: a game whose Site is a URL stays known when its tags and place change" {
	printf '[Event "a"]\n[Site "https://lichess.org/abcd1234"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "x"]\n[Black "y"]\n[Result "*"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. N@e5 *\n\n' >one.pgn
	run -1 --separate-stderr zhcheck -q --report sarif -o base.sarif one.pgn
	{ cat "$TESTDATA"/zhcheck/ambiguous-san.pgn; sed 's/"x"/"renamed"/; s/Event "a"/Event "b"/' one.pgn; } >two.pgn
	run -1 --separate-stderr zhcheck --report sarif --baseline base.sarif two.pgn
	[ "$(jq -r '[.runs[0].results[] | select(.baselineState == "unchanged")] | length' <<<"$output")" = 1 ]
}

@test "ci-users: every problem's message whole in every report, however long the players' names" {
	name=$(head -c 3000 /dev/zero | tr '\0' 'w')
	printf '[Event "e"]\n[Site "s"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "%s"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n' "$name" >long.pgn
	run -1 --separate-stderr zhcheck long.pgn
	[[ $stderr == *"game 1 ($name - b), ply 3: "* ]]
	for f in github junit sarif; do
		run -1 --separate-stderr zhcheck --report $f long.pgn
		[[ $output == *"game 1 ($name - b), ply 3: "* ]] || fail "$f"
	done
}

@test "ci-users: examples/zhcheck-workflow.yml parses, uploads the SARIF if: always(), and its steps run" {
	W=$ZH_TOP/examples/zhcheck-workflow.yml
	mkdir games
	cp "$TESTDATA"/zhcheck/drop-not-in-hand.pgn "$TESTDATA"/zhcheck/missing-roster-tags.pgn games/
	# the baseline, by the command the file's comment gives
	cmd=$(sed -n 's/^#   \(zhcheck .*baseline.*\)$/\1/p' "$W")
	[ -n "$cmd" ]
	run bash -c "$cmd"
	[ -s zhcheck-baseline.sarif ]
	# its "run" steps but the install, as GitHub runs them (bash -eo pipefail)
	"$PY" "$BATS_TEST_DIRNAME/helpers/ci-users.py" workflow "$W" steps
	export GITHUB_STEP_SUMMARY=$PWD/summary.md
	for s in steps/*.sh; do
		run bash --noprofile --norc -eo pipefail "$s"
		assert_success
	done
	[ -s zhcheck.sarif ] && [ -s summary.md ]
	# a new invalid game: validation fails, the SARIF step still passes
	printf '[Event "new"]\n[Site "s"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "n"]\n[Black "m"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n' >games/new.pgn
	run bash --noprofile --norc -eo pipefail steps/1.sh
	assert_failure 1
	grep -q '^::error file=games/new.pgn' <<<"$output"
	run bash --noprofile --norc -eo pipefail steps/2.sh
	assert_success
	[ "$(jq -r '[.runs[0].results[] | select(.baselineState == "new")] | length' zhcheck.sarif)" = 1 ]
	"$PY" "$BATS_TEST_DIRNAME/helpers/ci-users.py" rules "$SCHEMA" zhcheck.sarif "$ZH_TOP/man/zhkit.7"
}
