"""Runs a module or a script and writes its peak resident memory (VmHWM, kB) to the file $AE_PEAK_FILE at exit.

`python peak.py -m MODULE ARGS…` or `python peak.py SCRIPT ARGS…`. The peak of the process's own memory map:
getrusage's ru_maxrss would also count the benchmark's large image the child was forked from.
"""

import atexit
import os
import runpy
import sys


def _write_peak() -> None:
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["AE_PEAK_FILE"], "w") as out:
        out.write(peak)


atexit.register(_write_peak)
if sys.argv[1] == "-m":
    sys.argv = [sys.argv[2], *sys.argv[3:]]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
