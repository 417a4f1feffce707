"""games-rows.py JSONL PGN - the rows zhpgn -F parquet should write for
the games zhpgn --json wrote to JSONL (every game, valid or not), their
movetext from zhpgn's PGN output PGN (the valid games', in order: its
lines after the tag pairs joined by spaces), one JSON object a line as
tests/interop/parquet_rows.mjs prints them.  Computed from the JSON and
the PGN alone, not from the writer's code."""
import datetime
import json
import sys

HF = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle",
      "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "UTCDate",
      "UTCTime", "ECO", "Opening", "Termination", "TimeControl"]
INTS = {"WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"}


def movetexts(path):
    games, cur = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("["):
            if cur is not None and cur[1]:
                games.append(" ".join(cur[1]))
                cur = None
            if cur is None:
                cur = [True, []]
        elif line.strip() and cur is not None:
            cur[1].append(line.strip())
    if cur is not None and cur[1]:
        games.append(" ".join(cur[1]))
    return games


def value(k, v):
    if v is None:
        return None
    if k in INTS:
        try:
            n = int(v)
        except ValueError:
            return None
        return n if -32768 <= n <= 32767 else None
    if k == "UTCDate":
        try:
            return datetime.datetime.strptime(v, "%Y.%m.%d").date().isoformat()
        except ValueError:
            return None
    if k == "UTCTime":
        try:
            return datetime.datetime.strptime(v, "%H:%M:%S").time().isoformat()
        except ValueError:
            return None
    return v


def main():
    mts = iter(movetexts(sys.argv[2]))
    for line in open(sys.argv[1], encoding="utf-8"):
        g = json.loads(line)
        tags = g.get("tags", {})
        row = {k: value(k, tags.get(k)) for k in HF}
        row["movetext"] = next(mts) if g["valid"] else "(not compared)"
        ucis = [m["uci"] for m in g.get("moves", []) if m.get("uci")]
        row["uci"] = " ".join(ucis)
        row["plies"] = len(ucis)
        row["variant"] = g.get("variant")
        row["valid"] = g["valid"]
        row["error"] = None if g["valid"] else g["errors"][0]["message"]
        print(json.dumps(row, ensure_ascii=False, separators=(",", ":")))


main()
