#!/usr/bin/env python3
"""Check zhcheck's --report outputs as CI systems read them (issue 32,
item 24), against the diagnostics zhcheck wrote on stderr.

  ci-reports.py sarif SCHEMA REPORT STDERR
  ci-reports.py junit REPORT STDERR
  ci-reports.py github REPORT STDERR

STDERR holds zhcheck's "zhcheck: FILE:LINE:COL: KIND: MESSAGE" lines (run
with --all-warnings): every one must be in the report, and nothing else.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

DIAG = re.compile(r"^zhcheck: (.*):(\d+):(\d+): (error|warning): (.*)$")


def diags(path):
    out = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            m = DIAG.match(line.rstrip("\n"))
            if m:
                out.append((m[1], int(m[2]), int(m[3]), m[4], m[5]))
    return out


def latin1(s):
    """The stderr bytes as the reports write them: UTF-8 kept, any
    other byte read as Latin-1 (zhkit-json(5))."""
    b = s.encode("utf-8", errors="surrogateescape")
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(
            ch if not (0xDC80 <= ord(ch) <= 0xDCFF) else chr(ord(ch) - 0xDC00)
            for ch in s)


def fail(msg):
    print("ci-reports: " + msg, file=sys.stderr)
    sys.exit(1)


def sarif(schema_path, report, stderr):
    import jsonschema
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(report, encoding="utf-8") as f:
        log = json.load(f)
    jsonschema.Draft4Validator.check_schema(schema)
    errs = sorted(jsonschema.Draft4Validator(schema).iter_errors(log),
                  key=lambda e: list(e.path))
    if errs:
        fail("SARIF not valid against its schema: %s at %s" %
             (errs[0].message, list(errs[0].path)))
    if log["version"] != "2.1.0" or len(log["runs"]) != 1:
        fail("not one run of SARIF 2.1.0")
    drv = log["runs"][0]["tool"]["driver"]
    for k in ("name", "version", "informationUri", "rules"):
        if k not in drv:
            fail("driver without " + k)
    rules = [r["id"] for r in drv["rules"]]
    got = []
    for r in log["runs"][0]["results"]:
        if r["ruleId"] not in rules:
            fail("ruleId %s not among the rules" % r["ruleId"])
        if "ruleIndex" in r and rules[r["ruleIndex"]] != r["ruleId"]:
            fail("ruleIndex %d is not %s" % (r["ruleIndex"], r["ruleId"]))
        loc = r["locations"][0]["physicalLocation"]
        got.append((loc["artifactLocation"]["uri"], loc["region"]["startLine"],
                    loc["region"]["startColumn"], r["level"],
                    r["message"]["text"]))
    from urllib.parse import quote
    want = [(quote(latin1(f), safe="/-._~"), l, c, k, latin1(m))
            for f, l, c, k, m in diags(stderr)]
    if got != want:
        fail("SARIF results differ from the diagnostics:\n%s\n%s" %
             (got[:3], want[:3]))
    print(len(got), "results")


def junit(report, stderr):
    root = ET.parse(report).getroot()
    if root.tag != "testsuites":
        fail("root is " + root.tag)
    want = diags(stderr)
    errors = [d for d in want if d[3] == "error"]
    total = fails = 0
    lines = []
    for s in root:
        if s.tag != "testsuite":
            fail("child of testsuites: " + s.tag)
        cases = s.findall("testcase")
        if len(cases) != len(list(s)):
            fail("a child of testsuite that is no testcase")
        nf = len([c for c in cases if c.find("failure") is not None])
        if int(s.get("tests")) != len(cases) or int(s.get("failures")) != nf:
            fail("suite %s: tests %s failures %s, has %d and %d" %
                 (s.get("name"), s.get("tests"), s.get("failures"),
                  len(cases), nf))
        for k in ("name", "errors", "time", "skipped"):
            if s.get(k) is None:
                fail("testsuite without " + k)
        for c in cases:
            for k in ("name", "classname", "time"):
                if c.get(k) is None:
                    fail("testcase without " + k)
            if c.get("classname") != s.get("name"):
                fail("classname is not the suite's file")
            for e in c:
                if e.tag not in ("failure", "system-out"):
                    fail("child of testcase: " + e.tag)
                if e.tag == "failure" and (not e.get("message") or
                                           not e.get("type")):
                    fail("failure without message or type")
                lines += e.text.splitlines()
        total += len(cases)
        fails += nf
    if int(root.get("tests")) != total or int(root.get("failures")) != fails:
        fail("testsuites counts")
    if fails != len(errors):
        fail("%d failures, %d errors said" % (fails, len(errors)))
    expect = ["%s:%d:%d: %s: %s" % (f, l, c, k, m) for f, l, c, k, m in want]
    if sorted(lines) != sorted(latin1(x) for x in expect):
        fail("the failures and system-out lines differ from the diagnostics")
    print(total, "testcases,", fails, "failures")


def gh_unescape(s, prop):
    s = s.replace("%0D", "\r").replace("%0A", "\n")
    if prop:
        s = s.replace("%3A", ":").replace("%2C", ",")
    return s.replace("%25", "%")


def github(report, stderr):
    cmd = re.compile(r"^::(error|warning) ([^:]*)::(.*)$")
    got = []
    with open(report, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            m = cmd.match(line.rstrip("\n"))
            if not m:
                fail("not a workflow command: " + line)
            props = dict(p.split("=", 1) for p in m[2].split(","))
            props = {k: gh_unescape(v, True) for k, v in props.items()}
            got.append((props["file"], int(props["line"]), int(props["col"]),
                        m[1], gh_unescape(m[3], False)))
    want = [(latin1(f), l, c, k, latin1(m)) for f, l, c, k, m in diags(stderr)]
    if got != want:
        fail("workflow commands differ from the diagnostics:\n%s\n%s" %
             (got[:3], want[:3]))
    print(len(got), "commands")


if __name__ == "__main__":
    if sys.argv[1] == "sarif":
        sarif(*sys.argv[2:5])
    elif sys.argv[1] == "junit":
        junit(*sys.argv[2:4])
    else:
        github(*sys.argv[2:4])
