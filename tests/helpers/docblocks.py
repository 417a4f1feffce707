#!/usr/bin/python3
"""Run every command block of README.md and the man pages (tests/readme.bats,
tests/man.bats).

    docblocks.py TOP SANDBOX FILE...

A block is an indented or fenced code block of a Markdown file, or a .Dl
line or .Bd -literal display of a man page.  Each is one of:

  session   lines "$ command", each followed by the output it shows: the
            command runs and its stdout and stderr must be that output
            (a man page's, which groff may have wrapped, compared with the
            white space folded);
  commands  command lines (a Markdown block, or a man page display whose
            first word is a command): each runs, must exit 0 or 1 (1 is an
            invalid game; 2, a usage or I/O error, means the doc is wrong)
            and must give something: the file its stdout is sent to, or the
            end of its pipe, or else its stdout or a file it writes, is not
            empty (an example that prints nothing shows nothing), but for
            a validator (zhcheck, zhfen --check) whose answer is its exit
            status and its messages;
  program   a C program (it has main()): compiled against libzh and run
            with a PGN on standard input, it must exit 0 and print;
  python    a ```python block: run by python3, exit 0;
  fragment  a piece of a program that cannot run alone: a failure unless
            it is marked not run;
  not run   marked so just before it, with the reason: "<!-- not run:
            REASON -->" in Markdown, '.\\" not run: REASON' in a man page;
  display   (man pages and non-shell fences only) not a command: a message,
            a format, a JSON sample.

Commands run in SANDBOX, where testdata/ and examples/ are the
repository's and the files the docs name as stand-ins (games.pgn, ...)
are real games, as bash -o pipefail; /tmp/ in a command is SANDBOX/tmp/.
Prints one line a block and the counts; exits 1 if any block failed.
"""
import os
import re
import shutil
import subprocess
import sys

TOP, BOX = sys.argv[1], sys.argv[2]
FILES = sys.argv[3:]
TOOLS = sorted(os.listdir(os.path.join(TOP, "bin")))
COMMANDS = set(TOOLS) | {
    "cc", "python3", "/usr/bin/python3", "jq", "echo", "printf", "zstdcat",
    "zcat", "parallel", "make", "cat", "gzip", "zstd", "xz", "sqlite3",
    "duckdb", "pip", "pytest", "man", "cd", "ls", "head", "tail", "grep",
    "find", "diff", "cmp", "sort", "wc", "hdfs", "hadoop"}
SHELL_FENCES = {"", "sh", "bash", "shell", "console"}


def fixtures():
    """The stand-in files the docs' commands name."""
    if os.path.exists(BOX):
        shutil.rmtree(BOX)
    os.makedirs(os.path.join(BOX, "tmp"))
    os.makedirs(os.path.join(BOX, "games"))
    os.makedirs(os.path.join(BOX, ".bin"))
    for d in ("testdata", "examples", "build"):
        os.symlink(os.path.join(TOP, d), os.path.join(BOX, d))
    t = os.path.join(TOP, "testdata")

    def cat(name, *srcs):
        with open(os.path.join(BOX, name), "wb") as out:
            for s in srcs:
                with open(os.path.join(t, s), "rb") as f:
                    out.write(f.read())

    # lichess games with Elos, time controls, checks, one game that
    # reaches the README's position, and an invalid one
    cat("games.pgn", "select/crazyhouse-tags-200.pgn",
        "pgn/scalachess-chessComCrazyhouse.pgn",
        "zhcheck/drop-not-in-hand.pgn")
    cat("lichess.pgn", "select/crazyhouse-tags-200.pgn")
    cat("a.pgn", "select/crazyhouse-tags-200.pgn")
    cat("lichess_db_crazyhouse_2019-01.pgn", "select/crazyhouse-tags-200.pgn")
    cat("game.pgn", "pgn/python-chess-saturs-jannlee-zh.pgn")
    cat("round-1.pgn", "pgn/fatics-zh.pgn")
    cat("games/a.pgn", "zhcheck/ambiguous-san.pgn")
    cat("games/b.pgn", "zhcheck/drop-not-in-hand.pgn")
    cat("games.bpgn", "bughouse/real/1934301.bpgn", "bughouse/real/1934660.bpgn")
    cat("game.bpgn", "bughouse/real/1934301.bpgn")
    cat("fics-bughouse-2021.bpgn", "bughouse/gen/bughousedb.bpgn")
    zst = os.path.join(BOX, "games.pgn")
    for name in ("lichess_db_crazyhouse_rated_2024-01.pgn.zst",
                 "lichess_db_crazyhouse_2024-01.pgn.zst", "huge.pgn.zst",
                 "b.pgn.zst"):
        subprocess.run(["zstd", "-q", "-o", os.path.join(BOX, name), zst],
                       check=True)
    with open(os.path.join(BOX, "fics.pgn"), "wb") as out:
        subprocess.run([os.path.join(TOP, "bin/zhpgn"), "-q", "-t", "xboard",
                        os.path.join(BOX, "lichess.pgn")], stdout=out,
                       check=True)
    # mytool.c: libzh(3)'s first example
    for b in blocks(os.path.join(TOP, "man/libzh.3")):
        if b["kind"] == "program":
            with open(os.path.join(BOX, "mytool.c"), "w") as f:
                f.write(b["text"])
            break
    # python3 with numpy; cc as make asan builds (its libzh is instrumented)
    # (under make asan the module is instrumented: the sanitizers' runtime
    # preloaded into the interpreter, as tests/run-all does for pytest)
    pre = ""
    if os.environ.get("ZH_SANFLAGS"):
        pre = subprocess.run([os.environ.get("CC", "cc"),
                              "-print-file-name=libasan.so"],
                             stdout=subprocess.PIPE).stdout.decode().strip()
        pre = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 " % pre
    tools = {"python3": 'exec %s/usr/bin/python3 "$@"' % pre,
             "cc": 'exec /usr/bin/cc ${ZH_SANFLAGS-} "$@"'}
    if os.environ.get("VALGRIND"):
        for tl in TOOLS:
            tools[tl] = ('exec valgrind -q --error-exitcode=99 '
                         '--leak-check=full %s/bin/%s "$@"' % (TOP, tl))
    for name, body in tools.items():
        p = os.path.join(BOX, ".bin", name)
        with open(p, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(p, 0o755)


def man_unescape(s):
    s = s.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
    s = s.replace("\\&", "").replace("\\e", "\\")
    return s


def first_word(line):
    w = line.split()
    return w[0] if w else ""


def classify(lines, shell):
    """session, commands or display, from a block's lines."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return "display"
    if body[0].startswith("$ "):
        return "session"
    text = "\n".join(lines)
    if re.search(r"^(\w[\w \*]*\s)?main\s*\(", text, re.M) and "#include" in text:
        return "program"
    if sum(bool(re.search(r"[;{}]\s*$", ln)) for ln in body) >= 2:
        return "fragment"
    if shell or first_word(body[0]) in COMMANDS:
        return "commands"
    return "display"


def md_blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i, mark = [], 0, None
    prev_blank = True
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"\s*<!--\s*not run:\s*(.*?)\s*-->", ln)
        if m:
            mark, i = m.group(1), i + 1
            continue
        fence = re.match(r"(\s*)```\s*(\w*)", ln)
        if fence:
            ind, lang = len(fence.group(1)), fence.group(2)
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            body = [x[ind:] for x in lines[i + 1:j]]
            if lang in ("python", "py"):
                kind = "python"
            elif lang in ("c", "C"):
                kind = classify(body, False)
            elif lang in SHELL_FENCES:
                kind = classify(body, True)
            else:
                kind = "display"
            out.append(dict(line=i + 1, kind=kind, lines=body, mark=mark,
                            man=False))
            mark, i, prev_blank = None, j + 1, False
            continue
        if prev_blank and re.match(r"    ", ln) and ln.strip() and \
                not ln.lstrip().startswith(("- ", "* ", "|")):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or
                                      (not lines[j].strip() and j + 1 < len(lines)
                                       and lines[j + 1].startswith("    "))):
                j += 1
            raw = lines[i:j]
            ind = min(len(x) - len(x.lstrip()) for x in raw if x.strip())
            body = [x[ind:] for x in raw]
            out.append(dict(line=i + 1, kind=classify(body, True), lines=body,
                            mark=mark, man=False))
            mark, i, prev_blank = None, j, False
            continue
        if ln.strip():
            mark = None if not ln.strip().startswith("<!--") else mark
        prev_blank = not ln.strip()
        i += 1
    return out


def man_blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i, mark = [], 0, None
    while i < len(lines):
        ln = lines[i]
        m = re.match(r'\.\\"\s*not run:\s*(.*)', ln)
        if m:
            mark, i = m.group(1).strip(), i + 1
            continue
        if ln.startswith(".Dl "):
            body = [man_unescape(ln[4:])]
            out.append(dict(line=i + 1, kind=classify(body, False),
                            lines=body, mark=mark, man=True))
        elif ln.startswith(".Bd -literal"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith(".Ed"):
                j += 1
            body = [man_unescape(x) for x in lines[i + 1:j]]
            out.append(dict(line=i + 1, kind=classify(body, False),
                            lines=body, mark=mark, man=True))
            i = j
        elif not ln.startswith('.\\"'):
            mark = None
        i += 1
    return out


def blocks(path):
    bs = man_blocks(path) if re.search(r"\.\d$", path) else md_blocks(path)
    for b in bs:
        b["text"] = "\n".join(b["lines"]) + "\n"
    return bs


def env():
    e = dict(os.environ)
    stage = os.environ.get("STAGE", "")
    e["PATH"] = "%s/.bin:%s/bin:%s" % (BOX, TOP, e["PATH"])
    e["LC_ALL"] = "C"
    if stage:
        e["PKG_CONFIG_PATH"] = stage + "/usr/lib/pkgconfig"
        e["PKG_CONFIG_SYSROOT_DIR"] = stage
        e["LD_LIBRARY_PATH"] = stage + "/usr/lib"
    return e


def run(cmd, stdin=None):
    cmd = cmd.replace("/tmp/", BOX + "/tmp/")
    # Debian's python3 is the sandbox's (the sanitizers' runtime under
    # make asan): /usr/bin/python3 in a doc is that one
    cmd = cmd.replace("/usr/bin/python3", "python3")
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=BOX,
                       env=env(), stdin=stdin or subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def top_level(cmd):
    """The target of a top-level '>' and whether there is a top-level '|'."""
    q, target, pipe, i = None, None, False, 0
    while i < len(cmd):
        c = cmd[i]
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "\\":
            i += 1
        elif c == "#" and (i == 0 or cmd[i - 1] in " \t"):
            break
        elif c == "|" and cmd[i + 1:i + 2] != "|" and cmd[i - 1] != "|":
            pipe, target = True, None
        elif c == ">" and cmd[i - 1] not in "0123456789&" and \
                cmd[i + 1:i + 2] != "&":
            m = re.match(r">+\s*(\S+)", cmd[i:])
            target = m.group(1) if m else None
        i += 1
    return target, pipe


def validator(cmd):
    """Whether the last stage of a command is zhcheck or zhfen --check,
    whose answer is the exit status (and messages on standard error)."""
    w = re.split(r"(?<!\|)\|(?!\|)", cmd.split(" #")[0])[-1].split()
    return "zhcheck" in w or ("zhfen" in w and "--check" in w)


def files_now():
    seen = {}
    for d, dirs, fs in os.walk(BOX):
        dirs[:] = [x for x in dirs if x not in ("testdata", "examples")]
        for f in fs:
            p = os.path.join(d, f)
            st = os.stat(p)
            seen[p] = (st.st_mtime_ns, st.st_size)
    return seen


def joined(lines):
    """Command lines, continuation lines joined."""
    cmds, cur = [], ""
    for ln in lines:
        if not cur and (not ln.strip() or ln.lstrip().startswith("#")):
            continue
        cur += ln
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        cmds.append(cur.strip())
        cur = ""
    if cur:
        cmds.append(cur.strip())
    return cmds


def do_commands(b):
    for cmd in joined(b["lines"]):
        before = files_now()
        rc, out, err = run(cmd)
        if rc > 1:
            return "'%s' exited %d: %s" % (cmd, rc, (err or out)[-400:])
        target, pipe = top_level(cmd)
        if target and not target.startswith("/dev/"):
            p = os.path.join(BOX, target.replace("/tmp/", "tmp/").lstrip("/"))
            p = p if os.path.exists(p) else os.path.join(BOX, target)
            if not os.path.exists(p) or os.path.getsize(p) == 0:
                return "'%s' wrote nothing to %s" % (cmd, target)
        elif pipe:
            if not out.strip() and not validator(cmd):
                return "'%s' printed nothing" % cmd
        else:
            new = [p for p, v in files_now().items()
                   if before.get(p) != v and v[1] > 0]
            if not out.strip() and not new and not validator(cmd):
                return "'%s' printed and wrote nothing%s" % (
                    cmd, ": " + err[-300:] if err else "")
    return None


def do_session(b):
    cmd, want = None, []
    pairs = []
    for ln in b["lines"]:
        if ln.startswith("$ "):
            if cmd is not None:
                pairs.append((cmd, want))
            cmd, want = ln[2:], []
        elif cmd is not None:
            want.append(ln)
    if cmd is not None:
        pairs.append((cmd, want))
    for cmd, want in pairs:
        if not want:
            why = do_commands(dict(lines=[cmd]))
            if why:
                return why
            continue
        rc, out, err = run(cmd + " 2>&1")
        if rc > 1:
            return "'%s' exited %d: %s" % (cmd, rc, out[-400:])
        got = out.rstrip("\n")
        exp = "\n".join(want).rstrip("\n")
        if b["man"]:
            got, exp = " ".join(got.split()), " ".join(exp.split())
        if got != exp:
            return "'%s' printed\n%s\nnot\n%s" % (cmd, got, exp)
    return None


def do_program(b):
    src = os.path.join(BOX, "prog.c")
    with open(src, "w") as f:
        f.write(b["text"])
    cc = ["cc"] + os.environ.get("ZH_SANFLAGS", "").split() + [
        "-I" + TOP + "/lib", "-o", BOX + "/prog", src, TOP + "/build/libzh.a",
        "-ljansson", "-lpcre2-8", "-lpthread"]
    p = subprocess.run(cc, capture_output=True, text=True)
    if p.returncode:
        return "does not compile: " + p.stderr[-600:]
    with open(os.path.join(TOP, "testdata/pgn/lichess-2018-JannLee-CrazyAra.pgn")) as f:
        rc, out, err = run("./prog", stdin=f)
    if rc or not out.strip():
        return "exited %d, printed %r: %s" % (rc, out[:100], err[-300:])
    return None


def do_python(b):
    src = os.path.join(BOX, "prog.py")
    with open(src, "w") as f:
        f.write(b["text"])
    rc, out, err = run("python3 prog.py")
    return "exited %d: %s" % (rc, err[-600:]) if rc else None


def main():
    fixtures()
    counts, bad = {}, 0
    for path in FILES:
        rel = os.path.relpath(path, TOP)
        for b in blocks(path):
            kind = "not run" if b["mark"] and b["kind"] != "display" else b["kind"]
            why = None
            if kind == "session":
                why = do_session(b)
            elif kind == "commands":
                why = do_commands(b)
            elif kind == "program":
                why = do_program(b)
            elif kind == "python":
                why = do_python(b)
            elif kind == "fragment":
                why = "a fragment of a program: mark it not run, saying why"
            counts[kind] = counts.get(kind, 0) + 1
            note = " (%s)" % b["mark"] if kind == "not run" else ""
            print("%s:%d: %s%s%s" % (rel, b["line"], kind, note,
                                      ": FAILED: " + why if why else ""))
            bad += why is not None
    print("blocks: " + ", ".join("%d %s" % (v, k) for k, v in
                                 sorted(counts.items())) + ", %d failed" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
