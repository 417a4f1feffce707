#!/bin/sh
# bench/instr.sh - instructions (callgrind's count, independent of the
# machine's load) of the main paths, this tree's build against a given
# commit's: the check a refactoring must pass ("within 1%").  Usage:
#
#   bench/instr.sh REV [N]     # the first N games of zh.pgn (2000)
#
# REV is built in bench/tmp/same-REV (shared with bench/samebytes.sh).
# Prints one line per command: REV's count, this tree's, the change.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
[ $# -ge 1 ] || { echo "usage: bench/instr.sh REV [N]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instr: valgrind not installed" >&2; exit 2; }
rev=$(git rev-parse --short "$1") || exit 2
n=${2:-2000}
base=bench/tmp/same-$rev
DATA=${ZH_BENCH_DATA:-../shared/bench}
make -s all >/dev/null || exit 2
if [ ! -x "$base/bin/zhreplay" ]; then
	git worktree add -f --detach "$base" "$rev" >/dev/null 2>&1 || exit 2
	make -s -C "$base" all >/dev/null 2>&1 ||
	    { echo "instr: cannot build $rev" >&2; exit 2; }
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# the first N games: a game starts at its first tag after a blank line
awk -v n="$n" '/^\[Event / && !intag { if (++g > n) exit } { intag = /^\[/ } { print }' \
    "$DATA/zh.pgn" >"$tmp/in.pgn" || exit 2

count() {	# BIN ARGS...: the instructions of one run
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
	    awk '/Collected :/ { print $NF }'
}
printf '%-28s %14s %14s %8s\n' "command ($n games)" "$rev" "this tree" change
while read -r tool args; do
	a=$(count "$base/bin/$tool" $args "$tmp/in.pgn")
	b=$(count "bin/$tool" $args "$tmp/in.pgn")
	awk -v c="$tool $args" -v a="$a" -v b="$b" \
	    'BEGIN { printf "%-28s %14d %14d %+7.2f%%\n", c, a, b, 100 * (b - a) / a }'
done <<'CMDS'
zhcheck -q
zhpgn --json
zhpgn --to xboard
zhreplay -F fen
zhreplay -F jsonl
CMDS
