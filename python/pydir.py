"""Where `make install` puts the zhkit package: the first directory of
this Python's own search path under PREFIX/lib that holds packages
(Debian: /usr/local/lib/python3.11/dist-packages for PREFIX=/usr/local,
/usr/lib/python3/dist-packages for /usr), so that `import zhkit` works
once installed; else the platform's site-packages under PREFIX (then
PYTHONPATH must name it).  Run as python3 -E -s pydir.py PREFIX."""
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/")
for d in sys.path:
    if d.startswith(prefix + "/lib/") and d.endswith("-packages"):
        print(d)
        break
else:
    print(sysconfig.get_path("platlib", "posix_prefix",
                             {"base": prefix, "platbase": prefix}))
