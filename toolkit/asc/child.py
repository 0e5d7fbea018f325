"""The child process that hosts a user's program: ``python -m toolkit.asc.child SPEC.json -- ARGS...``.

The program was built as a shared object (see ``build.py``); it is loaded with the GIL held (PyDLL) and
its ``main`` is called with ``argv[0]`` = the executable path the program would have. Every AscendC
call it makes comes back here through :mod:`toolkit.asc.bridge`. Records go to the tool over the result
channel (``$ASC_RESULT_FD``, :mod:`toolkit.asc.channel`): each finished launch as it ends (a crash later
still leaves the earlier launches), the exit status, or why the child itself failed (``tool_error``:
never reported as the program's status). The child's own Python stderr goes there too; the program's
stdout/stderr are its file descriptors 1 and 2.

When ``main`` returns, the process ends as a native binary does: ``exit(status)`` runs the program's
``atexit`` handlers and global destructors and flushes stdio. A signal kills it as it would kill the
real program (the parent reports it).
"""
from __future__ import annotations

import ctypes
import io
import json
import os
import signal
import sys

#: exit status of the child when it failed itself (the tool reports the record it sent, not this status)
TOOL_FAILED = 70
_keep: list = []                        # what C keeps pointers to (program_invocation_name)


class _ToolLog(io.TextIOBase):
    """The child's Python ``sys.stderr``: each line to the tool as a ``log`` record, not to the program's
    stderr (an emulator traceback is the tool's business)."""

    def __init__(self, writer):
        self.writer, self._buf = writer, ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._buf += text
        if "\n" in self._buf:
            lines, self._buf = self._buf.rsplit("\n", 1)
            self.writer.write({"kind": "log", "text": lines})
        return len(text)


def _private(fd: int) -> None:
    """The channel fds are not inherited by what the program starts (``system()``, ``fork``+``exec``)."""
    os.set_inheritable(fd, False)


def _load(spec: dict, args: list[str]):
    from toolkit.machine import load_machine

    from . import bridge
    from .program import NativeRuntime, ProgramState

    bridge.PROGRAM = ProgramState(load_machine(spec.get("machine", "ascend950")), _WRITER,
                                  spec.get("kernel_params", {}), bool(spec.get("trace")),
                                  bool(spec.get("keep_events")), bool(spec.get("vf_fusion")),
                                  bool(spec.get("timeline")), spec.get("mode", "lockstep"))
    if spec.get("perturbation"):
        from toolkit.ascendc.numerics import Perturbation, set_perturbation
        set_perturbation(Perturbation.from_json(spec["perturbation"]))
    os.environ["ASC_EXE_PID"] = str(os.getpid())
    import numpy as np
    np.seterr(all="ignore")             # as inside a Python VF: masked-off lanes may divide by zero
    try:
        lib = ctypes.PyDLL(spec["library"], mode=os.RTLD_NOW | os.RTLD_LOCAL)
    except OSError as err:
        raise _Refused("LINK_ERROR", f"the program cannot be loaded: {err}") from None
    if not hasattr(lib, "main"):
        raise _Refused("NO_MAIN", "the program defines no main()")
    bridge.PROGRAM.native = NativeRuntime(lib)
    exe = os.fsencode(spec["exe"])
    _name_process(exe)
    argv0 = os.fsencode(spec["argv0"]) if "argv0" in spec else exe   # a direct start keeps what was typed
    program_argv = [argv0, *(os.fsencode(a) for a in args)]
    c_argv = (ctypes.c_char_p * (len(program_argv) + 1))(*program_argv, None)
    _keep.append(c_argv)
    lib.main.restype = ctypes.c_int
    lib.main.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    return lib, len(program_argv), c_argv


def _name_process(exe: bytes) -> None:
    """``program_invocation_name`` (what ``perror``/``err`` print) is the executable, not python3."""
    try:
        libc = ctypes.CDLL(None)
        full, short = ctypes.create_string_buffer(exe), ctypes.create_string_buffer(os.path.basename(exe))
        _keep.extend([full, short])
        ctypes.c_void_p.in_dll(libc, "program_invocation_name").value = ctypes.addressof(full)
        ctypes.c_void_p.in_dll(libc, "program_invocation_short_name").value = ctypes.addressof(short)
    except (OSError, ValueError, AttributeError):
        pass


class _Refused(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


_WRITER = None


def main(argv: list[str]) -> None:
    global _WRITER
    from .channel import Writer
    fd = int(os.environ["ASC_RESULT_FD"])
    for f in (fd, int(os.environ.get("ASC_STATUS_FD", "-1"))):
        if f >= 0:
            _private(f)
    _WRITER = Writer(fd)
    sys.stderr = _ToolLog(_WRITER)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    try:
        spec = json.loads(open(argv[1], encoding="utf-8").read())
        args = argv[3:] if len(argv) > 2 and argv[2] == "--" else argv[2:]
        lib, argc, c_argv = _load(spec, args)
    except BaseException as err:                   # the child itself failed: say so, never as the program's status
        code = getattr(err, "code", "INTERNAL_ERROR")
        _WRITER.write({"kind": "tool_error", "code": code if isinstance(code, str) else "INTERNAL_ERROR",
                       "message": f"{type(err).__name__}: {err}" if not isinstance(err, _Refused) else str(err)})
        os._exit(TOOL_FAILED)
    try:
        status = lib.main(argc, c_argv)
        lib.__asc_flush_stdio()
    except BaseException as err:                   # a Python error the bridge left set: ours, not the program's
        _WRITER.write({"kind": "tool_error", "code": "INTERNAL_ERROR", "message": f"{type(err).__name__}: {err}"})
        os._exit(TOOL_FAILED)
    from . import bridge
    bridge.PROGRAM.write({"kind": "exit", "status": status})
    libc = ctypes.PyDLL(None)
    libc.exit.argtypes = [ctypes.c_int]
    libc.exit(status & 0xFF)                       # atexit handlers, global destructors, stdio flushed


if __name__ == "__main__":
    main(sys.argv)
    os._exit(TOOL_FAILED)
