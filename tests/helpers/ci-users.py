#!/usr/bin/env python3
"""Checks for tests/ci-users.bats (issue 39, CI users).

  ci-users.py rules SCHEMA REPORT MANPAGE
      The SARIF log REPORT is valid against SCHEMA; its driver has one
      rule per error code and warning class of zhkit(7) (MANPAGE), in
      that order, each with descriptions (the man page's words), help
      (text and Markdown) and its level; every result names a rule.
  ci-users.py workflow FILE DIR
      The GitHub workflow FILE: on push and pull_request, a step that
      annotates (--report github), a SARIF step and the upload of that
      SARIF file both "if: always()"; its "run" steps but the install
      written to DIR/1.sh, 2.sh, ... in order.
"""
import json
import os
import re
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def words(text):
    return re.findall(r"[A-Za-z0-9]+", text)


def man_lists(path):
    """{"The classes:": [(name, words)], "The error codes:": [...]}"""
    lists, cur, item = {}, None, None
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line in ("The classes:", "The error codes:"):
            cur = lists.setdefault(line, [])
            continue
        if cur is None:
            continue
        if line.startswith(".El"):
            if item:
                cur.append(item)
            cur, item = None, None
            continue
        m = re.match(r"^\.It Li (\S+)$", line)
        if m:
            if item:
                cur.append(item)
            item = (m[1], [])
            continue
        if item is None:
            continue
        line = line.replace("\\-", "-").replace("\\&", "")
        if line.startswith("."):
            toks = line.split()[1:]
            toks = [t for t in toks if not re.fullmatch(r"[A-Z][a-z]{1,2}", t)]
            line = " ".join(toks)
        item[1].extend(words(line))
    return lists


def rules(schema_path, report, manpage):
    import jsonschema
    schema = json.load(open(schema_path, encoding="utf-8"))
    log = json.load(open(report, encoding="utf-8"))
    errs = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    if errs:
        fail("SARIF not valid against its schema: %s at %s" %
             (errs[0].message, list(errs[0].path)))
    lists = man_lists(manpage)
    want = [(n, w, "error") for n, w in lists.get("The error codes:", [])] + \
        [(n, w, "warning") for n, w in lists.get("The classes:", [])]
    if len(want) < 20:
        fail("zhkit(7)'s lists not found: %d items" % len(want))
    got = log["runs"][0]["tool"]["driver"]["rules"]
    if [r["id"] for r in got] != [n for n, _, _ in want]:
        fail("rules %s, zhkit(7) %s" % ([r["id"] for r in got],
                                        [n for n, _, _ in want]))
    for r, (n, w, level) in zip(got, want):
        for k in ("shortDescription", "fullDescription"):
            if not r.get(k, {}).get("text"):
                fail("rule %s without %s" % (n, k))
        if words(r["fullDescription"]["text"]) != w:
            fail("rule %s: %r, zhkit(7): %r" %
                 (n, r["fullDescription"]["text"], " ".join(w)))
        h = r.get("help", {})
        if not h.get("text", "").startswith(r["fullDescription"]["text"]) \
                or not h.get("markdown"):
            fail("rule %s: help %r" % (n, h))
        if r["defaultConfiguration"]["level"] != level:
            fail("rule %s: level %s" % (n, r["defaultConfiguration"]))
    ids = [r["id"] for r in got]
    for res in log["runs"][0]["results"]:
        if ids[res["ruleIndex"]] != res["ruleId"]:
            fail("result of %s with ruleIndex %d" % (res["ruleId"],
                                                       res["ruleIndex"]))
        if not re.fullmatch(r"[0-9a-f]{16}",
                            res["partialFingerprints"]["zhcheckFinding/v1"]):
            fail("fingerprint %r" % res["partialFingerprints"])
    print(len(got), "rules,", len(log["runs"][0]["results"]), "results")


def workflow(path, outdir):
    import yaml
    wf = yaml.safe_load(open(path, encoding="utf-8"))
    on = wf.get("on", wf.get(True))     # YAML 1.1 reads "on" as true
    if not isinstance(on, dict) or "push" not in on or \
            "pull_request" not in on:
        fail("not run on push and pull_request: %r" % on)
    if wf.get("permissions", {}).get("security-events") != "write":
        fail("no security-events: write for the upload")
    (job,) = wf["jobs"].values()
    steps = job["steps"]
    upload = [s for s in steps
              if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
    sarif = [s for s in steps if "--report sarif" in s.get("run", "")]
    annotate = [s for s in steps if "--report github" in s.get("run", "")]
    if len(upload) != 1 or len(sarif) != 1 or len(annotate) != 1:
        fail("want one annotate, SARIF and upload step")
    for s in upload + sarif:
        if s.get("if") != "always()":
            fail("step %r without if: always()" % s.get("name"))
    m = re.search(r"-o (\S+)", sarif[0]["run"])
    if not m or upload[0]["with"]["sarif_file"] != m[1]:
        fail("the upload's sarif_file is not the SARIF step's -o")
    if steps.index(annotate[0]) > steps.index(sarif[0]) or \
            steps.index(sarif[0]) > steps.index(upload[0]):
        fail("steps out of order")
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for s in steps:
        if "run" in s and not s.get("name", "").startswith("Install"):
            n += 1
            with open(os.path.join(outdir, "%d.sh" % n), "w") as f:
                f.write(s["run"] + "\n")
    print(n, "steps")


if sys.argv[1] == "rules":
    rules(*sys.argv[2:5])
elif sys.argv[1] == "workflow":
    workflow(*sys.argv[2:4])
else:
    fail(__doc__)
