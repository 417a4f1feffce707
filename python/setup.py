"""Build the Python module zhkit: its C half (_zhkit) over libzh and the
tools' framework (cli/), and the package (python/zhkit).  Run by the
Makefile (`make python`), which builds build/libzh.a first:

    cd python && /usr/bin/python3 setup.py -q build_ext --build-lib ../build/python ...

Debian's python3-dev and python3-setuptools are all it needs."""
import glob
import os

from setuptools import Extension, setup

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)

# The tools' framework: the same files the tools link (the draw/ code is
# not needed: no pictures in the module).
CLI = sorted(glob.glob('cli/*.c'))

# zhkit's one version number (the file VERSION, as the tools have it)
VERSION = open('VERSION').read().strip()

setup(
    name='zhkit',
    version=VERSION,
    description='crazyhouse games as NumPy tables, games and boards (libzh)',
    packages=['zhkit'],
    package_dir={'zhkit': 'python/zhkit'},
    ext_modules=[Extension(
        'zhkit._zhkit',
        sources=sorted(glob.glob('python/src/*.c')) + CLI,
        include_dirs=['lib', 'cli', 'python/src'],
        define_macros=[('_POSIX_C_SOURCE', '200809L'),
                       ('ZH_VERSION', '"%s"' % VERSION)],
        extra_compile_args=os.environ.get(
            'ZH_PYCFLAGS', '-std=gnu17 -Wall -Wextra -Wno-missing-field-initializers -Wno-cast-function-type').split(),
        extra_link_args=os.environ.get('ZH_PYLDFLAGS', '').split(),
        extra_objects=['build/libzh.a'],
        # the tools' libraries, as the Makefile links them (ZH_PYLIBS:
        # its LIBS and CODECLIBS, -l dropped)
        libraries=os.environ.get(
            'ZH_PYLIBS', 'jansson pcre2-8 pthread zstd z bz2 lzma snappy lz4 '
            'brotlidec').replace('-l', '').split(),
    )],
)
