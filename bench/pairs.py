#!/usr/bin/env python3
"""pairs.py RUNS JSON CMD_A CMD_B

Times two commands in turn, A B A B ... (one warm-up pair first), with
their output to /dev/null, and prints one line:

    MEDIAN_A MEDIAN_B MEDIAN_RATIO CPU_A CPU_B

(seconds of wall time, the median of the pairwise ratios A/B, and the
median CPU seconds, user + system, of each).  A ratio taken pair by pair
holds when the machine's speed drifts during the run, which a median of
all A runs over a median of all B runs (taken minutes apart) does not.
Each command is one string, split as a shell would split it (no shell
runs it).  Every run's figures go to JSON.  PAIRS_PREPARE_A, if set, is
a shell command run before each run of A, not timed (e.g. removing the
output directory A's last run wrote, so each run writes a new one);
PAIRS_PREPARE_B the same before each run of B.  ZH_IDLEWAIT, if set, is
a command run after them (not timed) that returns once both cores are
idle (bench/idlewait.c).
"""
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time


def once(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(os.devnull, "wb") as null:
        rc = subprocess.run(argv, stdout=null, stderr=null).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if rc not in (0, 1):  # 1: the tools' "some games had errors"
        sys.exit("pairs.py: %s exited %d" % (argv[0], rc))
    return wall, cpu


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.split("\n")[0])
    runs, out = int(sys.argv[1]), sys.argv[2]
    a, b = shlex.split(sys.argv[3]), shlex.split(sys.argv[4])
    prep = os.environ.get("PAIRS_PREPARE_A")
    prep_b = os.environ.get("PAIRS_PREPARE_B")

    idle = shlex.split(os.environ.get("ZH_IDLEWAIT", ""))

    def prepare(cmd):
        if cmd:
            subprocess.run(cmd, shell=True, check=True)
        if idle:  # both cores idle (bench/idlewait.c, from run.sh)
            subprocess.run(idle, check=False)

    prepare(prep)
    once(a)
    prepare(prep_b)
    once(b)  # warm-up
    rows = []
    for _ in range(runs):
        prepare(prep)
        wa, ca = once(a)
        prepare(prep_b)
        wb, cb = once(b)
        rows.append({"a": wa, "b": wb, "cpu_a": ca, "cpu_b": cb})
    med = lambda k: statistics.median(r[k] for r in rows)
    ratio = statistics.median(r["a"] / r["b"] for r in rows)
    with open(out, "w") as f:
        json.dump({"a": sys.argv[3], "b": sys.argv[4], "runs": rows}, f, indent=1)
    print("%.6f %.6f %.4f %.6f %.6f" % (med("a"), med("b"), ratio, med("cpu_a"), med("cpu_b")))


main()
