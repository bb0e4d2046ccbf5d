#!/usr/bin/env python3
"""The bundled example (examples/python/spread.py) claiming local-spread for one release only.

Issue 12's "JavaScript-sized certification": one routine, one release, default tries, over the
protocol. Run from the repository's root (benchmarks/README.md, "Kit time"):
  ./numaspread certify --impl process:'python3 benchmarks/local-spread-only.py 6.12' --kernel 6.12
Any argument after the release goes on to spread.py (--protocol 1).
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("spread", os.path.join(here, "..", "examples", "python", "spread.py"))
spread = importlib.util.module_from_spec(spec)
spec.loader.exec_module(spread)
kernel = sys.argv[1] if len(sys.argv) > 1 else "6.12"
spread.CLAIMS = [c for c in spread.CLAIMS if c["routine"] == "local-spread" and c["kernel"] == kernel]
if not spread.CLAIMS:
    sys.exit("local-spread-only.py: spread.py claims no local-spread for %s" % kernel)
sys.argv = [sys.argv[0]] + sys.argv[2:]
spread.main()
