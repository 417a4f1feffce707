# bash completion for the zhkit tools (zhfen, zhpgn, zhcheck, zhreplay,
# zhperft, zhindex).  Installed once per tool name; options are read from --help,
# so the completion follows the tool.
_zhkit()
{
	local cur prev words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	if [[ ${COMP_WORDS[0]##*/} == zhindex && $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W 'build add merge query suite' -- "$cur"))
		return
	fi
	case $prev in
	--speed)
		local pre=${cur%"${cur##*,}"}
		COMPREPLY=($(compgen -P "$pre" -W 'ultraBullet bullet blitz rapid classical correspondence unknown' -- "${cur##*,}"))
		return ;;
	-v|--variant|--default-variant|--game-variant)
		COMPREPLY=($(compgen -W 'crazyhouse loop chessgi grandhouse upsidedown wild5 chess grand bughouse' -- "$cur"))
		return ;;
	-f|--from)
		COMPREPLY=($(compgen -W 'auto lichess xboard chesscom fairy' -- "$cur"))
		return ;;
	-t|--to)
		COMPREPLY=($(compgen -W 'lichess xboard chesscom fairy' -- "$cur"))
		return ;;
	-F|--format)
		# only a tool with --format takes a format here
		if [[ ${COMP_WORDS[0]##*/} == zhfen ]]; then
			COMPREPLY=($(compgen -W 'fen svg png' -- "$cur"))
			return
		elif [[ ${COMP_WORDS[0]##*/} == zhpgn ]]; then
			COMPREPLY=($(compgen -W 'pgn json parquet' -- "$cur"))
			return
		elif "${COMP_WORDS[0]}" --help 2>/dev/null | grep -q -- '--format'; then
			COMPREPLY=($(compgen -W 'fen epd uci ucipos san jsonl board npy parquet planes svg png gif' -- "$cur"))
			return
		fi ;;
	--compression)
		COMPREPLY=($(compgen -W 'zstd snappy gzip none' -- "$cur"))
		return ;;
	--report)
		COMPREPLY=($(compgen -W 'github junit sarif' -- "$cur"))
		return ;;
	--ending)
		COMPREPLY=($(compgen -W 'checkmate stalemate none' -- "$cur"))
		return ;;
	--strip|--keep-tags)
		# a comma list: complete its last item
		local pre=${cur%"${cur##*,}"} items
		if [[ $prev == --strip ]]; then
			items='comments clocks evals commands nags variations'
		else
			items='WhiteElo BlackElo TimeControl ECO Opening Termination UTCDate UTCTime WhiteRatingDiff BlackRatingDiff PlyCount Annotator'
		fi
		COMPREPLY=($(compgen -P "$pre" -W "$items" -- "${cur##*,}"))
		return ;;
	--split-by)
		COMPREPLY=($(compgen -W 'variant White Black Event Site Date TimeControl ECO Result Termination' -- "$cur"))
		return ;;
	-o|--output|--suite|-r|--rejects|--duplicates|--stats)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	# warning classes (zhkit(7)): -W NAME, -Wno-NAME, -Werror=NAME
	local wcls='tag missing-round result plycount setup variation null-move text-between-games no-termination no-game check-suffix clock'
	if [[ $prev == -W || $prev == --warning ]]; then
		COMPREPLY=($(compgen -W "$wcls error all" -- "$cur"))
		return
	fi
	case $cur in
	-Werror=*|-Wno-error=*|-Wno-*|-W?*)
		local pre
		case $cur in
		-Werror=*) pre=-Werror= ;;
		-Wno-error=*) pre=-Wno-error= ;;
		-Wno-*) pre=-Wno- ;;
		*) pre=-W ;;
		esac
		COMPREPLY=($(compgen -P "$pre" -W "$wcls" -- "${cur#"$pre"}"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		words=$("${COMP_WORDS[0]}" --help 2>/dev/null |
		    grep -oE -- '--[a-z][a-z-]*' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _zhkit zhfen zhpgn zhcheck zhreplay zhperft zhindex
