"""What the ``.asc`` route's C++ headers declare: every function, class member and type of our own
``include/`` tree, with its namespace, class and the bridge names (``Reg.Add``, ``MB.Add``, ``CAPI.x``)
its body calls.

The headers are run through the C++ preprocessor first (their API families are written with macros such as
``ASC_MB_BINARY(Add)``), then scanned for declarations by brace structure: namespace, class and function
bodies. This is a provisional, conservative reader (no libclang in the toolchain; the shapes the headers
use are few): it finds names and forms, not overload resolution. The macros a source may use
(``PRINTF``, ``asc_vf_call`` ...) are the ``#define`` directives of those headers (``-dD``).
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .pages import decl_name, normalise, untemplated

_LINE_MARK = re.compile(r'^# (\d+) "([^"]*)"')
_DEFINE = re.compile(r"^#define ([A-Za-z_]\w*)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)\'')
_NAMESPACE = re.compile(r"^(?:inline\s+)?namespace\s*([\w:]*)\s*$")
_CLASS = re.compile(r"^(?:class|struct|union)\s+(?:alignas\([^)]*\)\s+)?([A-Za-z_]\w*)\s*(?:final\s*)?(?::\s*(.*))?$", re.DOTALL)
_ENUM = re.compile(r"^(?:typedef\s+)?enum\b(?:\s+(?:class|struct))?\s*([A-Za-z_]\w*)?")
_USING = re.compile(r"^(?:template\s*<.*>\s*)?using\s+([A-Za-z_]\w*)\s*=")
_NS_ALIAS = re.compile(r"^namespace\s+(\w+)\s*=\s*([\w:]+)$")
_BASES = re.compile(r"(?:public|protected|private|virtual)?\s*([A-Za-z_][\w:]*)\s*(?:<[^{}]*?>)?\s*(?:,|$)")
_API_CALL = re.compile(r"::__asc::api\(\s*((?:\"[^\"]*\"\s*)+)\)")


@dataclass
class Decl:
    """One declaration of our headers: ``scope`` like ``AscendC::Reg`` or ``AscendC::TPipe``."""
    scope: str
    name: str
    kind: str                       # function, class, type
    form: str
    bridge: list[str] = field(default_factory=list)

    @property
    def qualified(self) -> str:
        return f"{self.scope}::{self.name}" if self.scope else self.name


@dataclass
class Scan:
    decls: list[Decl]
    bases: dict[str, list[str]]     # class (qualified) -> its base classes (as written)
    aliases: dict[str, str]         # namespace alias -> target (``MicroAPI`` -> ``AscendC::Reg``)
    macros: list[str]


def preprocess(include_dir: Path, cxx: list[str]) -> str:
    """The preprocessed text of every header under ``include_dir`` as one translation unit, with line
    markers and the ``#define`` directives kept (``-dD``)."""
    tu = "".join(f'#include "{p.relative_to(include_dir).as_posix()}"\n' for p in sorted(include_dir.rglob("*.h")))
    return _run([*cxx, "-std=c++20", "-x", "c++", "-I", str(include_dir), "-E", "-dD", "-"], tu)


def _run(cmd: list[str], stdin: str) -> str:
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"preprocessing the headers failed: {done.stderr.strip().splitlines()[:1]}")
    return done.stdout


def own_text(pre: str, include_dir: Path) -> tuple[str, list[str]]:
    """The code of the preprocessed text that comes from ``include_dir`` (system headers dropped), and
    the macros defined there."""
    root = str(include_dir.resolve())
    keep, out, macros = False, [], set()
    for line in pre.splitlines():
        m = _LINE_MARK.match(line)
        if m:
            name = m.group(2)
            keep = name[:1] != "<" and str(Path(name).resolve()).startswith(root)
            continue
        if not keep:
            continue
        d = _DEFINE.match(line)
        if d:
            macros.add(d.group(1))
        elif not line.startswith("#"):
            out.append(line)
    return "\n".join(out), sorted(macros)


def scan_headers(include_dir: Path, cxx: list[str]) -> Scan:
    code, macros = own_text(preprocess(include_dir, cxx), include_dir)
    scan = scan_text(code)
    scan.macros = macros
    return scan


def scan_text(code: str) -> Scan:
    """Declarations of preprocessed C++ (see the module docstring)."""
    strings: list[str] = []

    def hide(m: re.Match) -> str:
        strings.append(m.group(0))
        return f"\x00{len(strings) - 1}\x00"
    text = _EMPTY_BRACES.sub("\x01", _STRING.sub(hide, code))     # T{} in a default argument is no scope
    scan = Scan([], {}, {}, [])
    stack: list[tuple[str, str, Decl | None, int]] = []      # (ns / class / body, name, owner, start)
    head_start = 0
    for i, c in enumerate(text):
        if c not in "{;}":
            continue
        in_body = any(f[0] == "body" for f in stack)
        head = _ACCESS.sub("", " ".join(text[head_start:i].split())).replace("\x01", "{}")
        head_start = i + 1
        if c == "{":
            stack.append(("body", "", None, i) if in_body else (*_open(head, stack, scan), i))
        elif c == ";":
            if not in_body:
                _declare(head, stack, scan)
        elif stack:
            _, _, owner, start = stack.pop()
            if owner is not None:
                owner.bridge += _bridge_names(text[start:i], strings)
    return scan


_EMPTY_BRACES = re.compile(r"\{\s*\}(?=\s*[,>)])")
_ACCESS = re.compile(r"^(?:(?:public|protected|private)\s*:\s*)+")


def _scope(stack: list) -> str:
    return "::".join(name for kind, name, _, _ in stack if kind in ("ns", "class") and name)


def _open(head: str, stack: list, scan: Scan) -> tuple[str, str, Decl | None]:
    """What a ``{`` opens: a namespace, a class, an enum or function body (recording the declaration)."""
    m = _NAMESPACE.match(head)
    if m:
        return "ns", m.group(1), None
    if head.startswith("extern \x00"):
        return "ns", "", None                             # extern "C" { ... }: transparent
    body = untemplated(head)
    m = _CLASS.match(body)
    if m and "(" not in body.split(":", 1)[0]:
        scope = _scope(stack)
        qual = f"{scope}::{m.group(1)}" if scope else m.group(1)
        scan.bases[qual] = [b for b in _BASES.findall(m.group(2) or "") if b]
        scan.decls.append(Decl(scope, m.group(1), "class", normalise(head)))
        return "class", m.group(1), None
    m = _ENUM.match(body)
    if m:
        if m.group(1):
            scan.decls.append(Decl(_scope(stack), m.group(1), "type", normalise(head)))
        return "body", "", None
    if "(" in head:
        nk = decl_name(normalise(head))
        if nk is not None:
            decl = Decl(_member_scope(_scope(stack), head, nk[0]), nk[0], nk[1], normalise(head))
            scan.decls.append(decl)
            return "body", nk[0], decl
    return "body", "", None


def _member_scope(scope: str, head: str, name: str) -> str:
    """The scope of a member defined outside its class (``T LocalTensor<T>::GetValue(...)``)."""
    m = re.search(r"([A-Za-z_]\w*)\s*(?:<[^<>()]*>)?\s*::\s*" + re.escape(name) + r"\s*\(", head)
    if m is None:
        return scope
    return f"{scope}::{m.group(1)}" if scope else m.group(1)


def _declare(head: str, stack: list, scan: Scan) -> None:
    """A declaration ending in ``;`` at namespace or class level: a prototype, alias or typedef."""
    if not head:
        return
    m = _NS_ALIAS.match(head)
    if m:
        scan.aliases[m.group(1)] = m.group(2).lstrip(":")
        return
    scope = _scope(stack)
    m = _USING.match(head)
    if m:
        scan.decls.append(Decl(scope, m.group(1), "type", normalise(head)))
        return
    if head.startswith("typedef"):
        name = re.findall(r"[A-Za-z_]\w*", head.split("(")[0])
        if name:
            scan.decls.append(Decl(scope, name[-1], "type", normalise(head)))
        return
    if "(" in head and not head.startswith(("static_assert", "friend")):
        nk = decl_name(normalise(head))
        if nk is not None and nk[1] == "function":
            scan.decls.append(Decl(scope, nk[0], "function", normalise(head)))


def _bridge_names(body: str, strings: list[str]) -> list[str]:
    """The API names a function body resolves (``::__asc::api("Reg." "Add")`` -> ``Reg.Add``)."""
    text = re.sub(r"\x00(\d+)\x00", lambda m: strings[int(m.group(1))], body)
    return [re.sub(r'"\s*"', "", m.group(1).strip())[1:-1] for m in _API_CALL.finditer(text)]
