#!/bin/bash
# bench/run.sh - time zhkit's tools against their peers, side by side, in one
# run, on the same files (see bench/README.md).  Called by `make bench`.
#
# Every timing is the median of `hyperfine -N --warmup 1` (JSON export under
# bench/tmp/json/).  Tools not built yet (bin/*) and peers not installed
# (bench/setup-peers.sh) are skipped with a one-line note, so the script runs
# at any stage of the project.  Output: one row per measurement, then a
# Markdown summary table (also written to bench/tmp/summary.md).
#
# Environment:
#   ZH_BENCH_DATA   where zh.pgn / zh-clk.pgn are (default ../shared/bench)
#   ZH_BENCH_PGN    archives to time the PGN tools on (default "zh.pgn";
#                   e.g. "zh.pgn zh-clk.pgn")
#   ZH_BENCH_RUNS   hyperfine runs per command (default 5)
#   ZH_BENCH_TOOL_RUNS  runs of each zhkit row on the archives (default 15:
#                   a run is a tenth of a second or so, and the median of
#                   five such short runs moves with the machine's load)
#   ZH_BENCH_PAIRS  -j 1 / -j 2 pairs in the jobs section (default 9)
#   ZH_BENCH_SLOW_RUNS  runs for the slow ffish peer (default 1: ~1 min a run)
#   ZH_BENCH_FENS   FENs in the zhfen input (default 1000000)
#   ZH_BENCH_BIG=1  also measure speed and peak memory on a ~1 GB file
#                   (bench/tmp/zh-1g.pgn: zh.pgn x 140); in the arrays
#                   section, -F npy's peak RSS on zh-tags.pgn x 43 and
#                   numpy.load(mmap_mode='r') of its ~5.4 GB positions.npy
#   ZH_BENCH_BIG_PGN the archive repeated to ~1 GB (zh.pgn; e.g. zh-clk.pgn)
#   ZH_BENCH_BASE   a git revision (e.g. 42ba11e): build it in bench/tmp/base-REV
#                   and time its PGN rows against this tree's, in turn
#                   (section "base", zh.pgn x 10, output to /dev/null)
#   ZH_BENCH_PLANES_GAMES  games CrazyAra's converter is timed on (default 100)
#   ZH_BENCH_ONLY   space-separated sections to run: perft fen pgn jobs compress
#                   base big select bughouse pictures arrays parquet python index planes
#   PEERS_DIR       where setup-peers.sh put the npm peers (~/.cache/zhkit-peers)
#   ENGINE          Fairy-Stockfish binary (default /usr/games/fairy-stockfish)
set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2

TMP=bench/tmp
mkdir -p "$TMP/json" || exit 2
DATA=${ZH_BENCH_DATA:-../shared/bench}
PGNS=${ZH_BENCH_PGN:-zh.pgn}
RUNS=${ZH_BENCH_RUNS:-5}
TOOL_RUNS=${ZH_BENCH_TOOL_RUNS:-15}
SLOW_RUNS=${ZH_BENCH_SLOW_RUNS:-1}
BIG_RUNS=${ZH_BENCH_BIG_RUNS:-3}
PAIRS=${ZH_BENCH_PAIRS:-9}
NFENS=${ZH_BENCH_FENS:-1000000}
ONLY=${ZH_BENCH_ONLY:-perft fen pgn jobs compress base big select bughouse pictures arrays parquet python index planes}
PEERS=${PEERS:-${PEERS_DIR:-$HOME/.cache/zhkit-peers}/node_modules}
export PEERS
ENGINE=${ENGINE:-/usr/games/fairy-stockfish}
ROWS=$TMP/rows.tsv
: >"$ROWS"
# Each timed run starts when both cores are idle (bench/idlewait.c: the
# host's other tenants leave no trace in /proc/stat); hyperfine's
# --prepare, bench/pairs.py, bench/python.py and the Dask example's
# bench run it.  ZH_IDLEWAIT= (empty) times without waiting.
if [ -z "${ZH_IDLEWAIT+set}" ] && [ -x build/bench/idlewait ]; then
	ZH_IDLEWAIT="build/bench/idlewait $TMP/idle-best"
	rm -f "$TMP/idle-best"		# learnt anew by each run
fi
export ZH_IDLEWAIT

note() { printf '  -- %s\n' "$*"; }
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
have_tool() { [ -x "bin/$1" ]; }
have_node_peer() { command -v node >/dev/null 2>&1 && [ -d "$PEERS/$1" ]; }
have_fs() { [ -x "$ENGINE" ]; }
# does bin/TOOL take -j N?  (its --help names --jobs; zhfen's old -j was --json)
has_jobs() { "bin/$1" --help 2>&1 | grep -qE -- '--jobs([[:space:],=]|$)'; }
# single-quote a word for hyperfine's command splitting
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
calc() { python3 -c "import sys; print($1)"; }

# time NAME RUNS CMD [OUTPUT] -> prints the median seconds (empty on failure)
time_cmd() {
	local name=$1 runs=$2 cmd=$3 json=$TMP/json/$1.json output=${4:-pipe}
	# --output=pipe: GNU grep (and maybe others) cut corners when stdout is
	# /dev/null.  The jobs section uses null: hyperfine draining a pipe
	# takes a share of the 2 cores that -j 2 would use.
	if ! hyperfine -N --warmup 1 --runs "$runs" --style none --output="$output" \
		${ZH_IDLEWAIT:+--prepare "$ZH_IDLEWAIT"} \
		--export-json "$json" -- "$cmd" >"$TMP/json/$name.log" 2>&1; then
		echo "  !! $name failed: $cmd (see $TMP/json/$name.log)" >&2
		return 1
	fi
	python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$json"
}

# row LABEL INPUT SECONDS METRICS [RATIO]  (printed and kept for the summary)
row() {
	printf '%-28s %-12s %8.3f s  %s%s\n' "$1" "$2" "$3" "$4" "${5:+  $5}"
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >>"$ROWS"
}

echo "zhkit benchmark  $(date -u '+%Y-%m-%d %H:%M UTC')  $(nproc) cores  $(uname -m)"
echo "  git $(git describe --always --dirty 2>/dev/null || echo '?')  runs $RUNS, zhkit on the archives $TOOL_RUNS (median)  warmup 1"
if ! command -v hyperfine >/dev/null 2>&1; then
	note "hyperfine not installed (bench/setup-peers.sh installs it): nothing timed"
	exit 0
fi
echo "  $(hyperfine --version)  node $(node --version 2>/dev/null || echo -)  peers in $PEERS"

# ------------------------------------------------------------------ perft --
# perft_case NAME VARIANT FEN DEPTH EXPECTED
# Start-up is subtracted: net = median(depth D) - median(depth 1), for both.
perft_case() {
	local name=$1 variant=$2 fen=$3 depth=$4 expect=$5 fsnps='' t tb net nodes
	if have_fs; then
		printf 'setoption name UCI_Variant value %s\nposition fen %s\ngo perft %s\nquit\n' \
			"$variant" "$fen" "$depth" >"$TMP/fs-$name.in"
		printf 'setoption name UCI_Variant value %s\nposition fen %s\ngo perft 1\nquit\n' \
			"$variant" "$fen" >"$TMP/fs-$name-base.in"
		nodes=$("$ENGINE" <"$TMP/fs-$name.in" | awk '/^Nodes searched/ {print $3}')
		[ "$nodes" = "$expect" ] || note "fairy-stockfish $name: $nodes nodes, expected $expect"
		t=$(time_cmd "fs-perft-$name" "$RUNS" "sh -c $(q "exec $ENGINE < $TMP/fs-$name.in")") &&
		tb=$(time_cmd "fs-perft-$name-base" "$RUNS" "sh -c $(q "exec $ENGINE < $TMP/fs-$name-base.in")") && {
			net=$(calc "max($t - $tb, 1e-6)")
			fsnps=$(calc "round($nodes / $net)")
			row "fairy-stockfish perft" "$name d$depth" "$net" \
				"nodes $nodes  Mnodes/s $(calc "'%.2f' % ($fsnps / 1e6)")  (start-up $(calc "'%.3f' % $tb") s subtracted)"
		}
	else
		note "fairy-stockfish not installed ($ENGINE): its perft skipped"
	fi
	if have_tool zhperft; then
		nodes=$(bin/zhperft --variant "$variant" --fen "$fen" "$depth" 2>/dev/null | python3 -c '
import re, sys
lines = [l for l in sys.stdin.read().splitlines() if l.strip()]
hit = [l for l in lines if "node" in l.lower()] or lines[-1:]
nums = re.findall(r"\d+", hit[-1].replace(",", "")) if hit else []
print(nums[-1] if nums else "")')
		[ "$nodes" = "$expect" ] || note "zhperft $name: '$nodes' nodes, expected $expect"
		[ -n "$nodes" ] || nodes=$expect
		t=$(time_cmd "zhperft-$name" "$RUNS" "bin/zhperft --variant $variant --fen $(q "$fen") $depth") &&
		tb=$(time_cmd "zhperft-$name-base" "$RUNS" "bin/zhperft --variant $variant --fen $(q "$fen") 1") && {
			net=$(calc "max($t - $tb, 1e-6)")
			local nps; nps=$(calc "round($nodes / $net)")
			row "zhperft" "$name d$depth" "$net" "nodes $nodes  Mnodes/s $(calc "'%.2f' % ($nps / 1e6)")" \
				"${fsnps:+x fairy $(calc "'%.2f' % ($nps / $fsnps)")}"
		}
	else
		note "bin/zhperft not built: zhkit perft skipped"
	fi
}

if want perft; then
	echo; echo "## perft (crazyhouse, start-up subtracted)"
	perft_case pockets crazyhouse '2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1' 3 15634852
	perft_case start crazyhouse 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' 5 4888832
fi

# ------------------------------------------------------------ the archives --
pgn_path() {  # NAME -> bench/tmp/NAME (a link to $DATA/NAME), or fail
	local f=$TMP/$1
	[ -f "$f" ] && { echo "$f"; return 0; }
	[ -f "$DATA/$1" ] || return 1
	ln -sf "$(cd "$DATA" && pwd)/$1" "$f" && echo "$f"
}

# --------------------------------------------------------------- zhfen -----
fen_section() {
	local pgn fens=$TMP/fens-$NFENS.txt src lines size t tref=
	pgn=$(pgn_path zh.pgn) || { note "zh.pgn not found in $DATA: FEN benchmark skipped"; return; }
	# The FEN file: every position of zh.pgn in the Lichess dialect, repeated
	# up to NFENS lines.  zhreplay makes it when built; until then chessops
	# does, its [..] pocket rewritten as Lichess's 9th rank.
	if have_tool zhreplay; then src=zhreplay
	elif have_node_peer chessops; then src=chessops
	else note "neither bin/zhreplay nor chessops available: no FEN file, FEN benchmark skipped"; return
	fi
	if [ ! -s "$fens" ] || [ "$(cat "$fens.src" 2>/dev/null)" != "$src" ]; then
		if [ $src = zhreplay ]; then
			bin/zhreplay --format fen --to lichess "$pgn" 2>/dev/null | grep -v '^$' >"$TMP/fens-once.txt"
		else
			node bench/chessops_replay.mjs fen "$pgn" 2>/dev/null |
				sed 's/\[\([^]]*\)\]/\/\1/' >"$TMP/fens-once.txt"
		fi
		lines=$(wc -l <"$TMP/fens-once.txt")
		[ "$lines" -gt 0 ] || { note "$src wrote no FENs: FEN benchmark skipped"; return; }
		for _ in $(seq $(((NFENS + lines - 1) / lines))); do cat "$TMP/fens-once.txt"; done |
			head -n "$NFENS" >"$fens"
		echo "$src" >"$fens.src"
		note "FEN input: $NFENS lines from zh.pgn ($lines positions) made by $src"
	fi
	size=$(wc -c <"$fens")
	if have_node_peer chessops; then
		tref=$(time_cmd chessops-fen "$RUNS" "node bench/chessops_fen.mjs $fens") &&
			row "chessops parse+makeFen" "${NFENS} FENs" "$tref" \
				"FENs/s $(calc "round($NFENS / $tref)")  MB/s $(calc "'%.1f' % ($size / $tref / 1e6)")" "x chessops 1.00"
	else
		note "chessops not installed (bench/setup-peers.sh): its FEN timing skipped"
	fi
	if have_tool zhfen; then
		t=$(time_cmd zhfen "$RUNS" "bin/zhfen --from lichess --to xboard $fens") &&
			row "zhfen lichess>xboard" "${NFENS} FENs" "$t" \
				"FENs/s $(calc "round($NFENS / $t)")  MB/s $(calc "'%.1f' % ($size / $t / 1e6)")" \
				"${tref:+x chessops $(calc "'%.1f' % ($tref / $t)")}"
	else
		note "bin/zhfen not built: skipped"
	fi
}
if want fen; then
	echo; echo "## FEN conversion"
	fen_section
fi

# ----------------------------------------------------------- PGN tools -----
# pgn_row LABEL NAME RUNS CMD REF [OUTPUT]  (on the current file: $base
# $size $games)
# REF: the chessops median to divide by, "self" for chessops's own rows, or
# empty.  The median is also left in bench/tmp/json/NAME.median.
# OUTPUT: hyperfine's --output; the peers' and zhkit's rows write to
# /dev/null ("null"), so that hyperfine draining a pipe takes no share of
# the cores from either; grep and wc write to a pipe (see time_cmd).
pgn_row() {
	local label=$1 name=$2 runs=$3 cmd=$4 ref=$5 t ratio=
	t=$(time_cmd "$name" "$runs" "$cmd" "${6:-pipe}") || return 1
	echo "$t" >"$TMP/json/$name.median"
	case $ref in
	self) ratio="x chessops 1.00" ;;
	?*) ratio="x chessops $(calc "'%.2f' % ($ref / $t)")" ;;
	esac
	row "$label" "$base" "$t" \
		"MB/s $(calc "'%.1f' % ($size / $t / 1e6)")  games/s $(calc "round($games / $t)")" "$ratio"
}

pgn_section() {
	local base=$1 pgn size games tval='' tfen='' j tool label opts kind ref slug spec
	pgn=$(pgn_path "$base") || { note "$base not found in $DATA: skipped"; return; }
	size=$(wc -c <"$(readlink -f "$pgn")")
	games=$(grep -c '^\[Event ' "$pgn")
	echo; echo "## PGN tools on $base ($games games, $(calc "'%.1f' % ($size / 1e6)") MB)"
	# peers first, so that zhkit's rows can give the ratio to chessops
	if have_node_peer chessops; then
		pgn_row "chessops validate" "chessops-validate-$base" "$RUNS" \
			"node bench/chessops_replay.mjs validate $pgn" self null &&
			tval=$(cat "$TMP/json/chessops-validate-$base.median")
		pgn_row "chessops fen/ply" "chessops-fen-$base" "$RUNS" \
			"node bench/chessops_replay.mjs fen $pgn" self null &&
			tfen=$(cat "$TMP/json/chessops-fen-$base.median")
	else
		note "chessops not installed (bench/setup-peers.sh): ratios to chessops left out"
	fi
	if have_node_peer ffish; then
		pgn_row "ffish validate" "ffish-validate-$base" "$SLOW_RUNS" \
			"node bench/ffish_replay.js validate $pgn" "$tval" null
	else
		note "ffish not installed (bench/setup-peers.sh): skipped"
	fi
	pgn_row "grep -c '^[Event '" "grep-$base" "$RUNS" "grep -c $(q '^\[Event ') $pgn" "$tval"
	pgn_row "wc -l" "wc-$base" "$RUNS" "wc -l $pgn" "$tval"

	# LABEL|TOOL|OPTIONS|val or fen (which chessops row to compare with)
	for spec in "zhcheck|zhcheck||val" "zhpgn --json|zhpgn|--json|val" \
		"zhpgn --to xboard|zhpgn|--to xboard|val" \
		"zhreplay --format fen|zhreplay|--format fen|fen" \
		"zhreplay --format jsonl|zhreplay|--format jsonl|fen"; do
		IFS='|' read -r label tool opts kind <<EOF
$spec
EOF
		if ! have_tool "$tool"; then note "bin/$tool not built: '$label' skipped"; continue; fi
		ref=$tval; [ "$kind" = fen ] && ref=$tfen
		slug=$(printf '%s' "$label" | tr -c 'A-Za-z0-9' '-')
		if has_jobs "$tool"; then
			for j in 1 2; do
				pgn_row "$label -j$j" "$slug-j$j-$base" "$TOOL_RUNS" \
					"bin/$tool $opts -j $j $pgn" "$ref" null
			done
		else
			pgn_row "$label" "$slug-$base" "$TOOL_RUNS" "bin/$tool $opts $pgn" "$ref" null
		fi
	done
}
if want pgn; then
	for b in $PGNS; do pgn_section "$b"; done
fi

# ------------------------------------------------ -j 1 against -j 2 -------
# The same commands on zh.pgn x 10 (72 MB), output to /dev/null: a run of
# about a second, long enough that the start and the last batch weigh
# little, and no pipe reader competing for the cores.  -j 1 and -j 2 run
# in turn and the speedup is the median of the pairs' ratios, so that a
# change in the machine's load between them does not move it; the CPU
# time (user + system) says what -j 2 costs in all.
jobs_section() {
	local src med=$TMP/zh-10.pgn size spec label tool opts slug t1 t2
	src=$(pgn_path zh.pgn) || { note "zh.pgn not found in $DATA: -j section skipped"; return; }
	if [ ! -s "$med" ]; then
		for _ in $(seq 10); do cat "$src"; done >"$med"
	fi
	size=$(wc -c <"$med")
	echo; echo "## -j 1 and -j 2 on zh.pgn x 10 ($(calc "'%.0f' % ($size / 1e6)") MB, output to /dev/null)"
	for spec in "zhcheck|" "zhpgn --json|--json" "zhpgn --to xboard|--to xboard" \
		"zhreplay --format fen|--format fen" "zhreplay --format jsonl|--format jsonl"; do
		label=${spec%%|*} opts=${spec#*|} tool=${label%% *}
		have_tool "$tool" && has_jobs "$tool" || { note "bin/$tool: no -j, skipped"; continue; }
		slug=$(printf '%s' "$label" | tr -c 'A-Za-z0-9' '-')
		# -j1 and -j2 in turn, the speedup pair by pair (bench/pairs.py)
		set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/$slug-j1j2-x10.json" \
			"bin/$tool $opts -j 1 $med" "bin/$tool $opts -j 2 $med") || continue
		[ $# -eq 5 ] || continue
		t1=$1 t2=$2
		row "$label -j1" "zh.pgn x 10" "$t1" "MB/s $(calc "'%.1f' % ($size / $t1 / 1e6)")  CPU $(calc "'%.3f' % $4") s"
		row "$label -j2" "zh.pgn x 10" "$t2" "MB/s $(calc "'%.1f' % ($size / $t2 / 1e6)")  CPU $(calc "'%.3f' % $5") s" \
			"-j2 speedup $(calc "'%.2f' % $3")x, CPU x$(calc "'%.2f' % ($5 / $4)")"
	done
}
if want jobs; then jobs_section; fi

# --------------------------------------------------- compressed input -----
# zh-tags.pgn.zst (pzstd -19: four frames, four skippable frames), output
# to /dev/null, each pair run in turn (bench/pairs.py): zhcheck reading the
# file itself against zstdcat piped into zhcheck, one worker each; -j 2
# against -j 1 on it, and -j 0 (which leaves the decoding thread its
# core: one worker on two cores; never slower than -j 1 wanted);
# decompression alone through the tools' read path
# (build/bench/inflate: cli/codec.c, 128 KB freads) against zstd -dc; and
# zhcheck -j 1's peak memory (/usr/bin/time -v), zstd's window included.
compress_section() {
	local z size rss
	z=$(pgn_path zh-tags.pgn.zst) || { note "zh-tags.pgn.zst not found in $DATA: compressed section skipped"; return; }
	have_tool zhcheck || { note "bin/zhcheck not built: compressed section skipped"; return; }
	command -v zstd >/dev/null || { note "zstd not installed: compressed section skipped"; return; }
	z=$(readlink -f "$z")	# zstd passes over symbolic links
	size=$(zstd -dc "$z" | wc -c)
	echo; echo "## compressed input: zh-tags.pgn.zst ($(calc "'%.1f' % ($(wc -c <"$z") / 1e6)") MB, $(calc "'%.1f' % ($size / 1e6)") MB of text; output to /dev/null)"
	set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/zst-file-pipe.json" \
		"bin/zhcheck -j 1 $z" "sh -c $(q "zstdcat $z | bin/zhcheck -j 1")")
	if [ $# -eq 5 ]; then
		row "zstdcat f | zhcheck -j1" "zh-tags.zst" "$2" "CPU $(calc "'%.3f' % $5") s"
		row "zhcheck -j1 f.zst" "zh-tags.zst" "$1" "MB/s $(calc "'%.1f' % ($size / $1 / 1e6)")  CPU $(calc "'%.3f' % $4") s" \
			"x$(calc "'%.2f' % $3") of the pipe's time (pairs; at most 1 wanted)"
	fi
	set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/zst-j1j2.json" \
		"bin/zhcheck -j 1 $z" "bin/zhcheck -j 2 $z")
	[ $# -eq 5 ] &&
		row "zhcheck -j2 f.zst" "zh-tags.zst" "$2" "MB/s $(calc "'%.1f' % ($size / $2 / 1e6)")  CPU $(calc "'%.3f' % $5") s" \
			"-j2 speedup $(calc "'%.2f' % $3")x over -j1 (pairs)"
	set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/zst-j1j0.json" \
		"bin/zhcheck -j 1 $z" "bin/zhcheck -j 0 $z")
	[ $# -eq 5 ] &&
		row "zhcheck -j0 f.zst" "zh-tags.zst" "$2" "$(ZH_JOBS_DEBUG=1 bin/zhcheck -q -j 0 "$z" 2>&1 >/dev/null |
		    sed -n 's/^.*-j 0: \(.*\)$/\1/p')" \
			"-j0 speedup $(calc "'%.2f' % $3")x over -j1 (pairs; at least 1 wanted)"
	if [ -x build/bench/inflate ]; then
		set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/zst-inflate.json" \
			"build/bench/inflate $z" "zstd -dc $z")
		if [ $# -eq 5 ]; then
			row "zstd -dc" "zh-tags.zst" "$2" "MB/s $(calc "'%.1f' % ($size / $2 / 1e6)")"
			row "decompression alone" "zh-tags.zst" "$1" "MB/s $(calc "'%.1f' % ($size / $1 / 1e6)")" \
				"x$(calc "'%.2f' % $3") of zstd -dc's time (pairs)"
		fi
	else
		note "build/bench/inflate not built: decompression alone skipped"
	fi
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v bin/zhcheck -j 1 "$z" 2>"$TMP/time.txt" >/dev/null
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
		row "zhcheck -j1 f.zst peak RSS" "zh-tags.zst" 0 "max RSS $(calc "'%.1f' % ($rss / 1024)") MB"
	fi
}
if want compress; then compress_section; fi

# --------------------------------------------- against a base revision ----
# ZH_BENCH_BASE=REV: the same PGN rows built from REV (git archive, built
# with this Makefile's defaults in bench/tmp/base-REV) and from this tree,
# run in turn on zh.pgn x 10 with output to /dev/null; the ratio is the
# median of the pairs' ratios (bench/pairs.py), so that a change of the
# machine's load during the run moves both sides alike.  Above 1: this
# tree is slower.
base_section() {
	local rev=${ZH_BENCH_BASE:-} dir src med=$TMP/zh-10.pgn size spec label tool opts slug j
	[ -n "$rev" ] || { note "set ZH_BENCH_BASE=REV to time a base revision's tools beside these"; return; }
	rev=$(git rev-parse --short "$rev" 2>/dev/null) || { note "ZH_BENCH_BASE: no revision '$ZH_BENCH_BASE'"; return; }
	dir=$TMP/base-$rev
	if [ ! -x "$dir/bin/zhcheck" ]; then
		rm -rf "$dir" && mkdir -p "$dir" &&
			git archive "$rev" | tar -x -C "$dir" &&
			make -C "$dir" --no-print-directory all >"$TMP/base-$rev.log" 2>&1 ||
			{ note "building $rev failed (see $TMP/base-$rev.log): skipped"; return; }
	fi
	src=$(pgn_path zh.pgn) || { note "zh.pgn not found in $DATA: base section skipped"; return; }
	[ -s "$med" ] || for _ in $(seq 10); do cat "$src"; done >"$med"
	size=$(wc -c <"$med")
	echo; echo "## $rev against this tree on zh.pgn x 10 ($(calc "'%.0f' % ($size / 1e6)") MB, output to /dev/null)"
	for spec in "zhcheck|" "zhpgn --json|--json" "zhpgn --to xboard|--to xboard" \
		"zhreplay --format fen|--format fen" "zhreplay --format jsonl|--format jsonl"; do
		label=${spec%%|*} opts=${spec#*|} tool=${label%% *}
		have_tool "$tool" || continue
		for j in 1 2; do
			slug=$(printf '%s' "$label" | tr -c 'A-Za-z0-9' '-')
			set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/$slug-j$j-base.json" \
				"$dir/bin/$tool $opts -j $j $med" "bin/$tool $opts -j $j $med") || continue
			[ $# -eq 5 ] || continue
			row "$label -j$j @$rev" "zh.pgn x 10" "$1" "CPU $(calc "'%.3f' % $4") s"
			row "$label -j$j" "zh.pgn x 10" "$2" "CPU $(calc "'%.3f' % $5") s" \
				"x$(calc "'%.3f' % (1 / $3)") of $rev's time (pairs)"
		done
	done
}
if want base; then base_section; fi

# ------------------------------------------ speed and peak memory, 1 GB ----
big_section() {
	local name=${ZH_BENCH_BIG_PGN:-zh.pgn} src big size reps tool opts label j jopt rss wall secs gsecs= spec
	# (a quote inside "${x:+...}" starts a quoted string in bash 5.2:
	# the word with one is kept apart)
	local ofgrep="of grep's MB/s"
	src=$(pgn_path "$name") || { note "$name not found in $DATA: memory benchmark skipped"; return; }
	big=$TMP/${name%.pgn}-1g.pgn
	if ! have_tool zhcheck && ! have_tool zhpgn; then
		note "bin/zhcheck and bin/zhpgn not built: memory benchmark skipped"; return
	fi
	[ -x /usr/bin/time ] || { note "/usr/bin/time missing (apt-get install time): memory benchmark skipped"; return; }
	if [ ! -s "$big" ]; then
		# copies of the archive to about 1 GB (zh.pgn: 140)
		reps=$(calc "-(-1000000000 // $(wc -c <"$src"))")
		note "making $big ($name x $reps)"
		for _ in $(seq "$reps"); do cat "$src"; done >"$big"
	fi
	size=$(wc -c <"$big")
	echo; echo "## speed and peak memory on ${big##*/} ($(calc "'%.0f' % ($size / 1e6)") MB)"
	# the yardsticks of zhcheck's speed bar, on the same file
	for spec in "grep -c '^[Event '|grep -c $(q '^\[Event ') $big" "wc -l|wc -l $big"; do
		label=${spec%%|*}
		secs=$(time_cmd "big-${label%% *}" "$BIG_RUNS" "${spec#*|}") || continue
		[ "${label%% *}" = grep ] && gsecs=$secs
		row "$label" "${big##*/}" "$secs" "MB/s $(calc "'%.1f' % ($size / $secs / 1e6)")"
	done
	# the floors under zhcheck: the libzh reader alone (no rules), and
	# the reader with every game replayed for legality (bench/floor.c)
	if [ -x build/bench/floor ]; then
		for spec in "libzh reader alone|read" "libzh reader + replay|replay"; do
			label=${spec%%|*}
			secs=$(time_cmd "big-floor-${spec#*|}" "$BIG_RUNS" "build/bench/floor ${spec#*|} $big") || continue
			row "$label" "${big##*/}" "$secs" "MB/s $(calc "'%.1f' % ($size / $secs / 1e6)")" \
			    "${gsecs:+1/$(calc "'%.1f' % ($secs / $gsecs)") $ofgrep}"
		done
	else
		note "build/bench/floor not built (make build/bench/floor): the reader's floors skipped"
	fi
	for spec in "zhcheck|" "zhpgn|--json"; do
		tool=${spec%%|*} opts=${spec#*|}
		have_tool "$tool" || { note "bin/$tool not built: skipped"; continue; }
		for j in 1 2; do
			if [ $j = 2 ] && ! has_jobs "$tool"; then continue; fi
			jopt=; has_jobs "$tool" && jopt="-j $j"
			label="$tool${opts:+ $opts}${jopt:+ -j$j}"
			[ -n "$ZH_IDLEWAIT" ] && $ZH_IDLEWAIT	# (one run: on idle cores)
			# shellcheck disable=SC2086
			{ /usr/bin/time -v bin/$tool $opts $jopt "$big" 2>"$TMP/time.txt"; } | cat >/dev/null
			rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
			wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$TMP/time.txt")
			secs=$(python3 -c 'import sys; p=[float(x) for x in sys.argv[1].split(":")]; print(sum(v*60**i for i,v in enumerate(reversed(p))))' "$wall")
			row "$label" "${big##*/}" "$secs" "max RSS $(calc "'%.1f' % ($rss / 1024)") MB  MB/s $(calc "'%.1f' % ($size / $secs / 1e6)")" \
			    "${gsecs:+1/$(calc "'%.1f' % ($secs / $gsecs)") $ofgrep}"
		done
	done
}
if want big; then
	if [ "${ZH_BENCH_BIG:-0}" = 1 ]; then big_section
	else echo; note "peak memory on a 1 GB file: set ZH_BENCH_BIG=1"
	fi
fi

# -------------------------------------------------------------- select -----
# Selecting games (issue 23) on the tagged archives: a tag-only selection
# beside grep -c (finding where games start) and pgn-extract -t, duplicate
# removal beside pgn-extract -D, a position search beside a plain zhcheck.
# sel_row LABEL NAME CMD REF REFNAME [OUTPUT]: the ratio is REF's time over
# this one's ("x REFNAME").
sel_row() {
	local t
	t=$(time_cmd "$2" "$RUNS" "$3" "${6:-null}") || return 1
	echo "$t" >"$TMP/json/$2.median"
	row "$1" "$base" "$t" "MB/s $(calc "'%.1f' % ($size / $t / 1e6)")" \
	    "${4:+x $5 $(calc "'%.2f' % ($4 / $t)")}"
}

select_section() {
	local base pgn size tgrep= tpe= tcheck= pe elo fen
	pe=$(command -v pgn-extract || command -v /usr/games/pgn-extract || :)
	elo="--tag $(q 'WhiteElo >= 2000') --tag $(q 'BlackElo >= 2000')"
	printf 'WhiteElo >= "2000"\nBlackElo >= "2000"\n' >"$TMP/elo.tags"
	for base in zh-tags.pgn chess-tags.pgn; do
		tgrep= tpe= tcheck=
		pgn=$(pgn_path "$base") || { note "$base not found in $DATA: skipped"; continue; }
		size=$(wc -c <"$(readlink -f "$pgn")")
		echo; echo "## Selecting games on $base ($(calc "'%.1f' % ($size / 1e6)") MB)"
		sel_row "grep -c '^[Event '" "sel-grep-$base" "grep -c $(q '^\[Event ') $pgn" "" "" pipe &&
			tgrep=$(cat "$TMP/json/sel-grep-$base.median")
		if [ -n "$pe" ]; then
			sel_row "pgn-extract -t (Elo>=2000)" "sel-pe-t-$base" "$pe -s -t $TMP/elo.tags -o /dev/null $pgn" "$tgrep" "grep's speed"
		fi
		have_tool zhpgn || { note "bin/zhpgn not built: skipped"; continue; }
		sel_row "zhpgn --tag (Elo>=2000)" "sel-zhpgn-t-$base" "bin/zhpgn -q -o /dev/null $elo $pgn" "$tgrep" "grep's speed"
		if [ -n "$pe" ] && [ "$base" = chess-tags.pgn ]; then
			sel_row "pgn-extract -D" "sel-pe-D-$base" "$pe -s -D -o /dev/null $pgn" &&
				tpe=$(cat "$TMP/json/sel-pe-D-$base.median")
		fi
		sel_row "zhpgn --dedupe" "sel-zhpgn-D-$base" "bin/zhpgn -q -o /dev/null --dedupe $pgn" "$tpe" "pgn-extract -D"
		# the same games kept in the same order (duplicates are decided
		# on the main thread in input order), the conversion on 2 workers
		sel_row "zhpgn -j 2 --dedupe" "sel-zhpgn-D2-$base" "bin/zhpgn -q -j 2 -o /dev/null --dedupe $pgn" "$tpe" "pgn-extract -D"
		have_tool zhcheck || continue
		sel_row "zhcheck" "sel-check-$base" "bin/zhcheck -q $pgn" &&
			tcheck=$(cat "$TMP/json/sel-check-$base.median")
		# a position most games reach: after 1. e4 (or 1. e3/d4 for none)
		fen=$(bin/zhreplay -q -F fen --plies 1 --max 1 "$pgn" | sed -n 1p)
		sel_row "zhcheck --position" "sel-check-pos-$base" "bin/zhcheck -q --position $(q "$fen") $pgn" "$tcheck" "zhcheck"
		# the same search in zhpgn, which writes the games found
		# (goal: at most 1.3x zhcheck's time, x zhcheck >= 0.77)
		have_tool zhpgn &&
			sel_row "zhpgn --position" "sel-zhpgn-pos-$base" "bin/zhpgn -q -o /dev/null --position $(q "$fen") $pgn" "$tcheck" "zhcheck"
	done
}
if want select; then
	select_section
fi

# ------------------------------------------------------------ bughouse -----
# Validating bughouse (issue 27): the 300 generated games of
# testdata/bughouse/gen/bughousedb.bpgn (bughousedb.com's layout: a clock
# after every half-move, a Lag tag) repeated to 10,200 games, beside
# zhcheck on zh.pgn in the same run; plies (half-moves) per second, each
# file's plies counted by zhcheck --json.  The bar: at least half of
# zhcheck's plies per second on zh.pgn.
bughouse_section() {
	local src zh arch n tb tz pb pz
	src=testdata/bughouse/gen/bughousedb.bpgn
	[ -f "$src" ] || { note "$src not found: bughouse section skipped"; return; }
	have_tool zhcheck || { note "bin/zhcheck not built: bughouse section skipped"; return; }
	zh=$(pgn_path zh.pgn) || { note "zh.pgn not found in $DATA: bughouse section skipped"; return; }
	arch=$TMP/bughouse-10k.bpgn
	if [ ! -s "$arch" ]; then
		for n in $(seq 34); do cat "$src"; done >"$arch"
	fi
	pb=$(bin/zhcheck -q -w --json "$arch" | jq -s 'map(.plies)|add')
	pz=$(bin/zhcheck -q -w --json "$zh" | jq -s 'map(.plies)|add')
	echo; echo "## Validating bughouse: $(grep -c '^\[Event ' "$arch") games, $pb half-moves, beside zh.pgn ($pz plies)"
	tz=$(time_cmd bug-zh "$TOOL_RUNS" "bin/zhcheck -q -w $zh") || return
	row "zhcheck" "zh.pgn" "$tz" "plies/s $(calc "'%.0f' % ($pz / $tz)")"
	tb=$(time_cmd bug-arch "$TOOL_RUNS" "bin/zhcheck -q -w $arch") || return
	row "zhcheck (bughouse)" "bughousedb x34" "$tb" \
	    "plies/s $(calc "'%.0f' % ($pb / $tb)")" \
	    "x zhcheck's plies/s on zh.pgn $(calc "'%.2f' % (($pb / $tb) / ($pz / $tz))") (bar 0.5)"
}
if want bughouse; then bughouse_section; fi

# ------------------------------------------------------------ pictures -----
# Pictures (issue 35): a 93-ply crazyhouse game with clocks (the first of
# zh-clk.pgn, else zh.pgn) to an animated GIF (bar: 60 ms, 400 KiB, as
# lila-gif's published figure for a chess game of 720x840 frames; ours
# are 528x720); one SVG diagram (zhfen, the whole process); and SVGs of
# every position of zh.pgn on one core (bar: 50,000 a second), written
# to /dev/null one a line.
pictures_section() {
	local zh src g93 t n size
	have_tool zhreplay || { note "bin/zhreplay not built: pictures section skipped"; return; }
	zh=$(pgn_path zh.pgn) || { note "zh.pgn not found in $DATA: pictures section skipped"; return; }
	src=$(pgn_path zh-clk.pgn) || src=$zh
	g93=$TMP/g93.pgn
	[ -s "$g93" ] || bin/zhpgn --ply-count 93 --max 1 "$src" >"$g93" 2>/dev/null
	[ -s "$g93" ] || { note "no 93-ply game in $src: GIF row skipped"; }
	echo; echo "## Pictures"
	if [ -s "$g93" ]; then
		t=$(time_cmd pic-gif "$TOOL_RUNS" "bin/zhreplay -F gif -o $TMP/g93.gif $g93") || return
		size=$(wc -c <"$TMP/g93.gif")
		row "zhreplay -F gif" "93 plies" "$t" "$(calc "'%.0f KiB' % ($size / 1024.0)")" \
		    "bar 0.060 s, 400 KiB"
	fi
	t=$(time_cmd pic-svg1 "$TOOL_RUNS" "bin/zhfen -F svg 'r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R[Pb] w KQ - 0 7'") || return
	row "zhfen -F svg" "one diagram" "$t" "the whole process" "bar 0.001 s a diagram"
	n=$(bin/zhreplay -F fen "$zh" | grep -c .)
	t=$(time_cmd pic-svg "$TOOL_RUNS" "bin/zhreplay -F svg $zh" null) || return
	row "zhreplay -F svg" "zh.pgn" "$t" "svgs/s $(calc "'%.0f' % ($n / $t)")" "bar 50000"
}
if want pictures; then pictures_section; fi
# ------------------------------------------------ positions as arrays -----
# zhreplay -F npy on zh-tags.pgn (issue 34), side by side in one run:
# positions/s of -F npy (the tables to bench/tmp/arrays) and of -F fen
# (to /dev/null, and to a file beside the arrays), each pair in turn
# (bench/pairs.py); the path "archive -> arrays in numpy" (the write, then
# the tables opened in numpy and every board read: bench/arrays_build.py
# npy) against python-chess building the same arrays (ZH_BENCH_ARRAYS_GAMES
# games, default 300, scaled by positions) and against zhreplay -F jsonl +
# json.loads building them (1,000 games, scaled); and the writer's peak
# RSS (/usr/bin/time -v), on zh-tags.pgn and, with ZH_BENCH_BIG=1, on
# zh-tags.pgn repeated to about 1 GB (its arrays, about 5.4 GB, then
# opened by numpy.load(mmap_mode='r'): the seconds and the resident set
# it added; deleted after).  Needs Debian's /usr/bin/python3
# with python3-numpy; python-chess from ../shared/peers (ZH_PEERS).
arrays_section() {
	local pgn py=/usr/bin/python3 npos out=$TMP/arrays tnpy tpc tjs peers big reps rss
	pgn=$(pgn_path zh-tags.pgn) || { note "zh-tags.pgn not found in $DATA: arrays section skipped"; return; }
	have_tool zhreplay || { note "bin/zhreplay not built: arrays section skipped"; return; }
	"$py" -c 'import numpy' 2>/dev/null || { note "python3-numpy not installed: arrays section skipped"; return; }
	peers=${ZH_PEERS:-../shared/peers}
	bin/zhreplay -q -F npy -o "$out" "$pgn" || { note "zhreplay -F npy failed: arrays section skipped"; return; }
	npos=$("$py" -c 'import numpy as n, sys; print(len(n.load(sys.argv[1], mmap_mode="r")))' "$out/positions.npy")
	echo; echo "## positions as arrays: zh-tags.pgn ($npos positions)"
	# -F npy into a new directory each run (the last run's removed
	# before it, not timed: an archive is converted once), and over
	# the last run's tables (each then removed as the new one is
	# renamed over it: the system frees 125 MB it may still be writing)
	set -- $(PAIRS_PREPARE_A="rm -rf $out" python3 bench/pairs.py "$PAIRS" "$TMP/json/arrays-npy-fen.json" \
		"bin/zhreplay -q -F npy -o $out $pgn" "bin/zhreplay -q -F fen $pgn")
	if [ $# -eq 5 ]; then
		row "zhreplay -F fen (/dev/null)" "zh-tags.pgn" "$2" "positions/s $(calc "round($npos / $2)")  CPU $(calc "'%.3f' % $5") s"
		row "zhreplay -F npy (a new DIR)" "zh-tags.pgn" "$1" "positions/s $(calc "round($npos / $1)")  CPU $(calc "'%.3f' % $4") s" \
			"x$(calc "'%.2f' % (1 / $3)") of -F fen's positions/s (pairs; bar 1)"
	fi
	set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/arrays-npyover-fen.json" \
		"bin/zhreplay -q -F npy -o $out $pgn" "bin/zhreplay -q -F fen $pgn")
	[ $# -eq 5 ] &&
		row "zhreplay -F npy (over the last run's)" "zh-tags.pgn" "$1" "positions/s $(calc "round($npos / $1)")  CPU $(calc "'%.3f' % $4") s" \
			"x$(calc "'%.2f' % (1 / $3)") of -F fen's positions/s (pairs)"
	bin/zhreplay -q -F npy -o "$out" "$pgn"	# for the rows below
	set -- $(python3 bench/pairs.py "$PAIRS" "$TMP/json/arrays-npy-fenfile.json" \
		"bin/zhreplay -q -F npy -o $out $pgn" "bin/zhreplay -q -F fen -o $TMP/arrays.fen $pgn")
	[ $# -eq 5 ] &&
		row "zhreplay -F fen -o file" "zh-tags.pgn" "$2" "positions/s $(calc "round($npos / $2)")" \
			"-F npy x$(calc "'%.2f' % (1 / $3)") of its positions/s (pairs)"
	tnpy=$("$py" bench/arrays_build.py npy bin/zhreplay "$pgn" "$out" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
	row "archive -> arrays (npy)" "zh-tags.pgn" "$tnpy" "positions/s $(calc "round($npos / $tnpy)")"
	if [ -d "$peers/python-chess/chess" ]; then
		set -- $(PYTHONPATH=$peers/python-chess "$py" bench/arrays_build.py pychess "$pgn" "${ZH_BENCH_ARRAYS_GAMES:-300}" |
			"$py" -c 'import json,sys; d = json.load(sys.stdin); print(d["positions"], d["seconds"])')
		[ $# -eq 2 ] && tpc=$(calc "$2 * $npos / $1") &&
			row "python-chess -> arrays" "zh-tags.pgn" "$tpc" "positions/s $(calc "round($1 / $2)")  ($1 positions timed, scaled)" \
				"npy path x$(calc "'%.0f' % ($tpc / $tnpy)") faster (bar 100)"
	else
		note "python-chess not found in $peers: its arrays row skipped"
	fi
	set -- $("$py" bench/arrays_build.py jsonl bin/zhreplay "$pgn" 1000 |
		"$py" -c 'import json,sys; d = json.load(sys.stdin); print(d["positions"], d["seconds"])')
	[ $# -eq 2 ] && tjs=$(calc "$2 * $npos / $1") &&
		row "-F jsonl + json.loads -> arrays" "zh-tags.pgn" "$tjs" "positions/s $(calc "round($1 / $2)")  ($1 positions timed, scaled)" \
			"npy path x$(calc "'%.0f' % ($tjs / $tnpy)") faster (bar 20)"
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v bin/zhreplay -q -F npy -o "$out" "$pgn" 2>"$TMP/time.txt" >/dev/null
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
		row "zhreplay -F npy peak RSS" "zh-tags.pgn" 0 "max RSS $(calc "'%.1f' % ($rss / 1024)") MB"
		if [ "${ZH_BENCH_BIG:-0}" = 1 ]; then
			big=$TMP/zh-tags-1g.pgn
			if [ ! -s "$big" ]; then
				reps=$(calc "-(-1000000000 // $(wc -c <"$(readlink -f "$pgn")"))")
				for _ in $(seq "$reps"); do cat "$pgn"; done >"$big"
			fi
			/usr/bin/time -v bin/zhreplay -q -F npy -o "$out-big" "$big" 2>"$TMP/time.txt" >/dev/null
			rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
			row "zhreplay -F npy peak RSS" "zh-tags x$(calc "-(-1000000000 // $(wc -c <"$(readlink -f "$pgn")"))")" 0 \
				"max RSS $(calc "'%.1f' % ($rss / 1024)") MB (bar 64)"
			# its positions.npy (GBs) opened by numpy, mapped: the
			# seconds, and what the load added to the resident set
			set -- $("$py" -c 'import sys, time, numpy as np
def rss():
	return int([l for l in open("/proc/self/status") if l.startswith("VmRSS")][0].split()[1])
r = rss(); t = time.perf_counter()
a = np.load(sys.argv[1], mmap_mode="r")
t = time.perf_counter() - t
print("%.6f %d %.2f" % (t, rss() - r, a.size * a.dtype.itemsize / 1e9))' "$out-big/positions.npy")
			[ $# -eq 3 ] && row "numpy.load(mmap_mode='r')" "$3 GB .npy" "$1" "RSS +$2 KB" "opened without reading it"
			rm -rf "$out-big"
		fi
	fi
}
if want arrays; then arrays_section; fi
# ------------------------------------------------ positions as Parquet ---
# zhreplay -F parquet (issue 43) on zh.pgn, side by side in one run:
# positions/s against -F npy (each into a new directory, in turn:
# bench/pairs.py; bar 0.9), the positions table's bytes a position (bar
# 20), the end-to-end path against zhreplay -F jsonl + DuckDB read_json +
# COPY TO parquet (bench/duck_copy.mjs; bar 10), and -F parquet's peak
# RSS.  DuckDB is @duckdb/node-api from $PEERS_DIR.
parquet_section() {
	local pgn py=/usr/bin/python3 npos out=$TMP/pq rss
	pgn=$(pgn_path zh.pgn) || { note "zh.pgn not found in $DATA: parquet section skipped"; return; }
	have_tool zhreplay || { note "bin/zhreplay not built: parquet section skipped"; return; }
	"$py" -c 'import numpy' 2>/dev/null || { note "python3-numpy not installed: parquet section skipped"; return; }
	bin/zhreplay -q -F npy -o "$out-npy" "$pgn" || { note "zhreplay -F npy failed: parquet section skipped"; return; }
	bin/zhreplay -q -F parquet -o "$out" "$pgn" || { note "zhreplay -F parquet failed: parquet section skipped"; return; }
	npos=$("$py" -c 'import numpy as n, sys; print(len(n.load(sys.argv[1], mmap_mode="r")))' "$out-npy/positions.npy")
	echo; echo "## positions as Parquet: zh.pgn ($npos positions)"
	# (each run's disk writes flushed before the next starts: npy's 125 MB
	# would be written back by the kernel during the Parquet run after it)
	set -- $(PAIRS_PREPARE_A="rm -rf $out; sync" PAIRS_PREPARE_B="rm -rf $out-npy; sync" python3 bench/pairs.py "$PAIRS" "$TMP/json/parquet-npy.json" \
		"bin/zhreplay -q -F parquet -o $out $pgn" "bin/zhreplay -q -F npy -o $out-npy $pgn")
	if [ $# -eq 5 ]; then
		row "zhreplay -F npy (a new DIR)" "zh.pgn" "$2" "positions/s $(calc "round($npos / $2)")  CPU $(calc "'%.3f' % $5") s"
		row "zhreplay -F parquet (a new DIR)" "zh.pgn" "$1" "positions/s $(calc "round($npos / $1)")  CPU $(calc "'%.3f' % $4") s" \
			"x$(calc "'%.2f' % (1 / $3)") of -F npy's positions/s (pairs; bar 0.9)"
	fi
	bin/zhreplay -q -F parquet -o "$out" "$pgn"
	row "positions.parquet size" "zh.pgn" 0 "$(calc "'%.1f' % ($(wc -c <"$out/positions.parquet") / $npos)") bytes a position (bar 20)" \
		"npy $(calc "'%.0f' % ($(wc -c <"$out-npy/positions.npy") / $npos)") bytes a position"
	if have_node_peer @duckdb/node-api; then
		set -- $(PAIRS_PREPARE_A="rm -rf $out; sync" PAIRS_PREPARE_B="rm -f $TMP/pq.jsonl $TMP/pq-duck.parquet; sync" \
			python3 bench/pairs.py "$PAIRS" "$TMP/json/parquet-duckdb.json" \
			"bin/zhreplay -q -F parquet -o $out $pgn" \
			"sh -c 'bin/zhreplay -q -F jsonl -o $TMP/pq.jsonl $pgn; node bench/duck_copy.mjs $TMP/pq.jsonl $TMP/pq-duck.parquet'")
		[ $# -eq 5 ] &&
			row "-F jsonl + DuckDB read_json + COPY TO parquet" "zh.pgn" "$2" "positions/s $(calc "round($npos / $2)")" \
				"-F parquet x$(calc "'%.1f' % (1 / $3)") faster (pairs; bar 10)"
		rm -f "$TMP/pq.jsonl" "$TMP/pq-duck.parquet"
	else
		note "@duckdb/node-api not in $PEERS: the end-to-end row skipped"
	fi
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v bin/zhreplay -q -F parquet -o "$out" "$pgn" 2>"$TMP/time.txt" >/dev/null
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
		row "zhreplay -F parquet peak RSS" "zh.pgn" 0 "max RSS $(calc "'%.1f' % ($rss / 1024)") MB"
	fi
	rm -rf "$out" "$out-npy"
}
if want parquet; then parquet_section; fi

# ----------------------------------------------------------------- python --
# The Python module (python/, build/python): zhkit.read against -F npy
# and jobs=2 against jobs=1, Board.legal_moves per call against
# python-chess and a tool run per position (bench/python.py), and the
# Dask example at two workers against one process (examples/).
python_section() {
	local pgn=${ZH_BENCH_PY_PGN:-$DATA/zh.pgn} py=/usr/bin/python3
	[ -f build/python/.built ] || { note "the Python module is not built (make python): its section skipped"; return; }
	[ -f "$pgn" ] || { note "$pgn not found: the python section skipped"; return; }
	while IFS=$'\t' read -r l i s m r; do
		row "$l" "$i" "$s" "$m" "$r"
	done < <(PYTHONPATH=build/python "$py" bench/python.py "$pgn" "${ZH_SHARED_PEERS:-../shared/peers}")
	if [ -f examples/dask_dataset.py ]; then
		while IFS=$'\t' read -r l i s m r; do
			row "$l" "$i" "$s" "$m" "$r"
		done < <(PYTHONPATH=build/python "$py" examples/dask_dataset.py --bench "$pgn")
	fi
}
if want python; then python_section; fi

# ------------------------------------------------------------------ index --
# zhindex (issue 42): build speed on zh-tags.pgn at -j 1 (bar 50,000 games/s)
# and on chess-tags.pgn against Debian polyglot's make-book (bar 10x its
# games/s); query latency (warm p99 bar 1 ms, first bar 50 ms); the size
# (bar 16 bytes per distinct (position, move); the index of zh-tags.pgn no
# larger than zh-tags.pgn.zst); with ZH_BENCH_BIG=1, --memory 64M on
# zh-tags.pgn x 20 (bar 128 MB peak RSS, the same index as unlimited).
index_section() {
	local zh ch out=$TMP/index t tp t2 tc n moves bytes zst q big rss gz gc
	zh=$(pgn_path zh-tags.pgn) || { note "zh-tags.pgn not found in $DATA: index section skipped"; return; }
	have_tool zhindex || { note "bin/zhindex not built: index section skipped"; return; }
	mkdir -p "$out"
	gz=$(grep -c '^\[Event ' "$zh")
	echo; echo "## zhindex: build, query, size"
	t=$(time_cmd index-build-zh "$TOOL_RUNS" "bin/zhindex build -q -j 1 -o $out/zh.zhi $zh") &&
		row "zhindex build -j 1" "zh-tags.pgn" "$t" "games/s $(calc "round($gz / $t)")" "bar 50000 games/s"
	if ch=$(pgn_path chess-tags.pgn); then
		gc=$(grep -c '^\[Event ' "$ch")
		t=$(time_cmd index-build-chess "$TOOL_RUNS" "bin/zhindex build -q -j 1 -o $out/chess.zhi $ch")
		if [ -x /usr/games/polyglot ]; then
			tp=$(time_cmd index-polyglot "$RUNS" "/usr/games/polyglot make-book -pgn $ch -bin $out/chess.bin -max-ply 50")
			[ -n "$t" ] && [ -n "$tp" ] &&
				row "zhindex build -j 1" "chess-tags.pgn" "$t" "games/s $(calc "round($gc / $t)")" \
				    "x$(calc "'%.1f' % ($tp / $t)") polyglot make-book's games/s (bar 10)"
			[ -n "$tp" ] && row "polyglot make-book -max-ply 50" "chess-tags.pgn" "$tp" "games/s $(calc "round($gc / $tp)")"
			# -j 2, and the floor: zhcheck reading and checking the
			# same games, no index (what any build must do first)
			t2=$(time_cmd index-build-chess-j2 "$TOOL_RUNS" "bin/zhindex build -q -j 2 -o $out/chess.zhi $ch")
			[ -n "$t2" ] && [ -n "$tp" ] &&
				row "zhindex build -j 2" "chess-tags.pgn" "$t2" "games/s $(calc "round($gc / $t2)")" \
				    "x$(calc "'%.1f' % ($tp / $t2)") polyglot make-book's games/s"
			tc=$(time_cmd index-zhcheck-chess "$TOOL_RUNS" "bin/zhcheck -q -j 1 $ch")
			[ -n "$tc" ] && [ -n "$tp" ] &&
				row "zhcheck -j 1 (no index)" "chess-tags.pgn" "$tc" "games/s $(calc "round($gc / $tc)")" \
				    "x$(calc "'%.1f' % ($tp / $tc)") polyglot make-book's games/s: the floor"
		else
			note "polyglot not installed (Debian polyglot): its row skipped"
		fi
	fi
	bin/zhindex build -q -o "$out/zh.zhi" "$zh" || return
	n=$(sqlite3 "$out/zh.zhi" "SELECT value FROM meta WHERE name = 'moves'")
	moves=$(sqlite3 "$out/zh.zhi" "SELECT value FROM meta WHERE name = 'positions'")
	bytes=$(wc -c <"$out/zh.zhi")
	zst=$(wc -c <"$(readlink -f "$DATA/zh-tags.pgn.zst")" 2>/dev/null || echo 0)
	row "index size" "zh-tags.pgn" 0 "$bytes bytes, $(calc "'%.1f' % ($bytes / $n)") bytes per (position, move) ($n; $moves positions)" \
	    "x$(calc "'%.2f' % ($bytes / max($zst, 1))") of zh-tags.pgn.zst (bar 1; bar 16 bytes)"
	bin/zhreplay -q -F fen --plies 0-30 "$zh" | awk 'NR % 5 == 0' >"$out/fens"
	q=$(/usr/bin/python3 bench/index_query.py bin/zhindex "$out/zh.zhi" "$out/fens" 20000) &&
		row "zhindex query (warm)" "zh-tags.zhi" 0 "$q" "bars: p99 1 ms, first 50 ms"
	t=$(time_cmd index-query-first "$RUNS" "bin/zhindex query -J $out/zh.zhi $(q "$(sed -n 7p "$out/fens")")") &&
		row "zhindex query (a process)" "zh-tags.zhi" "$t" "open, one query, exit" "bar 0.050 s"
	if [ "${ZH_BENCH_BIG:-0}" = 1 ] && [ -x /usr/bin/time ]; then
		big=$TMP/zh-tags-x20.pgn
		[ -s "$big" ] || for _ in $(seq 20); do cat "$zh"; done >"$big"
		/usr/bin/time -v bin/zhindex build -q --memory 64M -o "$out/big64.zhi" "$big" 2>"$TMP/time.txt"
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
		bin/zhindex build -q --memory 16G -o "$out/bigall.zhi" "$big"
		if cmp -s <(sqlite3 "$out/big64.zhi" .dump) <(sqlite3 "$out/bigall.zhi" .dump); then same=same; else same=DIFFERENT; fi
		row "zhindex build --memory 64M peak RSS" "zh-tags x20" 0 "max RSS $(calc "'%.1f' % ($rss / 1024)") MB; index $same as unlimited" "bar 128 MB"
		rm -f "$out/big64.zhi" "$out/bigall.zhi"
	fi
}
if want index; then index_section; fi

# ----------------------------------------------------------------- planes --
# zhreplay -F planes (CrazyAra's version 3 planes, policy, value, int8)
# against CrazyAra's converter path (python-chess + board_to_planes:
# bench/planes_crazyara.py on the first ZH_BENCH_PLANES_GAMES games,
# scaled per position); its peak RSS, and the 8-bit file beside float32.
planes_section() {
	local pgn py=/usr/bin/python3 out=$TMP/planes npos tz tz2 tm cz tca peers rss
	pgn=$(pgn_path zh-tags.pgn) || { note "zh-tags.pgn not found in $DATA: planes section skipped"; return; }
	have_tool zhreplay || { note "bin/zhreplay not built: planes section skipped"; return; }
	"$py" -c 'import numpy' 2>/dev/null || { note "python3-numpy not installed: planes section skipped"; return; }
	peers=${ZH_PEERS:-../shared/peers}
	bin/zhreplay -q -F planes -o "$out" "$pgn" || { note "zhreplay -F planes failed: planes section skipped"; return; }
	npos=$("$py" -c 'import json,sys; m = json.load(open(sys.argv[1])); print(m["train"]["positions"] + m["validation"]["positions"])' "$out/manifest.json")
	echo; echo "## training tensors: zh-tags.pgn ($npos positions with a move)"
	tz=$(time_cmd planes-zh "${ZH_BENCH_PLANES_RUNS:-3}" "bin/zhreplay -q -F planes -o $out $pgn") || return
	# CPU seconds (user + system) too: a loaded machine's wall time
	# waits for the CPU
	cz=$(python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][0]; print("%.6f" % (r["user"] + r["system"]))' "$TMP/json/planes-zh.json")
	row "zhreplay -F planes (v3 int8)" "zh-tags.pgn" "$tz" "positions/s $(calc "round($npos / $tz)")  CPU $cz s"
	# the same tensors in memory (bench/floor.c planes: zh_planes and
	# zh_policy_index into one buffer, what a binding pays; no files)
	tm=$(time_cmd planes-mem "${ZH_BENCH_PLANES_RUNS:-3}" "build/bench/floor planes $pgn") &&
		row "libzh zh_planes in memory" "zh-tags.pgn" "$tm" "positions/s $(calc "round($npos / $tm)")"
	tz2=$(time_cmd planes-zh-j0 "${ZH_BENCH_PLANES_RUNS:-3}" "bin/zhreplay -q -j 0 -F planes -o $out $pgn") &&
		row "zhreplay -j 0 -F planes" "zh-tags.pgn" "$tz2" "positions/s $(calc "round($npos / $tz2)")"
	if [ -d "$peers/crazyara/DeepCrazyhouse" ]; then
		set -- $(PYTHONPATH=$peers/python-chess:$peers/crazyara "$py" bench/planes_crazyara.py "$pgn" "${ZH_BENCH_PLANES_GAMES:-100}" |
			"$py" -c 'import json,sys; d = json.load(sys.stdin); print(d["positions"], d["seconds"], d["cpu"])')
		[ $# -eq 3 ] && tca=$(calc "$2 * $npos / $1") &&
			row "python-chess + board_to_planes" "zh-tags.pgn" "$tca" "positions/s $(calc "round($1 / $2)")  CPU $(calc "'%.3f' % ($3 * $npos / $1)") s  ($1 positions timed, scaled)" \
				"-F planes x$(calc "'%.0f' % ($tca / $tz)") faster (bar 100); CPU x$(calc "'%.0f' % ($3 * $npos / $1 / $cz)")${tm:+; in memory x$(calc "'%.0f' % ($tca / $tm)")}"
	else
		note "CrazyAra not found in $peers: its planes row skipped"
	fi
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v bin/zhreplay -q -F planes --mask -o "$out" "$pgn" 2>"$TMP/time.txt" >/dev/null
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
		row "zhreplay -F planes --mask peak RSS" "zh-tags.pgn" 0 "max RSS $(calc "'%.1f' % ($rss / 1024)") MB (bar 256)"
	fi
	bin/zhreplay -q -F planes --dtype float32 -o "$out-f32" "$pgn"
	row "planes files: int8 / float32" "zh-tags.pgn" 0 \
		"$(du -cb "$out"/*-planes.npy | tail -1 | cut -f1) / $(du -cb "$out-f32"/*-planes.npy | tail -1 | cut -f1) bytes (bar 1/4)"
	rm -rf "$out" "$out-f32"
}
if want planes; then planes_section; fi

# ---------------------------------------------------------------- summary --
{
	echo
	echo "| benchmark | input | median s | throughput | vs peer |"
	echo "|---|---|---:|---|---|"
	awk -F'\t' '{ gsub(/\|/, "\\|", $1); printf "| %s | %s | %.3f | %s | %s |\n", $1, $2, $3, $4, $5 }' "$ROWS"
} >"$TMP/summary.md"
echo
echo "## summary (Markdown, also in $TMP/summary.md)"
cat "$TMP/summary.md"
