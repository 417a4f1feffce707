#!/usr/bin/env bats
# Text from the input in JSON (zhkit-json(5)): every tool writes the same
# bytes as the same JSON string.  Valid UTF-8 is kept; a byte that is not
# part of valid UTF-8 is read as ISO 8859-1; '"', '\' and control bytes are
# escaped ("\uXXXX" in upper case but the short forms).  The expected
# strings are computed here, by Python's own UTF-8 decoder with an error
# handler that takes each bad byte as Latin-1.

load common
bats_require_minimum_version 1.5.0

# texts MODE: run python over the cases with the tool named in $1
# ("pgn", "check", "replay", "fen", "checkfen"); it fails on the first
# string that is not as expected or a line that is not JSON.
texts() {
	python3 - "$1" "$BATS_TEST_TMPDIR" <<-'EOF'
	import codecs, json, re, subprocess, sys
	mode, tmp = sys.argv[1:]
	cases = [
	    ("utf-8 e-acute", b"caf\xc3\xa9"),
	    ("latin-1 bytes", b"M\xfcller caf\xe9"),
	    ("valid then invalid", b"\xc3\xa9\xe9"),
	    ("lone continuation", b"a\x80b\xbf"),
	    ("overlong C0 AF", b"x\xc0\xafy"),
	    ("surrogate ED A0 80", b"\xed\xa0\x80z"),
	    ("4-byte sequence", b"\xf0\x9f\x98\x80 ok"),
	    ("over U+10FFFF", b"\xf4\x90\x80\x80"),
	    ("cut sequence", b"\xe2\x82 end"),
	    ("control bytes", b"a\x01b\x1fc\td"),
	    ("quotes and backslashes", b'say "hi" \\ back\\slash /'),
	]
	def latin1(e):
	    return (e.object[e.start:e.start + 1].decode("latin-1"), e.start + 1)
	codecs.register_error("latin1-byte", latin1)
	def expect(b):
	    s = b.decode("utf-8", "latin1-byte")
	    t = json.dumps(s, ensure_ascii=False)
	    return re.sub(r"\\u00([0-9a-f]{2})", lambda m: "\\u00" + m.group(1).upper(), t).encode()
	def pgn_quote(b):
	    return b.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
	def run(args, path):
	    r = subprocess.run(args + [path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
	    lines = r.stdout.split(b"\n")[:-1]
	    for ln in lines:
	        json.loads(ln)      # every line is JSON
	    return lines
	bad = 0
	for k, (name, b) in enumerate(cases):
	    pgn = "%s/%d.pgn" % (tmp, k)
	    fen = "%s/%d.fen" % (tmp, k)
	    with open(pgn, "wb") as f:
	        f.write(b'[Event "x"]\n[White "' + pgn_quote(b) + b'"]\n\n1. e4 {<' + b + b'>} e5 *\n')
	    with open(fen, "wb") as f:
	        f.write(b"8/8/8 nofen " + b + b"\n")
	    got = []
	    if mode == "pgn":
	        out = run(["zhpgn", "--json"], pgn)
	        o = json.loads(out[0])
	        got = [(o["tags"]["White"], b), (o["moves"][0]["comment"], b"<" + b + b">")]
	    elif mode == "check":
	        out = run(["zhcheck", "--json"], pgn)
	        got = [(json.loads(out[0])["white"], b)]
	    elif mode == "replay":
	        out = run(["zhreplay", "-f", "jsonl"], pgn)
	        if len(out) != 3:
	            print("%s: %d lines" % (name, len(out))); bad += 1
	    elif mode == "fen":
	        out = run(["zhfen", "--json"], fen)
	        got = [(json.loads(out[0])["input"], b"8/8/8 nofen " + b)]
	    elif mode == "checkfen":
	        out = run(["zhcheck", "--fen", "--json"], fen)
	        got = [(json.loads(out[0])["fen"], b"8/8/8 nofen " + b)]
	    # the value as Python reads it, and the very bytes of the string
	    for g, t in got:
	        if g != t.decode("utf-8", "latin1-byte"):
	            print("%s: %r" % (name, g)); bad += 1
	        if expect(t) not in out[0]:
	            print("%s: %s has not %s" % (name, out[0], expect(t))); bad += 1
	sys.exit(bad != 0)
	EOF
}

@test "json-text: zhpgn --json, tags and comments" {
	run -0 texts pgn
}

@test "json-text: zhcheck --json, the White tag" {
	run -0 texts check
}

@test "json-text: zhcheck --fen --json, the line as read" {
	run -0 texts checkfen
}

@test "json-text: zhfen --json, an invalid line echoed" {
	run -0 texts fen
}

@test "json-text: zhreplay -F jsonl, every line JSON for the same games" {
	run -0 texts replay
}

@test "json-text: zhfen --json, an error message quoting a Latin-1 byte" {
	run -1 --separate-stderr zhfen --json \
	    "$(printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 \351')"
	assert_output --partial "\"message\":\"unexpected field '$(printf '\303\251')'"
}
