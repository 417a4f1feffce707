#!/usr/bin/env bats
# zhreplay's formats are the rows of one table (cmd/zhreplay/formats.c,
# issue 40).  A format added without its row, or without its
# documentation, fails here: the rows, -F's list in man/zhreplay.1, the
# completion's words, --help, cmd/README.md's map and the unknown
# format's message name the same formats; every row's name is taken by
# -F; every position function of cmd/zhreplay/ is some row's; and no
# file of cmd/ chooses by the format's name.
bats_require_minimum_version 1.5.0
load common

# The rows' names, in the table's order.
rows() {
	grep -o '\.name = "[a-z0-9]*"' "$ZH_TOP/cmd/zhreplay/formats.c" | cut -d'"' -f2
}

# The formats man/zhreplay.1 lists under -F (its first nested list).
documented() {
	awk '/^\.It Fl F , Fl \\-format/ { on = 1; next }
	    on && /^\.Bl/ { depth++; next }
	    on && /^\.El/ { if (--depth == 0) exit; next }
	    on && depth == 1 && /^\.It Cm / { for (i = 2; i <= NF; i++) if ($(i - 1) == "Cm") print $i }' \
	    "$ZH_TOP/man/zhreplay.1" | tr -d ','
}

@test "formats: the table has the rows, and -F takes each" {
	run rows
	[ "${#lines[@]}" -ge 11 ]
	local f
	for f in $(rows); do
		run zhreplay -F "$f" --help
		assert_success
	done
	run zhreplay -F nosuch testdata/zhreplay/simple.pgn
	assert_failure 2
	assert_output --partial "unknown format 'nosuch' (try $(rows | paste -sd, | sed 's/,/, /g'))"
}

@test "formats: a row's other tools (zhfen, zhpgn) take its name as --format, and only those" {
	local line f t
	while read -r line; do
		f=$(grep -o '\.name = "[a-z0-9]*"' <<<"$line" | cut -d'"' -f2)
		for t in zhfen zhpgn; do
			run "$t" --format "$f" --help
			if [[ "$line" == *"TOOL_${t^^}"* ]]; then
				assert_success
			else
				assert_failure 2
			fi
		done
	done < <(grep '\.name = "' "$ZH_TOP/cmd/zhreplay/formats.c")
}

@test "formats: man/zhreplay.1 documents exactly the rows under -F" {
	run diff <(rows | sort) <(documented | sort)
	assert_success
}

@test "formats: the completion offers, and --help and cmd/README.md name, every row" {
	local words f
	words=$(grep -o "compgen -W '[^']*ucipos[^']*'" "$ZH_TOP/completion/zhkit.bash")
	run zhreplay --help
	for f in $(rows); do
		[[ " ${words#compgen -W \'} " == *" $f "* || " ${words%\'} " == *" $f "* ]] ||
		    { echo "completion lacks $f"; return 1; }
		[[ "$output" == *"$f"* ]] || { echo "--help lacks $f"; return 1; }
		grep -q -- "-F $f\b\|\`$f\`" "$ZH_TOP/cmd/README.md" ||
		    { echo "cmd/README.md lacks $f"; return 1; }
	done
}

@test "formats: every position function of cmd/zhreplay/ is a row's" {
	local fn
	# (a position function: fn(void *st, const struct zh_ply or zh_bply *))
	for fn in $(grep -hE '^[a-z_0-9]+\(void \*[a-z]+, const struct zh_b?ply \*[a-z]+\)$' "$ZH_TOP"/cmd/zhreplay/*.c | cut -d'(' -f1); do
		grep -q "= $fn\b" "$ZH_TOP/cmd/zhreplay/formats.c" ||
		    { echo "$fn is in no row"; return 1; }
	done
	[ "$(grep -cE '^[a-z_0-9]+\(void \*[a-z]+, const struct zh_b?ply \*[a-z]+\)$' "$ZH_TOP"/cmd/zhreplay/*.c | awk -F: '{ n += $2 } END { print n }')" -ge 20 ]
}

@test "formats: no file of cmd/ chooses by the format's name (no if-chain, no switch)" {
	run sh -c "grep -nE \"fmt *(==|!=) *(F|REPORT|PIC)_[A-Z]|(==|!=) *REPORT_(GITHUB|JUNIT|SARIF)|case (F|REPORT)_|PICTURE\\(|strcmp\\([^)]*(fmt|'fen'|\\\"fen\\\")\" '$ZH_TOP'/cmd/*.c '$ZH_TOP'/cmd/*/*.c"
	assert_output ""
	# the pattern sees such a chain (zhreplay.c had them)
	printf '\tif (o->fmt == F_FEN || o->fmt == F_EPD)\n\tcase F_UCI:\n' >"$BATS_TEST_TMPDIR/c.c"
	run grep -cE 'fmt *(==|!=) *(F|REPORT|PIC)_[A-Z]|case (F|REPORT)_|PICTURE\(' "$BATS_TEST_TMPDIR/c.c"
	assert_output 2
}
