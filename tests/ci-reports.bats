#!/usr/bin/env bats
# Issue 32, item 24: zhcheck --report github|junit|sarif, the formats CI
# systems read, each checked by a reader of its own (tests/helpers/ci-reports.py):
# SARIF against its published JSON schema (testdata/sarif, with
# python3-jsonschema), JUnit with python3's XML parser and the element
# and attribute names Jenkins and GitLab read, GitHub's workflow commands
# unescaped as GitHub documents; every diagnostic on stderr is in the
# report, and the report is the same bytes for any -j.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	Z=$TESTDATA/zhcheck
	SCHEMA=$TESTDATA/sarif/sarif-2.1.0-rtm.5.json
	# the python3 that has jsonschema (Debian's python3-jsonschema)
	PY=
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import jsonschema' 2>/dev/null; then
			PY=$p
			break
		fi
	done
	[ -n "$PY" ] || fail "no python3 with jsonschema (tests/deps.sh installs python3-jsonschema)"
	cd "$T"
	# inputs: errors, warnings of several classes, text between games, a
	# Latin-1 name, a '%' in a tag, a file name with ',', ':' and a space
	cp "$Z/missing-roster-tags.pgn" "$Z/king-left-in-check.pgn" \
	    "$Z/variation-illegal-move.pgn" "$Z/drop-not-in-hand.pgn" .
	{ echo 'junk'; printf '[Event "e"]\n[Site "s"]\n[Date "2024.01.01"]\n[Round "1"]\n'
	  printf '[White "M\374ller, J\374rgen"]\n[Black "100%% <&> \\"q\\""]\n[Result "1-0"]\n\n1. e4 e5 0-1\n'
	} >'we,ird: name.pgn'
	IN=(missing-roster-tags.pgn king-left-in-check.pgn variation-illegal-move.pgn
	    drop-not-in-hand.pgn 'we,ird: name.pgn')
}

@test "ci: --report sarif is valid SARIF 2.1.0 (its schema), a result for each diagnostic, the same for any -j" {
	run -1 --separate-stderr zhcheck --all-warnings --report sarif -o r.sarif "${IN[@]}"
	printf '%s\n' "$stderr" >err
	run -0 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-reports.py" sarif "$SCHEMA" r.sarif err
	[[ $output == "7 results" ]] || fail "$output"
	for j in 2 3; do
		zhcheck --report sarif -j "$j" "${IN[@]}" >rj.sarif 2>/dev/null || true
		cmp r.sarif rj.sarif
	done
	# driver and a result as code scanning reads them
	[ "$(jq -r '.runs[0].tool.driver.name' r.sarif)" = zhcheck ]
	[ "$(jq -r '[.runs[0].results[] | select(.ruleId == "illegal-move")][0].level' r.sarif)" = error ]
	[ "$(jq -r '.runs[0].results[0].locations[0].physicalLocation.region.startLine' r.sarif)" = 1 ]
	# no finding: a valid log with no results; and --fen positions
	run -0 --separate-stderr zhcheck --report sarif "$TESTDATA/zhpgn/setup.pgn"
	printf '%s\n' "$output" >e.sarif
	: >noerr
	"$PY" "$BATS_TEST_DIRNAME/helpers/ci-reports.py" sarif "$SCHEMA" e.sarif noerr
	printf '8/8/8/8/8/8/8/8 w - - 0 1\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n' >p.fen
	run -1 --separate-stderr zhcheck --fen --report sarif -o f.sarif p.fen
	printf '%s\n' "$stderr" >ferr
	run -0 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-reports.py" sarif "$SCHEMA" f.sarif ferr
	[[ $output == "1 results" ]] || fail "$output"
}

@test "ci: a SARIF log that breaks the schema is refused by the check (the check can fail)" {
	zhcheck --report sarif "${IN[@]}" 2>err >r.sarif || true
	jq -c '.runs[0].results[0].level = "fatal"' r.sarif >bad.sarif
	run -1 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-reports.py" sarif "$SCHEMA" bad.sarif err
	[[ $output == *"not valid against its schema"* ]] || fail "$output"
}

@test "ci: --report junit: a testsuite per file, a testcase per game, failures with message and type" {
	run -1 --separate-stderr zhcheck --all-warnings --report junit -o r.xml "${IN[@]}"
	printf '%s\n' "$stderr" >err
	run -0 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-reports.py" junit r.xml err
	# the games of each file: as many as zhcheck --json reports
	local n
	n=$(zhcheck -q --json "${IN[@]}" 2>/dev/null | wc -l)
	[[ $output == "$n testcases, 2 failures" ]] || fail "$output ($n games)"
	for j in 2 3; do
		zhcheck --report junit -j "$j" "${IN[@]}" >rj.xml 2>/dev/null || true
		cmp r.xml rj.xml
	done
	# one suite per input, named for it, in order, with its games
	local f want=
	for f in "${IN[@]}"; do
		want+=",$f=$(grep -c '^\[Event ' "$f")"
	done
	run -0 "$PY" -c 'import sys, xml.etree.ElementTree as E
print(",".join(s.get("name") + "=" + s.get("tests") for s in E.parse("r.xml").getroot()))'
	assert_output "${want#,}"
}

@test "ci: --report github: workflow commands, escaped as GitHub documents" {
	run -1 --separate-stderr zhcheck --all-warnings --report github "${IN[@]}"
	printf '%s\n' "$output" >r.gh
	printf '%s\n' "$stderr" >err
	run -0 "$PY" "$BATS_TEST_DIRNAME/helpers/ci-reports.py" github r.gh err
	[[ $output == "7 commands" ]] || fail "$output"
	# ',' and ':' in a property, '%' in the message
	grep -q '^::warning file=we%2Cird%3A name.pgn,line=1,col=1,title=zhcheck text-between-games::' r.gh
	grep -q '^::error file=king-left-in-check.pgn,line=10,col=24,title=zhcheck illegal-move::game 1 (Alice - Bob), ply 5: ' r.gh
	grep -q '100%25 <&>' r.gh
	for j in 2 3; do
		assert_equal "$(zhcheck --report github -j "$j" "${IN[@]}" 2>/dev/null)" "$(cat r.gh)"
	done
	# and a usage error for what it cannot be
	run -2 --separate-stderr zhcheck --report tap "${IN[@]}"
	run -2 --separate-stderr zhcheck --report sarif --json "${IN[@]}"
}
