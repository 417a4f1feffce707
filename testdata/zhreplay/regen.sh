#!/bin/sh
# Regenerate the golden files from games.pgn (review the diff by hand!).
cd "$(dirname "$0")" || exit 2
z=../../bin/zhreplay
G=games.pgn
$z -q $G > games.lichess.fen 2>/dev/null
$z -q -t xboard $G > games.xboard.fen 2>/dev/null
$z -q -t fairy $G > games.fairy.fen 2>/dev/null
$z -q -F epd -t chesscom $G > games.chesscom.epd 2>/dev/null
$z -q -F uci $G > games.uci 2>/dev/null
$z -q -F san $G > games.lichess.san 2>/dev/null
$z -q -F san -t chesscom $G > games.chesscom.san 2>/dev/null
$z -q -F jsonl $G > games.jsonl 2>/dev/null
$z -q -F jsonl --variations $G > games.variations.jsonl 2>/dev/null
$z -q -F fen --variations $G > games.variations.fen 2>/dev/null
$z -q -F uci --variations $G > games.variations.uci 2>/dev/null
$z -q -F fen -p 2-6 -e 2 $G > games.plies.fen 2>/dev/null
LC_ALL=C $z -q -F board --color never -p 12-13 $G > games.board 2>/dev/null
LC_ALL=C.UTF-8 $z -q -F board --color never --final-only $G > games.utf8.board 2>/dev/null
$z $G 2> games.err > /dev/null
true
