#!/usr/bin/env bats
# zhreplay -F planes (issue 41): training tensors, zhkit-planes(5).
# The planes, policy indices (flat and map), legal masks and values are
# compared with CrazyAra's own board_to_planes, MV_LOOKUP(_MIRRORED) and
# FLAT_PLANE_IDX after python-chess replays the same games
# (tests/helpers/planes-oracle.py).  python-chess and CrazyAra are the
# peers of ../shared/peers (GPL: imported at test time, never copied);
# numpy is Debian's (/usr/bin/python3).  ZH_SLOW=1: >= 20,000 positions
# for each version, and zh-tags.pgn's planes within 256 MB.

bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3
GAMES=$TESTDATA/pgn/crazyara-engine_tournament.pgn

setup() {
	T=$BATS_TEST_TMPDIR
	"$PY" -c 'import numpy' 2>/dev/null || skip "python3-numpy not installed"
	PEERS=
	for d in "${ZH_PEERS-}" "$ZH_TOP/../shared/peers" "$ZH_TOP/../../shared/peers"; do
		if [ -n "$d" ] && [ -d "$d/crazyara/DeepCrazyhouse" ]; then
			PEERS=$d
			break
		fi
	done
	BENCH=
	for d in "$ZH_TOP/../shared/bench" "$ZH_TOP/../../shared/bench"; do
		if [ -f "$d/zh-tags.pgn" ]; then
			BENCH=$d
			break
		fi
	done
}

# The first $1 games of CrazyAra's engine tournament (testdata).
first() { awk -v n="$1" '/^\[Event /{k++} k <= n' "$GAMES"; }

oracle() {	# VERSION PGN DIR
	PYTHONPATH=$PEERS/python-chess:$PEERS/crazyara run "$PY" \
	    "$ZH_TOP/tests/helpers/planes-oracle.py" "$@"
}

@test "planes: versions 1, 2 and 3 are CrazyAra's board_to_planes, its policy index, mask and value (15 games)" {
	[ -n "$PEERS" ] || skip "../shared/peers not found"
	first 15 >"$T/g.pgn"
	for v in 1 2 3; do
		run zhreplay -q -F planes --planes-version "$v" --mask -o "$T/v$v" "$T/g.pgn"
		assert_success
		oracle "$v" "$T/g.pgn" "$T/v$v"
		assert_success
		assert_output --regexp '^\{"positions": [1-9][0-9]{3}, "black": [1-9][0-9]+, "drops": [1-9][0-9]+, "promotions": [1-9]'
	done
}

@test "planes: --policy map is CrazyAra's FLAT_PLANE_IDX; float16 and float32 hold the same values; normalized as CrazyAra divides" {
	[ -n "$PEERS" ] || skip "../shared/peers not found"
	first 8 >"$T/g.pgn"
	run zhreplay -q -F planes --policy map --mask -o "$T/m" "$T/g.pgn"
	assert_success
	oracle 3 "$T/g.pgn" "$T/m"
	assert_success
	for t in float16 float32; do
		zhreplay -q -F planes --planes-version 2 --dtype $t -o "$T/$t" "$T/g.pgn"
		zhreplay -q -F planes --planes-version 2 --dtype $t --normalize -o "$T/n$t" "$T/g.pgn"
	done
	zhreplay -q -F planes --planes-version 2 -o "$T/u8" "$T/g.pgn"
	PYTHONPATH=$PEERS/python-chess:$PEERS/crazyara run "$PY" - "$T" <<-'EOF'
	import sys, numpy as np
	np.bool = bool
	from DeepCrazyhouse.configs.main_config import main_config
	main_config['mode'] = 0; main_config['version'] = 2
	from DeepCrazyhouse.src.domain.variants.input_representation import normalize_input_planes
	d = sys.argv[1]
	a = {k: np.load(d + '/%s/train-00000-planes.npy' % k) for k in ('float16', 'float32', 'u8', 'nfloat16', 'nfloat32')}
	assert a['u8'].dtype == np.uint8 and a['float16'].dtype == np.float16
	assert np.array_equal(a['float16'], a['float32']) and np.array_equal(a['u8'], a['float32'])
	want = np.stack([normalize_input_planes(x.astype(np.float32)) for x in a['float32']])
	assert np.allclose(a['nfloat32'], want, rtol=0, atol=1e-7), 'normalized float32'
	assert np.allclose(a['nfloat16'], want, rtol=1e-3, atol=0), 'normalized float16'
	print(len(want))
	EOF
	assert_success
	assert_output --regexp '^[1-9][0-9]{2,}$'
}

@test "planes: the split is by game and seeded, shards of N, the same bytes for -j 1 and -j 2; uint8 a quarter of float32" {
	first 60 >"$T/g.pgn"
	zhreplay -q -F planes --validation 0.25 --seed 7 --shard 1000 -o "$T/a" "$T/g.pgn"
	zhreplay -q -j 2 -F planes --validation 0.25 --seed 7 --shard 1000 -o "$T/b" "$T/g.pgn"
	zhreplay -q -F planes --validation 0.25 --seed 8 -o "$T/c" "$T/g.pgn"
	zhreplay -q -F planes --planes-version 2 --dtype float32 -o "$T/f" "$T/g.pgn"
	zhreplay -q -F planes --planes-version 2 -o "$T/u" "$T/g.pgn"
	zhreplay -q -F planes -o "$T/one" "$T/g.pgn"
	run diff -r "$T/a" "$T/b"
	assert_success
	run "$PY" - "$T" <<-'EOF'
	import glob, json, os, sys, numpy as np
	d = sys.argv[1]
	m = json.load(open(d + '/a/manifest.json'))
	c = json.load(open(d + '/c/manifest.json'))
	assert m['games'] == 60 and m['train']['games'] + m['validation']['games'] == 60, m
	assert 5 <= m['validation']['games'] <= 25, m
	assert c['validation']['games'] != m['validation']['games'] or c != m
	def cat(k, s, n):
	    fs = sorted(glob.glob('%s/%s/%s-*-%s.npy' % (d, k, s, n)))
	    return [np.load(f) for f in fs]
	sh = cat('a', 'train', 'planes')
	assert len(sh) == m['train']['shards'] >= 2 and all(len(x) == 1000 for x in sh[:-1])
	# the splits together are every position once, games whole: the value
	# (+-1, 0) of a game's first position is White's, and positions come
	# in game order in each split
	one = np.load(d + '/one/train-00000-planes.npy')
	both = np.concatenate(sh + cat('a', 'validation', 'planes'))
	assert len(both) == len(one) == m['train']['positions'] + m['validation']['positions']
	key = lambda a: sorted(x.tobytes() for x in a)
	assert key(both) == key(one)
	u = os.path.getsize(d + '/u/train-00000-planes.npy')
	f = os.path.getsize(d + '/f/train-00000-planes.npy')
	assert u * 4 <= f + 3 * 128, (u, f)
	print('ok', m['train']['positions'], m['validation']['positions'])
	EOF
	assert_success
	assert_output --regexp '^ok [0-9]+ [0-9]+$'
}

@test "planes: bad options and other variants" {
	run zhreplay -F planes "$GAMES"
	assert_failure 2
	assert_output --partial '-o DIR is needed'
	for o in "--planes-version 4" "--dtype int16" "--policy cube" "--validation 2" "--shard 0" "--seed x"; do
		# shellcheck disable=SC2086
		run zhreplay -F planes -o "$T/x" $o "$GAMES"
		assert_failure 2
	done
	run zhreplay -F planes --dtype uint8 -o "$T/x" "$GAMES"
	assert_failure 2
	assert_output --partial 'negative'
	run zhreplay -q -F planes -o "$T/o" "$TESTDATA"/pgn/*grand*.pgn "$TESTDATA"/bughouse/real/*.bpgn
	[ "$status" -le 1 ]
	run "$PY" -c 'import json,sys; m = json.load(open(sys.argv[1])); assert m["games_other_variant"] > 0 and m["train"]["positions"] == 0, m; print("ok")' "$T/o/manifest.json"
	assert_output ok
	# chessgi's pawn dropped on its first rank has no label: counted
	"$PY" "$ZH_TOP/tests/helpers/arrays-gen.py" chessgi Chessgi 20 80 7 >"$T/cg.pgn"
	grep -q 'P@[a-h][18]' "$T/cg.pgn"
	run zhreplay -q -F planes --mask -o "$T/cg" "$T/cg.pgn"
	assert_success
	run "$PY" -c 'import json,sys; m = json.load(open(sys.argv[1])); assert m["positions_without_label"] > 0 and m["train"]["positions"] > 0, m; print("ok")' "$T/cg/manifest.json"
	assert_output ok
}

@test "planes (slow): >= 20,000 positions of each version equal CrazyAra's" {
	[ -n "${ZH_SLOW-}" ] || skip "ZH_SLOW=1"
	[ -n "$PEERS" ] || skip "../shared/peers not found"
	[ -n "$BENCH" ] || skip "no ../shared/bench/zh.pgn"
	awk '/^\[Event /{k++} k <= 330' "$BENCH/zh.pgn" >"$T/g.pgn"
	for v in 1 2 3; do
		zhreplay -q -F planes --planes-version "$v" --mask -o "$T/v$v" "$T/g.pgn"
		oracle "$v" "$T/g.pgn" "$T/v$v"
		assert_success
		assert_output --regexp '^\{"positions": [2-9][0-9]{4}'
	done
}

@test "planes (slow): zh-tags.pgn's planes in at most 256 MB, shard by shard" {
	[ -n "${ZH_SLOW-}" ] || skip "ZH_SLOW=1"
	[ -n "$BENCH" ] || skip "no ../shared/bench/zh-tags.pgn"
	run /usr/bin/time -f 'rss %M' zhreplay -q -F planes --mask -o "$T/z" "$BENCH/zh-tags.pgn"
	[ "$status" -le 1 ]
	kb=$(printf '%s\n' "$output" | sed -n 's/^rss //p' | tail -1)
	[ "$kb" -le 262144 ]
	run "$PY" -c 'import json,sys; m = json.load(open(sys.argv[1])); print(m["train"]["positions"] > 500000)' "$T/z/manifest.json"
	assert_output True
}
