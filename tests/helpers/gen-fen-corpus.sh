#!/bin/bash
# Make testdata/fen/corpus.tsv ("VARIANT<TAB>FEN"): every FEN that zhfen
# accepts from the published perft suites, the peers' FEN cases and expectations,
# the python-chess fuzz FENs and dialect-examples.txt.  For round trips.
# Usage: tests/helpers/gen-fen-corpus.sh > testdata/fen/corpus.tsv  (after make)
set -eu
cd "$(dirname "$0")/../.."
export LC_ALL=C
{
	for f in testdata/perft/*.perft; do
		case $f in
		*fs-random*|*fs-bughouse*) continue ;;	# random games' positions: the
						# perft and interop tests have them
		*tricky*|*random*) d=chess ;;
		*) d=crazyhouse ;;
		esac
		awk -v d="$d" '/^id /{v=d} /^variant /{v=$2} /^epd /{sub(/^epd /,""); print v "\t" $0}' "$f"
	done
	awk '/^## /{v="crazyhouse"} /^variant: /{v=$2}
	    /^(fen|expect-fen): /{sub(/^[a-z-]+: /,""); n=split($0,a," [|] "); for(i=1;i<=n;i++) print v "\t" a[i]}' \
	    testdata/fen/expected-results-from-tests.txt
	awk -F'\t' '!/^#/ && $3 !~ /3check|horde/ {v=$3; if (v!="chess") v="crazyhouse"; print v "\t" $1}' \
	    testdata/fen/fen-cases-valid-invalid.tsv
	cat testdata/fen/scid-zh.fen testdata/fen/winboard-zh.fen | sed 's/^/crazyhouse\t/'
	grep -oE '(\[[a-z]+\] )?([rnbqkpacRNBQKPAC~1-9]|10)+(/([rnbqkpacRNBQKPAC~1-9]|10)*){7,}(\[[A-Za-z-]*\])?( [wb]( [KQkq-]+( [a-j0-9-]+( [0-9]+ [0-9]+( [A-Za-z-]+( [a-j0-9]+)?)?)?)?)?)?' \
	    testdata/fen/dialect-examples.txt |
	    sed -E 's/^\[([a-z]+)\] /\1\t/; /\t/!s/^/crazyhouse\t/'
} | while IFS=$'\t' read -r v fen; do
	case $v in grand|grandhouse|*) ;; esac
	zhkitv=$v
	[ "$v" = grand ] || [ "$v" = grandhouse ] || case $fen in
	    */*/*/*/*/*/*/*/*/*/*) zhkitv=grandhouse ;; esac
	if bin/zhfen -q -c -v "$zhkitv" -- "$fen" 2>/dev/null; then
		printf '%s\t%s\n' "$zhkitv" "$fen"
	fi
done | sed 's/^standard\t/chess\t/' | awk '!seen[$0]++'
