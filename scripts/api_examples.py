"""Compile the vendor's per-API examples (the 调用示例 sections of the reference pages) against our headers.

    python scripts/api_examples.py REFERENCE_DIR [--json OUT] [--family SUBSTR] [--page SUBSTR] [--jobs 2]

For every in-scope page of the catalog (toolkit/ascendc/catalog/api_catalog.json) the cpp code blocks of
its example section are taken one by one. A block that defines a function, a class or a kernel is compiled
as it is (at file scope); a block of bare statements (a fragment) is put into a function body. Both get
``#include "kernel_operator.h"`` / ``using namespace AscendC;`` and, round by round, declarations of the
variables the compiler says are not declared: the type comes from the page's prototypes (the parameter in the
same position of a call with as many arguments) or, failing that, from the variable's name (``xxxLocal`` is a
LocalTensor, ``xxxGm`` a GlobalTensor...); the element type is the first of float/half/the page's first dtype.
A block whose only unknown names cannot be typed that way is counted 'undeclared', not as our failure.

Each unit goes through the project's source rewrite (``toolkit.asc.rewrite``) and ``g++ -std=c++20
-fsyntax-only`` with our include directory (the project's build compiles C++20: our headers need it), a
precompiled kernel_operator.h making each check take a fraction of a second. Template bodies are checked
only as far as g++ checks an uninstantiated template.

A developer script: it reads the reference given on the command line; the repository's tests never do.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolkit.asc.rewrite import rewrite  # noqa: E402
from toolkit.asc.toolchain import INCLUDE, find_compiler  # noqa: E402
from toolkit.ascendc.catalog import pages  # noqa: E402

CATALOG = ROOT / "toolkit/ascendc/catalog/api_catalog.json"
EXAMPLE_HEAD = "调用示例"
CODE_LANGS = ("cpp", "c++", "c", "")
ROUNDS = 5
_FENCE_LANG = re.compile(r"^\s*```\s*([\w+]*)")
_ERR = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+:\d+): (?:fatal )?error: (?P<msg>.*)$", re.MULTILINE)
_UNDECL = re.compile(r"'(\w+)' (?:was not declared in this scope|has not been declared|does not name a type)"
                     r"|'struct __ApiExample' has no member named '(\w+)'")
_DTYPE_ARG = re.compile(r"[<,(]\s*(half|float|bfloat16_t|int8_t|uint8_t|int16_t|uint16_t|int32_t|uint32_t|int64_t|"
                        r"uint64_t)\s*[,>]")
#: names of the operator project's host framework (tiling data macros, graph/tiling context types), which the
#: reference copy documents on no page: an example that needs them counts as 'out-of-scope'
FRAMEWORK = {"ge", "gert", "optiling", "context", "BEGIN_TILING_DATA_DEF", "END_TILING_DATA_DEF", "TILING_DATA_FIELD_DEF",
             "TILING_DATA_FIELD_DEF_ARR", "TILING_DATA_FIELD_DEF_STRUCT", "REGISTER_TILING_DATA_CLASS", "TILING_KEY_IS",
             "GET_TILING_DATA", "TilingData", "UIntImm", "EXPECT_EQ"}
#: the names an error says are missing or do not fit (a call's callee, an undeclared or non-member name)
_NAMED = re.compile(r"'(\w+)' (?:was not declared|is not a member|cannot be used as a function|has not been declared)"
                    r"|no matching function for call to '(?:[\w:]+::)?(\w+)[<(]")
_CONSTEXPR = re.compile(r"^(static\s+)?constexpr\s+[\w:<>, ]+\s+\w+\s*=[^;]*;\s*(//.*)?$")
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


@dataclass
class Example:
    page: str
    family: str
    index: int
    kind: str                     # 'program' or 'fragment'
    code: str
    status: str = ""              # compiled / failed-ours / undeclared
    error: str = ""
    undeclared: list[str] = field(default_factory=list)
    declared: dict[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------- reading the pages

def example_blocks(text: str) -> list[str]:
    """The C/C++ fenced blocks of the page's example section(s) (indented fences too)."""
    out: list[str] = []
    for head, body in pages.sections(text).items():
        if not head.startswith(EXAMPLE_HEAD):
            continue
        cur: list[str] | None = None
        indent = 0
        for line in body.splitlines():
            m = _FENCE_LANG.match(line)
            if m and cur is None:
                cur, indent = ([] if m.group(1).lower() in CODE_LANGS else None), len(line) - len(line.lstrip())
                if cur is None:
                    cur = ["\0skip"]
            elif m:
                if cur and cur[0] != "\0skip":
                    out.append("\n".join(cur))
                cur = None
            elif cur is not None:
                cur.append(line[indent:] if line[:indent].strip() == "" else line)
    return [pages.clean(b) for b in out if b.strip()]


def strip_comments(code: str) -> str:
    code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.S)
    return re.sub(r"//[^\n]*", "", code)


def is_code(block: str) -> bool:
    """False for the result listings some pages put in cpp fences (text outside comments, no statements)."""
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', strip_comments(block))
    return not _CJK.search(text) and (";" in text or "{" in text)


def classify(code: str) -> str:
    """'program' when a brace opens at file scope after ``)`` (a function) or a class/struct/namespace
    head; 'fragment' otherwise."""
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', strip_comments(code))
    depth = 0
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0:
                before = text[:i].rstrip()
                line = before[max(before.rfind(";"), before.rfind("}")) + 1:]
                control = re.match(r"\s*(if|for|while|switch|else|do)\b", line)
                if (before.endswith((")", "const", "override", "noexcept")) and not control) or re.search(
                        r"\b(class|struct|namespace|union|enum)\b[^=;()]*$", line):
                    return "program"
            depth += 1
        elif c == "}":
            depth -= 1
    return "fragment"


def in_scope_pages(catalog: dict) -> dict[str, dict]:
    """page -> {'family', 'names'} of the in-scope catalog entries."""
    out: dict[str, dict] = {}
    for e in catalog["entries"]:
        if not e["in_scope"]:
            continue
        for p in e["pages"]:
            info = out.setdefault(p, {"family": e["family"], "names": []})
            info["names"].append(e["name"])
    return out


# ---------------------------------------------------------------- typing the undeclared names

@dataclass
class PageFacts:
    protos: list[str]
    dtype: str
    reg: bool
    capi: bool = False


def page_facts(text: str, family: str) -> PageFacts:
    secs = pages.sections(text)
    found = pages.dtypes(secs)
    dtype = next((d for d in ("float", "half", "int32_t") if d in found), None) or (
        found[0] if found and not found[0].startswith(("b", "int4", "fp4", "complex")) else "float")
    return PageFacts(pages.page_prototypes(secs), dtype, "Reg" in family, family.startswith("C-API"))


def split_top(s: str, sep: str = ",") -> list[str]:
    out, depth, cur = [], 0, []
    for c in s:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        out.append("".join(cur))
    return [x.strip() for x in out]


def _matching(s: str, i: int) -> int:
    depth = 0
    for j in range(i, len(s)):
        depth += {"(": 1, ")": -1}.get(s[j], 0)
        if depth == 0:
            return j
    return -1


def template_params(decl: str) -> list[tuple[str, str, str]]:
    """[(kind, name, default)] of the ``template <...>`` clause: kind is 'type' or the value's type."""
    if not decl.startswith("template"):
        return []
    clause = decl[: len(decl) - len(pages.untemplated(decl))].strip()
    inner = clause[clause.find("<") + 1: clause.rfind(">")]
    out = []
    for p in split_top(inner):
        default = p.split("=", 1)[1].strip() if "=" in p else ""
        head = p.split("=", 1)[0].strip()
        m = re.match(r"^(typename|class)\s*(?:\.\.\.)?\s*(\w*)$", head)
        if m:
            out.append(("type", m.group(2), default))
            continue
        m = re.match(r"^(.*?)(\w+)$", head)
        if m:
            out.append((m.group(1).strip(), m.group(2), default))
    return out


def proto_params(decl: str) -> tuple[str, list[tuple[str, str, str]], list[tuple[str, str, bool]]] | None:
    """(name, template parameters, [(type, name, has_default)]) of a function prototype."""
    named = pages.decl_name(decl)
    if not named or named[1] != "function":
        return None
    tparams = template_params(decl)
    body = pages.untemplated(decl)
    lp = pages._top_paren(body)
    rp = _matching(body, lp)
    if lp < 0 or rp < 0:
        return None
    params = []
    for p in split_top(body[lp + 1:rp]):
        if not p or p == "void":
            continue
        default = "=" in p
        p = p.split("=", 1)[0].strip()
        m = re.match(r"^(.*?)(\w+)\s*(\[\s*\d*\s*\])?$", p)
        if not m or not m.group(1).strip():
            params.append((p, "", default))
            continue
        params.append((m.group(1).strip() + ("[]" if m.group(3) else ""), m.group(2), default))
    return named[0], tparams, params


def declare_from_type(ptype: str, subst: dict[str, str], name: str) -> str | None:
    t = ptype
    for tp, arg in subst.items():
        t = re.sub(rf"\b{tp}\b", arg, t)
    t = re.sub(r"\b(const|volatile)\b", "", t).replace("&&", "").replace("&", "").strip()
    t = re.sub(r"\s+", " ", t)
    if not t or re.search(r"\.\.\.|\bauto\b", t):
        return None
    if t.endswith("[]"):
        return f"{t[:-2].strip()} {name}[2] = {{}};"
    if t.endswith("*"):
        return f"{t} {name} = nullptr;"
    if re.fullmatch(r"(unsigned |signed )?\w+", t) and not t[0].isupper():
        return f"{t} {name}{{}};"
    return f"{t} {name};"


def _calls_with(code: str, var: str):
    """(callee, explicit template arguments, argument index or -1 - template argument index, argument
    count) of every call that passes ``var`` as a whole argument or template argument."""
    for m in re.finditer(r"([A-Za-z_]\w*)\s*(?:<([^;(){}]*?)>)?\s*\(", code):
        lp = m.end() - 1
        rp = _matching(code, lp)
        if rp < 0:
            continue
        targs = split_top(m.group(2)) if m.group(2) else []
        args = split_top(code[lp + 1:rp])
        for k, a in enumerate(args):
            if re.fullmatch(rf"&?\s*{var}", a):
                yield m.group(1), targs, k, len(args)
        for k, a in enumerate(targs):
            if a == var:
                yield m.group(1), targs, -1 - k, len(args)


def type_from_calls(code: str, var: str, facts: PageFacts) -> str | None:
    """The declaration the prototypes give ``var``: the first candidate that agrees with the name's own hint
    (a ``xxxLocal`` passed where one overload takes a scalar is still a tensor)."""
    found = list(_call_candidates(code, var, facts))
    as_targ = [d for d in found if d.startswith(("using ", "static constexpr "))]
    if as_targ:
        return as_targ[0]
    if facts.capi:
        elt = capi_element(code)
        fit = [d for d in found if elt and re.search(rf"\b{elt}\b", d)]
        space = "__gm__" if re.search(r"(?i)gm|addr|global", var) else "__ubuf__"
        return (fit or found or [None])[0] or f"{space} {elt or facts.dtype}* {var} = nullptr;"
    hint = type_from_name(var, facts) or ""
    tensorish = "Tensor<" in hint or re.search(rf"\b{var}\s*\[", code)
    for decl in found:
        if not tensorish or re.search(r"Tensor\w*<|\[", decl.split(var)[0]):
            return decl
    return hint or (found[0] if found else None)


def capi_element(code: str) -> str | None:
    """The element type of the first C-API vector register the block declares (``vector_half`` -> half)."""
    m = re.search(r"\bvector_(?!bool\b)(\w+)\s+\w+", code)
    if not m:
        return None
    elt = m.group(1)
    return elt if elt in ("half", "float") or elt.endswith("_t") else None


def _call_candidates(code: str, var: str, facts: PageFacts):
    for callee, targs, k, n in _calls_with(code, var):
        for decl in facts.protos:
            parsed = proto_params(decl)
            if not parsed or parsed[0] != callee:
                continue
            _, tparams, params = parsed
            subst = {name: facts.dtype for kind, name, _ in tparams if kind == "type"}
            for (kind, name, _), arg in zip(tparams, targs):
                if kind == "type" and arg != var:
                    subst[name] = arg
            if k < 0:
                if -1 - k < len(tparams):
                    out = declare_template_arg(tparams[-1 - k], subst, var)
                    if out:
                        yield out
                continue
            required = sum(1 for p in params if not p[2])
            if required <= n <= len(params) and params[k][0]:
                out = declare_from_type(params[k][0], subst, var)
                if out:
                    yield out


def declare_template_arg(tparam: tuple[str, str, str], subst: dict[str, str], var: str) -> str | None:
    """A type alias (``using srcType = half;``) or a constant usable as the template argument."""
    kind, name, default = tparam
    if kind == "type":
        return f"using {var} = {subst.get(name, 'float')};"
    t = re.sub(r"\b(const|constexpr)\b", "", kind).replace("&", "").strip()
    if not t or t == "auto":
        return None
    return f"static constexpr {t} {var} = {default or t + '{}'};"


_NAME_RULES = (
    (r"(?i)(gm|global)\w*$|^\w*(Gm|GM|Global)$", "AscendC::GlobalTensor<{t}> {n};"),
    (r"^\w*(TBuf|tbuf|Buf)$", "AscendC::TBuf<AscendC::TPosition::VECCALC> {n};"),
    (r"(?i)^\w*(count|cnt|len|length|size|num|repeat\w*|offset|idx|index|stride|mask|times?)$|^[ijknm]$",
     "uint32_t {n} = 1;"),
    (r"(?i)^\w*(scalar|value|val|alpha|beta)$", "{t} {n}{{}};"),
    (r"^\w*(Local|Tensor|Tensors|Buffer|LocalTensor)$|^(dst|src|tmp|sharedTmp)\w*$", "AscendC::LocalTensor<{t}> {n};"),
    (r"^\w*(Reg|reg)\d*$|^vreg\w*$", "AscendC::Reg::RegTensor<{t}> {n};"),
    (r"^(pipe|tpipe)$", "AscendC::TPipe {n};"),
    (r"^\w*(Que|Queue|que)\w*$", "AscendC::TQue<AscendC::TPosition::VECIN, 1> {n};"),
    (r"(?i)^\w*addr$", "__gm__ uint8_t* {n} = nullptr;"),
)


def type_from_name(var: str, facts: PageFacts) -> str | None:
    if facts.reg and re.fullmatch(r"(?i)\w*mask\w*|preg\w*|p\d*", var):
        return f"AscendC::Reg::MaskReg {var};"
    if facts.reg and re.fullmatch(r"(dst|src)\w*", var) and not re.search(r"(Local|Tensor)$", var):
        return f"__ubuf__ {facts.dtype}* {var} = nullptr;"       # the Reg API loads and stores through UB pointers
    for pattern, decl in _NAME_RULES:
        if re.search(pattern, var):
            return decl.format(t=facts.dtype, n=var)
    return None


# ---------------------------------------------------------------- building and compiling a unit

def unit_text(ex: Example) -> str:
    body = ex.code
    includes = [ln for ln in body.splitlines() if ln.strip().startswith("#include")]
    body = "\n".join(ln for ln in body.splitlines() if not ln.strip().startswith("#include"))
    if ex.family.startswith("C-API"):
        head = ['#include "c_api/asc_simd.h"', *includes]
    else:
        head = ['#include "kernel_operator.h"', *includes, "using namespace AscendC;"]
    # type aliases and constants first: a member declared later may name them (LocalTensor<T>)
    decls = "\n".join(sorted(ex.declared.values(), key=lambda d: not d.startswith(("using ", "static constexpr"))))
    if ex.kind == "program":
        return "\n".join([*head, decls, body, ""])
    # a member function, so that a fragment written inside a class (``this->x``) and the declarations
    # (members: a fragment may redeclare them locally) both work. The fragment's constexpr objects go to
    # file scope: the pages pass them as reference template arguments, which a local cannot be.
    consts = [ln for ln in body.splitlines() if _CONSTEXPR.match(ln)]
    body = "\n".join(ln for ln in body.splitlines() if not _CONSTEXPR.match(ln))
    return "\n".join([*head, *consts, "struct __ApiExample {", decls, "__aicore__ inline void Run()", "{", body,
                      "}", "};", ""])


class Compiler:
    def __init__(self, work: Path):
        self.cxx = find_compiler()
        self.work = work
        self.pch = work / "pch"
        self.pch.mkdir(parents=True, exist_ok=True)
        self.flags = ["-std=c++20", "-w", "-fsyntax-only"]
        for header in ("kernel_operator.h", "c_api/asc_simd.h"):
            (self.pch / header).parent.mkdir(parents=True, exist_ok=True)
            (self.pch / header).symlink_to(INCLUDE / header)   # a second include of it finds the header
            subprocess.run([*self.cxx, "-std=c++20", "-w", "-x", "c++-header", "-I", str(INCLUDE),
                            str(INCLUDE / header), "-o", str(self.pch / f"{header}.gch")], check=True)

    def check(self, text: str, tag: str) -> tuple[int, str]:
        src = self.work / f"{tag}.cpp"
        src.write_text(rewrite(text, str(src)).text, encoding="utf-8")
        env = dict(os.environ, LC_ALL="C", LANG="C")
        r = subprocess.run([*self.cxx, *self.flags, "-I", str(self.pch), "-I", str(INCLUDE), str(src)],
                           capture_output=True, text=True, env=env, timeout=300)
        return r.returncode, r.stderr


def run_example(ex: Example, facts: PageFacts, names: tuple[set[str], set[str]], cc: Compiler, tag: str) -> Example:
    """Compile ``ex``, declaring what it leaves undeclared round by round; its status and first error.
    ``names``: (the in-scope API names, the names only out of scope, the names with an out-of-scope entry)."""
    api_names, outside, partly = names
    m = _DTYPE_ARG.search(strip_comments(ex.code))
    if m:
        facts = replace(facts, dtype=m.group(1))
    untyped: set[str] = set()
    for _ in range(ROUNDS):
        code, err = cc.check(unit_text(ex), tag)
        if code == 0:
            ex.status = "compiled"
            return ex
        errors = [(m.group("loc"), m.group("msg")) for m in _ERR.finditer(err)]
        new = False
        for _, msg in errors:
            m = _UNDECL.search(msg)
            var = m and (m.group(1) or m.group(2))
            if not var or var in api_names or var in ex.declared or var in untyped:
                continue
            called = re.search(rf"(?<![\w.]){var}\s*\(", strip_comments(ex.code))
            decl = None if called or var in outside else type_from_calls(ex.code, var, facts)
            if decl and ("was not declared" in msg or "has no member" in msg):
                ex.declared[var] = decl
                new = True
            else:
                untyped.add(var)
        if not new:
            break
    ex.undeclared = sorted(untyped)
    named = set(_NAMED.findall(err))
    # a callee no overload fits that has forms out of scope too (asc_add: the Reg form in scope, the
    # pointer form not on 950) counts as out of scope
    used_outside = sorted({a for a, _ in named if a in outside} | {b for _, b in named if b in partly}
                          | (untyped & FRAMEWORK))
    ex.status = "undeclared" if untyped - set(used_outside) else "out-of-scope" if used_outside else "failed-ours"
    ex.undeclared = sorted(untyped | set(used_outside))
    ex.error = first_error(errors, untyped)
    return ex


def first_error(errors: list[tuple[str, str]], untyped: set[str]) -> str:
    for loc, msg in errors:
        m = _UNDECL.search(msg)
        if m and (m.group(1) or m.group(2)) in untyped:
            continue
        return f"{Path(loc.split(':')[0]).name}:{':'.join(loc.split(':')[1:2])}: {msg}"
    return errors[0][1] if errors else "(no error line)"


# ---------------------------------------------------------------- the run

def collect(ref: Path, fam: str | None, page: str | None) -> list[tuple[Example, PageFacts]]:
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
    out = []
    for rel, info in sorted(in_scope_pages(catalog).items()):
        if (fam and fam not in info["family"]) or (page and page not in rel):
            continue
        path = ref / rel
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        facts = page_facts(text, info["family"])
        for k, block in enumerate(example_blocks(text)):
            if not is_code(block):
                continue
            out.append((Example(rel, info["family"], k, classify(block), block), facts))
    return out


def table(results: list[Example]) -> str:
    by = defaultdict(Counter)
    for ex in results:
        by[ex.family][ex.status] += 1
    cols = ("compiled", "failed-ours", "undeclared", "out-of-scope")
    lines = [f"{'family':<28} {'blocks':>6} " + " ".join(f"{c:>11}" for c in cols)]
    for famname in sorted(by):
        c = by[famname]
        lines.append(f"{famname:<28} {sum(c.values()):>6} " + " ".join(f"{c[k]:>11}" for k in cols))
    tot = Counter(ex.status for ex in results)
    lines.append(f"{'total':<28} {len(results):>6} " + " ".join(f"{tot[k]:>11}" for k in cols))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference", type=Path)
    ap.add_argument("--json", type=Path, help="write every example's result here")
    ap.add_argument("--family", help="only families containing this text")
    ap.add_argument("--page", help="only pages whose path contains this text")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--errors", action="store_true", help="print the first error of every failure")
    args = ap.parse_args(argv)
    todo = collect(args.reference, args.family, args.page)
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
    def short(entries):
        return {n for e in entries for n in (e["name"], e["name"].split("::")[-1])}
    api_names = short(e for e in catalog["entries"] if e["in_scope"])
    partly = short(e for e in catalog["entries"] if not e["in_scope"])
    names = (api_names, partly - api_names, partly)
    with tempfile.TemporaryDirectory(prefix="api-examples-") as tmp:
        cc = Compiler(Path(tmp))
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda it: run_example(it[1][0], it[1][1], names, cc, f"u{it[0]}"),
                                    enumerate(todo)))
    print(table(results))
    if args.errors:
        for ex in results:
            if ex.status == "failed-ours":
                print(f"{ex.page}#{ex.index} [{ex.kind}]: {ex.error}")
    if args.json:
        args.json.write_text(json.dumps({"table": table(results), "examples": [asdict(e) for e in results]},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
