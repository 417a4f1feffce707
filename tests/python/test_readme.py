"""README.md's Python section: its dataset example runs as written, from
the repository's top, and says what the tables hold."""
import os
import re
import subprocess

from conftest import ROOT


def test_readme_python_example(tmp_path):
    text = open(os.path.join(ROOT, 'README.md')).read()
    sec = text[text.index('## Python'):]
    sec = sec[:sec.index('\n## ', 5)]
    blocks = re.findall(r'```python\n(.*?)```', sec, re.S)
    assert blocks, 'no python block in README.md'
    env = dict(os.environ)
    env.pop('PYTHONPATH', None)         # the block sets its own path
    p = subprocess.run(['/usr/bin/python3', '-c', blocks[0]], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    first = p.stdout.splitlines()[0].split()
    assert first[1] == 'read,' and int(first[0]) >= int(first[2]) > 0
    import numpy as np
    d = np.load('/tmp/zh-dataset.npz')
    assert len(d['value']) == len(d['board']) > 0
    assert set(np.unique(d['value'])) <= {-1, 0, 1}
    assert 0 < d['val'].sum() < len(d['val'])
