/*
 * kind.h - what an input looks like when it is not what a tool reads:
 * one line saying so and what to run instead (a PGN given to zhfen, FEN
 * lines given to zhcheck, JSON printed by jq without -c).
 */
#ifndef KIND_H
#define KIND_H
#include <stdio.h>

enum { KIND_OTHER, KIND_PGN, KIND_FEN, KIND_JSON_PRETTY, KIND_JSONL };

/* The kind of input whose first line (n bytes, not blank) is s. */
int kind_of(const char *s, size_t n);
/*
 * "TOOL: FILE: note: it looks like KIND ...: try COMMAND" to f for an
 * input of that kind given to a tool that reads 'reads' (KIND_PGN, which
 * takes JSON Lines too, or KIND_FEN); 'fen', for a PGN reader given FEN
 * lines, is what to run (NULL: zhfen).  Nothing for KIND_OTHER or the
 * kind the tool reads.  Returns 1 if a hint was written.
 */
int kind_hint(FILE *f, const char *file, int kind, int reads,
    const char *fen);
#endif
