"""Reading one page of the vendor's API reference (Markdown, one page per API) into plain facts.

Used by ``scripts/gen_api_catalog.py`` only (the toolkit reads the generated catalog, never the reference).
A page has ``## `` sections: the product-support list (产品支持情况), the description (功能说明, which
often names the header), the prototypes (函数原型, or 原型定义 / 定义原型 for types) in code fences, the
parameter tables and a data-type section (数据类型) that state the dtypes. Written by hand because the
pages are loosely structured Markdown with HTML fragments that no Markdown library turns into these facts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

SUPPORT_HEADING = "产品支持情况"
PROTOTYPE_HEADINGS = ("函数原型", "原型定义", "定义原型", "模板参数", "结构体具体定义", "枚举类具体定义")
PRODUCT_950 = "Ascend 950PR/Ascend 950DT"
YES, NO, NOT_STATED = "yes", "no", "not stated"

#: the element types a page may name (the reference's spelling), in a stable report order
DTYPES = ("bool", "int4b_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
          "uint64_t", "hifloat8_t", "fp8_e5m2_t", "fp8_e4m3fn_t", "fp8_e8m0_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t",
          "half", "bfloat16_t", "float", "double", "complex32", "complex64", "b8", "b16", "b32", "b64")
_DTYPE_RE = re.compile(r"(?<![\w.])(" + "|".join(sorted(DTYPES, key=len, reverse=True)) + r")(?![\w.])")
_OTHER_PRODUCT = re.compile(r"Atlas|Kirin")
_ANCHOR = re.compile(r"<a (?:name|id)=\"[^\"]*\"></a>")
_HEADER_RE = re.compile(r"头文件(?:引用)?路径(?:为)?\s*[：:]?\s*`?\"?([\w/.\-]+\.h)\b")
_INCLUDE_RE = re.compile(r"#include\s*[\"<]([\w/.\-]+\.h)[\">]")
_FENCE = re.compile(r"^\s*```")


@dataclass
class Page:
    """The facts of one reference page (``path`` relative to the reference root)."""
    path: str
    title: str
    support: str                                  # YES / NO / NOT_STATED for Ascend 950
    header: str | None
    prototypes: list[str] = field(default_factory=list)
    dtypes: list[str] = field(default_factory=list)
    title_names: list[str] = field(default_factory=list)   # what the page names when it has no prototypes

    @property
    def is_api(self) -> bool:
        """A page that documents an API (has a support list or prototypes), not an index or overview."""
        return self.support != NOT_STATED or bool(self.prototypes)


def clean(text: str) -> str:
    """Drop the HTML anchors and Markdown escapes (``int64\\_t``) the pages carry."""
    return _ANCHOR.sub("", text).replace("\\_", "_").replace("\\*", "*").replace("\\[", "[").replace("\\]", "]")


def title(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return clean(line[2:]).strip()
    return ""


def sections(text: str) -> dict[str, str]:
    """The ``## `` sections of a page by heading (anchors removed, first occurrence wins)."""
    out: dict[str, str] = {}
    head, body = None, []
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and line.startswith("## "):
            if head is not None and head not in out:
                out[head] = "\n".join(body)
            head, body = clean(line[3:]).strip(), []
        elif head is not None:
            body.append(line)
    if head is not None and head not in out:
        out[head] = "\n".join(body)
    return out


def support_950(secs: dict[str, str]) -> str:
    """What the support list says about Ascend 950: yes (for at least one of the groups of forms a list
    may be split into), no, or not stated (no list / no 950 line)."""
    body = secs.get(SUPPORT_HEADING)
    if body is None:
        return NOT_STATED
    said = set()
    for line in body.splitlines():
        if PRODUCT_950 in line:
            verdict = line.split(PRODUCT_950, 1)[1]
            said.add(NO if "不支持" in verdict else YES if "支持" in verdict else NOT_STATED)
    return YES if YES in said else NO if NO in said else NOT_STATED


def header(text: str, secs: dict[str, str]) -> str | None:
    """The include a page names (``头文件路径为："basic_api/..."``, or a 需要包含的头文件 section)."""
    m = _HEADER_RE.search(clean(text))
    if m:
        return m.group(1)
    for head, body in secs.items():
        if "头文件" in head:
            m = _INCLUDE_RE.search(body)
            if m:
                return m.group(1)
    return None


def code_blocks(body: str) -> list[str]:
    """The fenced code blocks of a section body (indented fences too)."""
    blocks, cur, inside = [], [], False
    for line in body.splitlines():
        if _FENCE.match(line):
            if inside:
                blocks.append("\n".join(cur))
                cur = []
            inside = not inside
        elif inside:
            cur.append(line)
    return blocks


def page_prototypes(secs: dict[str, str]) -> list[str]:
    """Every declaration of the prototype sections, normalised (see :func:`declarations`)."""
    out: list[str] = []
    for head in PROTOTYPE_HEADINGS:
        for block in code_blocks(secs.get(head, "")):
            for decl in declarations(block):
                if decl not in out:
                    out.append(decl)
    return out


def dtypes(secs: dict[str, str]) -> list[str]:
    """The element types the page states: the 数据类型 section and every 'supported types' sentence,
    skipping sentences that are about another product only."""
    found: set[str] = set()
    for head, body in secs.items():
        if head in (SUPPORT_HEADING, "调用示例") or head in PROTOTYPE_HEADINGS:
            continue
        whole = head == "数据类型"
        for line in clean(_strip_code(body)).splitlines():
            if not (whole or "数据类型" in line):
                continue
            if _OTHER_PRODUCT.search(line) and PRODUCT_950 not in line:
                continue
            found.update(_DTYPE_RE.findall(line))
    return [t for t in DTYPES if t in found]


def _strip_code(body: str) -> str:
    out, inside = [], False
    for line in body.splitlines():
        if _FENCE.match(line):
            inside = not inside
        elif not inside:
            out.append(line)
    return "\n".join(out)


_C_TYPE_NAMES = re.compile(r"\b(vector_[a-z0-9_]+|addr_reg)\b")


def title_names(path: str, head: str, text: str) -> list[str]:
    """The identifiers of a page's title (``UnalignRegForLoad & UnalignRegForStore``); for a C-API page
    whose title has none (a page of register types), the register type names it lists."""
    idents = re.findall(r"(?<!\w)[A-Za-z_][A-Za-z0-9_]*(?!\w)", head)    # not the "reg" of "reg数据类型"
    if not idents and path.startswith("C-API"):
        idents = sorted(set(_C_TYPE_NAMES.findall(text)))
    return idents


def own_name(head: str) -> str | None:
    """The identifier a page's title is, if it is one (``PipeBarrier(ISASI)`` -> ``PipeBarrier``)."""
    bare = re.sub(r"[（(]ISASI[)）]", "", head).strip()
    return bare if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", bare) else None


def read_page(path: str, text: str) -> Page:
    secs = sections(text)
    head = title(text)
    protos = page_prototypes(secs)
    name = own_name(head)
    if not secs and name:         # a bare definition page (an enum or struct): its code declares the title
        protos = [d for b in code_blocks(text) for d in declarations(b) if (decl_name(d) or ("",))[0] == name]
    return Page(path=path, title=head, support=support_950(secs), header=header(text, secs),
                prototypes=protos, dtypes=dtypes(secs), title_names=title_names(path, head, text))


_INDEX_ROW = re.compile(r"^\|\s*\[([^\]]+)\]\(([^)#\s]+\.md)(?:#[^)]*)?\)\s*\|")


def index_links(text: str) -> list[tuple[str, str]]:
    """(title, link) of the rows of an index page's tables (``| [Add](path/Add.md) | ... |``)."""
    return [(clean(m.group(1)), m.group(2)) for line in text.splitlines() if (m := _INDEX_ROW.match(line.strip()))]


# -- declarations -----------------------------------------------------------------------------------
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_DROP_WORDS = re.compile(r"\b(?:__aicore__|__inline__|inline|__simd_callee__|__host_aicore__)\s+")
_ATTRIBUTE = re.compile(r"\b__inout_pipe__\([^)]*\)")     # an annotation written before a member's return type
_TEMPLATE_ONLY = re.compile(r"^template\s*<.*>$")


def declarations(block: str) -> list[str]:
    """Split a prototype code block into its declarations, each on one line with single spaces, without
    comments, trailing ``;``, bodies or the qualifiers that do not change a form (``__aicore__``,
    ``inline``, ``__simd_callee__``). A ``template <...>`` line joins the declaration after it."""
    text = _ATTRIBUTE.sub("", _COMMENT.sub("", block))
    out: list[str] = []
    cur: list[str] = []
    body_depth = 0
    for raw in text.splitlines():
        line = raw.strip()
        if body_depth or (line.startswith("{") and not cur and out):
            body_depth += line.count("{") - line.count("}")   # a body shown under the prototype: dropped
            continue
        if not line:
            continue
        cur.append(line)
        joined = " ".join(cur)
        if _complete(joined):
            out.append(normalise(joined))
            cur = []
    if cur:
        out.append(normalise(" ".join(cur)))
    return [d for d in out if d]


def _complete(s: str) -> bool:
    if s.startswith("#"):
        return not s.endswith("\\")
    if _TEMPLATE_ONLY.match(s) and _balanced(s, "<", ">"):
        return False
    if not (_balanced(s, "(", ")") and _balanced(s, "{", "}")):
        return False
    if s.endswith((",", "(", "<", "::", "=")):
        return False
    return "(" in s or s.endswith((";", "}")) or bool(re.match(r"^(struct|class|union|enum|using|typedef)\b", s))


def _balanced(s: str, a: str, b: str) -> bool:
    return s.count(a) <= s.count(b)


def normalise(decl: str) -> str:
    s = re.sub(r"\s+", " ", decl).strip()
    s = _DROP_WORDS.sub("", s)
    s = re.sub(r"\s*;\s*$", "", s)
    s = re.sub(r"\(\s+", "(", s)
    s = re.sub(r"\s+([),])", r"\1", s)
    s = re.sub(r",(?=\S)", ", ", s)
    s = re.sub(r"\s*(&&|&|\*)\s*(?=[\w.(])", r"\1 ", s)
    s = re.sub(r"\s+(&&|&|\*)(?=[\s,)>])", r"\1", s)
    if re.search(r"\)\s*(const\s*)?\{.*\}$", s) and not re.match(r"^(struct|class|union|enum)\b", untemplated(s)):
        s = s[:s.index("{", s.rindex(")"))].rstrip()     # a body given with the prototype
    return s.strip()


def untemplated(decl: str) -> str:
    """The declaration without its leading ``template <...>`` clause."""
    if not decl.startswith("template"):
        return decl
    depth, i = 0, decl.find("<")
    if i < 0:
        return decl
    for j in range(i, len(decl)):
        if decl[j] == "<":
            depth += 1
        elif decl[j] == ">":
            depth -= 1
            if depth == 0:
                return decl[j + 1:].strip()
    return decl


_NOT_NAMES = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_cast", "reinterpret_cast"}
_TYPE_DECL = re.compile(r"^(?:struct|class|union|enum(?:\s+class)?)\s+(?:alignas\([^)]*\)\s+)?([A-Za-z_]\w*)")
_USING = re.compile(r"^using\s+([A-Za-z_]\w*)\s*=")
_DEFINE = re.compile(r"^#\s*define\s+([A-Za-z_]\w*)")


def decl_name(decl: str) -> tuple[str, str] | None:
    """(name, kind) of a normalised declaration: kind is ``function``, ``type`` or ``macro``; None for
    what is not a declaration (an expression form such as ``dst = src0 + src1``)."""
    m = _DEFINE.match(decl)
    if m:
        return m.group(1), "macro"
    body = untemplated(decl)
    m = _TYPE_DECL.match(body) or _USING.match(body)
    if m and "(" not in body.split("{", 1)[0]:
        return m.group(1), "type"
    if m and body.startswith(("struct", "class", "union", "enum")):
        return m.group(1), "type"
    body = re.sub(r"\b(decltype|alignas|noexcept)\s*\([^()]*\)", r"\1_", body)
    paren = _top_paren(body)
    if paren < 0:
        return None
    head = _drop_template_args(body[:paren].rstrip())
    if "=" in head.replace("operator=", "").replace("operator==", ""):
        return None
    m = re.search(r"(operator\s*(?:\(\)|\[\]|[^\w\s(]+)|~?[A-Za-z_]\w*)\s*$", head)
    if not m:
        return None
    name = re.sub(r"\s+", "", m.group(1))
    if name in _NOT_NAMES:
        return None
    return name, "function"


def _drop_template_args(head: str) -> str:
    """``LocalTensor<T>`` -> ``LocalTensor`` (a constructor written with its class's arguments)."""
    if not head.endswith(">") or head.endswith("operator>"):
        return head
    depth = 0
    for j in range(len(head) - 1, -1, -1):
        depth += {">": 1, "<": -1}.get(head[j], 0)
        if depth == 0:
            return head[:j].rstrip()
    return head


def _top_paren(s: str) -> int:
    """Index of the first ``(`` outside template angle brackets (``operator()`` counts as the name)."""
    depth = 0
    i = 0
    while i < len(s):
        c = s[i]
        if s.startswith("operator()", i):
            i += len("operator()")
            continue
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif c == "(" and depth == 0:
            return i
        i += 1
    return -1
