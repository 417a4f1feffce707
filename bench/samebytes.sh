#!/bin/sh
# bench/samebytes.sh - every tool's output on testdata and the bench
# archives, from a given commit's build and from this tree's, compared.
# A refactoring must leave every byte the same; a fix changes only what
# it says it changes.  Usage:
#
#   bench/samebytes.sh REV            # REV's build against this tree's bin/
#   ZH_SAME_BIG=0 bench/samebytes.sh REV   # testdata only, no bench archives
#
# REV is built in bench/tmp/same-REV (a git worktree, kept for the next
# run).  Each case is one command line run by both builds; stdout, stderr
# (with the tools' paths made the same) and the exit status are compared.
# A case whose line holds a tab is split at its tabs only (a FEN's
# spaces kept).  Prints one line per case that differs and the count;
# exits 1 if any.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
[ $# -ge 1 ] || { echo "usage: bench/samebytes.sh REV" >&2; exit 2; }
rev=$(git rev-parse --short "$1") || exit 2
base=bench/tmp/same-$rev
out=bench/tmp/same-out
DATA=${ZH_BENCH_DATA:-../shared/bench}
make -s all >/dev/null || exit 2
if [ ! -x "$base/bin/zhreplay" ]; then
	git worktree add -f --detach "$base" "$rev" >/dev/null 2>&1 || exit 2
	make -s -C "$base" all >/dev/null 2>&1 ||
	    { echo "samebytes: cannot build $rev" >&2; exit 2; }
fi
rm -rf "$out"; mkdir -p "$out/a" "$out/b" || exit 2

tab=$(printf '\t')

# The position after ply N of the first game of file F (REV's zhreplay).
fen_at() {
	"$base/bin/zhreplay" -q -F fen --plies "$2" --max 1 "$1" 2>/dev/null | sed -n 1p
}

# The cases: one command line each, TOOL standing for the tool's path.
cases() {
	for f in $(find testdata -name '*.pgn' -o -name '*.bpgn' | sort); do
		# the position search: one position (after ply 9), two (the
		# second after ply 30), each tool
		a=$(fen_at "$f" 9) b=$(fen_at "$f" 30)
		if [ -n "$a" ]; then
			echo "zhcheck${tab}-q${tab}--position${tab}$a${tab}$f"
			echo "zhpgn${tab}--position${tab}$a${tab}--position${tab}${b:-$a}${tab}$f"
			echo "zhreplay${tab}-F${tab}fen${tab}--position${tab}${b:-$a}${tab}$f"
		fi
		echo "zhcheck $f"
		echo "zhcheck --json $f"
		echo "zhpgn $f"
		echo "zhpgn --json --fens $f"
		for d in xboard chesscom fairy; do echo "zhpgn -t $d $f"; done
		for fmt in fen epd uci ucipos san jsonl board; do
			echo "zhreplay -F $fmt --color never $f"
			echo "zhreplay -F $fmt -j 2 --color never $f"
		done
		# the formats whose output is files: @OUT@ a directory of
		# the case's, its files compared
		echo "zhreplay -F npy -o @OUT@ $f"
		echo "zhreplay -F npy -j 2 -o @OUT@ $f"
		echo "zhreplay -F parquet -o @OUT@ $f"
		echo "zhreplay -F planes -j 2 --mask -o @OUT@ $f"
		echo "zhpgn -F parquet -o @OUT@/g.parquet $f"
	done
	# pictures (slow: a picture a position): the pictures' testdata
	# and two games of each bughouse source
	for f in $(find testdata/pictures testdata/bughouse/real -name '*.pgn' -o -name '*.bpgn' | sort); do
		echo "zhreplay -F svg --max 2 $f"
		echo "zhreplay -F png -j 2 --max 2 --final-only -o @OUT@/g%d.png $f"
		echo "zhreplay -F gif --max 2 -o @OUT@/g%d.gif $f"
	done
	for f in $(find testdata/fen -name '*.fen' | sort); do
		echo "zhfen $f"
		echo "zhfen --json $f"
		echo "zhfen -m $f"
		echo "zhcheck --fen $f"
	done
	[ "${ZH_SAME_BIG:-1}" = 1 ] || return 0
	for f in "$DATA/zh.pgn" "$DATA/zh-tags.pgn.zst" "$DATA/chess-tags.pgn"; do
		[ -f "$f" ] || continue
		echo "zhcheck $f"
		echo "zhpgn --json $f"
		echo "zhreplay -F fen $f"
		echo "zhreplay -F jsonl -j 2 $f"
		echo "zhreplay -F npy -j 2 -o @OUT@ $f"
		echo "zhpgn -j 2 --tag WhiteElo>=1800 --dedupe $f"
		a=$(fen_at "$f" 1)
		echo "zhcheck${tab}--position${tab}$a${tab}$f"
		echo "zhpgn${tab}--position${tab}$a${tab}$f"
	done
}

n=0 bad=0
cases >"$out/cases"
while IFS= read -r line; do
	n=$((n + 1))
	case $line in
	*"$tab"*) split=$tab ;;
	*) split=' ' ;;
	esac
	tool=${line%%"$split"*} args=${line#*"$split"}
	for side in a b; do
		if [ $side = a ]; then bin=$base/bin; else bin=bin; fi
		d=$out/$side/$n.d
		mkdir -p "$d"
		a2=$(printf '%s' "$args" | sed "s|@OUT@|$d|g")
		# shellcheck disable=SC2086
		(IFS=$split; set -f; exec "$bin/$tool" $a2) \
		    >"$out/$side/$n.out" 2>"$out/$side/$n.err"
		echo $? >"$out/$side/$n.rc"
		sed -i "s|$bin/||g; s|$d|@OUT@|g" "$out/$side/$n.err"
		# the files written, by name, into the compared output
		for o in $(ls "$d" | sort); do
			printf '== %s\n' "$o"; cat "$d/$o"
		done >>"$out/$side/$n.out"
	done
	for k in out err rc; do
		cmp -s "$out/a/$n.$k" "$out/b/$n.$k" || {
			bad=$((bad + 1)); echo "differs ($k): $line"; break; }
	done
done <"$out/cases"
echo "samebytes: $n cases, $bad differ (outputs in $out)"
[ "$bad" -eq 0 ]
