"""The module's tests (make check runs them through tests/run-all with
/usr/bin/python3 -m pytest): the module from the build tree, the tools
from bin/."""
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.environ.get('ZH_PYTHONPATH',
                                  os.path.join(ROOT, 'build', 'python')))
BIN = os.path.join(ROOT, 'bin')


def data_files(*pats):
    out = []
    for p in pats:
        out += sorted(glob.glob(os.path.join(ROOT, 'testdata', p),
                                recursive=True))
    return out


# every game file of the test data: every variant's, and bughouse
GAMES = data_files('**/*.pgn', '**/*.bpgn')
