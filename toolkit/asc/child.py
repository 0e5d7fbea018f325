"""The child process that hosts a user's program: ``python -m toolkit.asc.child SPEC.json -- ARGS...``.

The program was built as a shared object (see ``build.py``); it is loaded with the GIL held (PyDLL) and
its ``main`` is called with ``argv[0]`` = the executable path the program would have. Every AscendC
call it makes comes back here through :mod:`toolkit.asc.bridge`. Each finished launch is appended to the
results file as it ends, so a crash later still leaves the earlier launches. The process exits with the
program's own status; a signal kills it as it would kill the real program (the parent reports it).
"""
from __future__ import annotations

import ctypes
import json
import os
import signal
import sys


def main(argv: list[str]) -> int:
    spec = json.loads(open(argv[1], encoding="utf-8").read())
    args = argv[3:] if len(argv) > 2 and argv[2] == "--" else argv[2:]
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    from toolkit.machine import load_machine

    from . import bridge
    from .program import NativeRuntime, ProgramState

    bridge.PROGRAM = ProgramState(load_machine(spec.get("machine", "ascend950")), spec["results"],
                                  spec.get("kernel_params", {}), bool(spec.get("trace")),
                                  bool(spec.get("keep_events")), bool(spec.get("vf_fusion")),
                                  bool(spec.get("timeline")), spec.get("mode", "lockstep"))
    os.environ["ASC_EXE_PID"] = str(os.getpid())
    import numpy as np
    np.seterr(all="ignore")             # as inside a Python VF: masked-off lanes may divide by zero
    lib = ctypes.PyDLL(spec["library"], mode=os.RTLD_NOW | os.RTLD_LOCAL)
    bridge.PROGRAM.native = NativeRuntime(lib)
    program_argv = [spec["exe"], *args]
    argc = len(program_argv)
    c_argv = (ctypes.c_char_p * (argc + 1))(*[a.encode() for a in program_argv], None)
    lib.main.restype = ctypes.c_int
    lib.main.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    status = lib.main(argc, c_argv)
    lib.__asc_flush_stdio()
    bridge.PROGRAM.write({"kind": "exit", "status": status})
    return status & 0xFF


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stdout.flush()
    os._exit(code)
