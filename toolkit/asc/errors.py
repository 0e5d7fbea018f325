"""How a failed build is told: one line with a stable code, the user's file:line, and the real cause.

Codes (README, "Run your own .asc"): ``COMPILE_ERROR`` (the compiler's first error, at the user's line
even when it surfaced inside our headers), ``UNSUPPORTED_API`` (an AscendC name or form the emulator does
not implement), ``NO_MAIN`` (``run`` builds a whole program), ``NO_COMPILER``, ``RUNTIME_BUILD`` (our
runtime did not build: the compiler's own words, e.g. a full disk), ``TIMEOUT`` (the build ran past
``--timeout``), ``CACHE_UNSAFE`` / ``CACHE_WRITE`` (the build cache, ``cache.py``), ``BAD_INPUT``.
The compiler's bytes are kept: text that is not UTF-8 (a GBK comment quoted in a message) is shown
with ``\\xNN`` escapes, never decoded into something else and never a traceback.
"""
from __future__ import annotations

import re
from pathlib import Path

_PKG = str(Path(__file__).resolve().parent)
_ERR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$")
_NOT_MEMBER = re.compile(r"‘([\w:]+)’ is not a member of ‘(AscendC[\w:]*)’|'([\w:]+)' is not a member of "
                         r"'(AscendC[\w:]*)'|no member named '(\w+)' in namespace '(AscendC[\w:]*)'")
_NO_MATCH = re.compile(r"no matching function for call to [‘'](AscendC::[\w:]+)")
_REQUIRED_FROM = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:\d+:)?\s+required from here")
_NO_MAIN = re.compile(r"required symbol [`'‘]?main['’]? not defined|undefined reference to [`'‘]main['’]")
_CAUSE = re.compile(r"no space left on device|file too large|disk quota exceeded|read-only file system|"
                    r"permission denied|cannot allocate memory", re.I)


class BuildError(Exception):
    """The program does not build (bad input: exit 2). ``location`` is "file:line" of the first error."""

    def __init__(self, message: str, location: str = "", code: str = "COMPILE_ERROR"):
        super().__init__(message)
        self.location, self.code = location, code


def printable(text: str) -> str:
    """``text`` on one line of valid text: undecodable bytes (surrogates) and control characters as
    ``\\xNN``, a newline as ``\\n``."""
    out = []
    for ch in text:
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:
            out.append(f"\\x{o - 0xDC00:02x}")
        elif ch == "\n":
            out.append("\\n")
        elif o < 0x20 or o == 0x7F or 0xD800 <= o <= 0xDFFF:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)


def valid_text(text: str) -> str:
    """``text`` with the undecodable bytes of a path (surrogates) written ``\\xNN``: valid UTF-8 to write."""
    return _SURROGATE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)


_SURROGATE = re.compile("[\udc80-\udcff]")


def printable_lines(text: str) -> str:
    """:func:`printable` for each line of a multi-line text (a report)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def tool_failure(stderr: str) -> str:
    """The line of a tool's stderr that says why it failed (a full disk, a missing file), on one line."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if _CAUSE.search(ln):
            return printable(ln)
    for ln in lines:
        if re.search(r"\berror\b", ln, re.I):
            return printable(ln)
    return printable(lines[-1]) if lines else "the compiler failed without a message"


def _ours(file: str) -> bool:
    return file.startswith(_PKG + "/") or str(Path(file).resolve()).startswith(_PKG + "/")


def _user_site(lines: list[str], k: int) -> tuple[str, str] | None:
    """For an error inside our headers: the user's line that instantiated or called into them."""
    for other in lines[k + 1:k + 40]:
        rf = _REQUIRED_FROM.match(other)
        if rf and not _ours(rf.group("file")):
            return rf.group("file"), rf.group("line")
    for other in reversed(lines[:k]):
        rf = _REQUIRED_FROM.match(other)
        if rf and not _ours(rf.group("file")):
            return rf.group("file"), rf.group("line")
    return None


def compile_error(stderr: str, src: Path | None = None, overlay: Path | None = None,
                  known: list[str] = ()) -> BuildError:
    """The first compiler error as (message, file:line); API names we do not implement become
    ``UNSUPPORTED_API name``; a program without ``main`` is ``NO_MAIN``. ``overlay``: paths under it
    are named as the user's; ``known``: the files compiled (a path holding a newline stays whole)."""
    text = stderr
    holders = {}
    for k, p in enumerate(sorted({*known, *( [str(src)] if src else [])}, key=len, reverse=True)):
        if "\n" in p:
            holders[f"\0{k}\0"] = p
            text = text.replace(p, f"\0{k}\0")
    if overlay is not None:
        text = text.replace(str(overlay) + "/", "/")
    lines = text.splitlines()
    if _NO_MAIN.search(text):
        name = printable(str(src)) if src else "the program"
        return BuildError(f"NO_MAIN {name}: the program defines no main() (run and compare build the whole "
                          f"program, host code included)", name, "NO_MAIN")
    for k, line in enumerate(lines):
        m = _ERR.match(line)
        if not m:
            continue
        file, lineno, msg = m.group("file"), m.group("line"), m.group("msg").strip()
        if _ours(file):
            file, lineno = _user_site(lines, k) or (file, lineno)
        for h, p in holders.items():
            file, msg = file.replace(h, p), msg.replace(h, p)
        where = printable(f"{file}:{lineno}")
        msg = printable(msg)
        nm = _NOT_MEMBER.search(msg)
        if nm:
            name = next(g for g in nm.groups() if g)
            ns = [g for g in nm.groups() if g][1]
            return BuildError(f"UNSUPPORTED_API {name} {where}: {ns}::{name} is not implemented by the emulator",
                              where, "UNSUPPORTED_API")
        nf = _NO_MATCH.search(msg)
        if nf:
            return BuildError(f"UNSUPPORTED_API {nf.group(1).split('::')[-1]} {where}: this form of "
                              f"{nf.group(1)} is not implemented by the emulator", where, "UNSUPPORTED_API")
        return BuildError(f"{where}: {msg}", where)
    return BuildError(f"COMPILE_ERROR: the build failed: {tool_failure(stderr)}")
