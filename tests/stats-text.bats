#!/usr/bin/env bats
# --stats writes its strings with the library's one JSON encoder
# (zh_json_string): the text of an argument as zhpgn --json writes the
# same text from a tag (valid UTF-8 kept, any other byte read as
# ISO 8859-1, '"', '\' and control bytes escaped), however long.

load common

# The text of arg as zhkit-json(5)'s TEXT rule reads bytes, computed
# here in Python: each valid UTF-8 sequence kept, any other byte Latin-1.
expect_text() {
	python3 -c '
import sys
b = sys.argv[1].encode("utf-8", "surrogateescape")
out, i = [], 0
while i < len(b):
    for n in (4, 3, 2, 1):
        try:
            out.append(b[i:i + n].decode("utf-8")); i += n; break
        except UnicodeDecodeError:
            pass
    else:
        out.append(chr(b[i])); i += 1
print(repr("".join(out)))' "$1"
}

@test "stats-text: --stats's arguments are the text the library encodes, short and long" {
	local v long f
	v=$(printf 'M\xfcller\x7f\x1f"q\\\t\xc3\xa9\xed\xa0\x80')
	long=$(python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(1, 256)) * 3)')
	f="$TESTDATA/bughouse/replay-setup.bpgn"
	for t in zhpgn zhcheck zhreplay; do
		"$t" --tag "White=$v" --tag "Event=$long" --stats "$BATS_TEST_TMPDIR/s.json" "$f" >/dev/null 2>&1 || :
		run python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print(repr(s["arguments"][1][6:])); print(repr(s["dropped"][0]["test"][6:]))
print(repr(s["arguments"][3][6:]))' "$BATS_TEST_TMPDIR/s.json"
		assert_success
		assert_output "$(expect_text "$v")
$(expect_text "$v")
$(expect_text "$long")"
	done
	# the same bytes as a tag's value in zhpgn --json: one encoder
	v=$(printf 'M\xfcller\x7f\x1f\x01\xc3\xa9\xed\xa0\x80')
	printf '[Event "x"]\n[White "%s"]\n\n1. e4 *\n' "$v" >"$BATS_TEST_TMPDIR/g.pgn"
	zhpgn --json "$BATS_TEST_TMPDIR/g.pgn" >"$BATS_TEST_TMPDIR/g.json"
	zhpgn --tag "White=$v" --stats "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/g.pgn" >/dev/null
	run sh -c "grep -o '\"White\":\"[^\"]*\"' '$BATS_TEST_TMPDIR/g.json' | cut -c10-"
	assert_output --regexp '^M.+u001F.+"$'
	assert_output "$(grep -o '\["--tag","White=[^]]*' "$BATS_TEST_TMPDIR/s.json" | head -1 | cut -c17-)"
}

# zhcheck --report (report.c) keeps its escapes for GitHub's workflow
# commands and JUnit's XML (with XML's own UTF-8 check: no U+FFFE); its
# SARIF strings are the library's encoder's.
@test "stats-text: no tool or picture code has a JSON string encoder of its own" {
	# an encoder's marks: a UTF-8 validator, a \u escape written
	run sh -c "find '$ZH_TOP/cmd' '$ZH_TOP/cli' '$ZH_TOP/draw' -name '*.[ch]' -exec grep -lE 'u%04[xX]' {} + | sed 's|.*/||'"
	assert_output ""
	# the pattern sees an encoder (report.c had one: "\\u%04x")
	printf 'static size_t\nutf8_len(const unsigned char *s)\n\tfprintf(f, "\\\\u%%04X", *s);\n' >"$BATS_TEST_TMPDIR/e.c"
	run grep -cE 'utf8_len|u%04[xX]' "$BATS_TEST_TMPDIR/e.c"
	assert_output 2
}
