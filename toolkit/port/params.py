"""The parameters of a generated VF and the arguments its call site passes: one ``__ubuf__`` pointer per
array the VF loads or stores (the call site's tensor plus its byte offset), one integer per name its
strides, row count and lengths use, one float per scalar from outside the region, and the trip counts
of its loops (``uint16_t``, computed at the call site as the vendor samples do).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .expr import Arr, Param
from .poly import Poly
from .scope import PortError, Root, elem_size


@dataclass
class VfParam:
    ctype: str
    name: str
    arg: str            #: the call-site expression


@dataclass
class Params:
    template: bool                        #: the call site is in a template (``.template Get``)
    params: list[VfParam] = field(default_factory=list)
    ptrs: dict[tuple, str] = field(default_factory=dict)
    atoms: dict[str, str] = field(default_factory=dict)
    scalars: dict[str, str] = field(default_factory=dict)
    loops: dict[str, str] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)

    def _unique(self, base: str) -> str:
        name, k = base, 1
        while name in self.taken or name in _RESERVED:
            name = f"{base}{k}"
            k += 1
        self.taken.add(name)
        return name

    def pointer(self, arr: Arr, dtype: str) -> str:
        key = (arr.root, arr.base, dtype)
        if key in self.ptrs:
            return self.ptrs[key]
        size = elem_size(dtype)
        off = arr.base.div(size)
        if off is None:
            raise PortError(f"'{arr.root.name}' + {arr.base} B is not a whole number of {dtype} elements")
        name = self._unique(_short(arr.root.name) + "Addr")
        base = _root_expr(arr.root, dtype, self.template)
        arg = f"(__ubuf__ {dtype}*){base}" + ("" if off == Poly() else f" + ({self.cpp(off, call_site=True)})")
        self.params.append(VfParam(f"__ubuf__ {dtype}*", name, arg))
        self.ptrs[key] = name
        return name

    def atom(self, text: str) -> str:
        if text not in self.atoms:
            name = self._unique(_short(re.sub(r"\W+", "_", text.split(".")[-1].split(">")[-1])) or "n")
            self.atoms[text] = name
            self.params.append(VfParam("uint32_t", name, text))
        return self.atoms[text]

    def cpp(self, p: Poly, call_site: bool = False) -> str:
        """``p`` as C++: at the call site with the kernel's own names, inside the VF with parameters."""
        if call_site:
            return p.cpp()
        return p.cpp({a: self.atom(a) for a in p.atoms()})

    def scalar(self, prm: Param) -> str:
        if prm.text not in self.scalars:
            m = re.findall(r"[A-Za-z_]\w*", prm.text)
            base = _short(m[-1]) if m else "s"
            name = self._unique(base if len(m) == 1 or prm.text.replace(" ", "").lstrip("-(").rstrip(")") == m[-1]
                                else base)
            self.scalars[prm.text] = name
            self.params.append(VfParam(prm.dtype, name, prm.text))
        return self.scalars[prm.text]

    def loop_count(self, width: Poly, lanes: int) -> str:
        key = f"{width.cpp()}/{lanes}"
        if key not in self.loops:
            name = self._unique("loopNum")
            self.loops[key] = name
            self.params.append(VfParam("uint16_t", name,
                                       f"static_cast<uint16_t>(({width.cpp()} + {lanes - 1}) / {lanes})"))
        return self.loops[key]

    def loop_part(self, width: Poly, step: int, part: str, lanes: int = 0) -> str:
        """Trip counts of a loop over pairs of chunks: ``pairs`` = W / step, ``tail`` = the one chunk left."""
        key = f"{width.cpp()}/{step}/{part}"
        if key not in self.loops:
            name = self._unique("pairLoop" if part == "pairs" else "tailLoop")
            self.loops[key] = name
            w = width.cpp()
            arg = (f"static_cast<uint16_t>(({w}) / {step})" if part == "pairs"
                   else f"static_cast<uint16_t>((({w}) % {step} + {lanes - 1}) / {lanes})")
            self.params.append(VfParam("uint16_t", name, arg))
        return self.loops[key]

    def rows(self, R: Poly) -> str:
        v = R.int_value()
        if v is not None:
            return str(v)
        name = self._unique("rows")
        self.params.append(VfParam("uint16_t", name, f"static_cast<uint16_t>({R.cpp()})"))
        return name


_RESERVED = {"r", "i", "mask", "fullMask", "oneMask", "float", "half"}


def _short(name: str) -> str:
    name = name.replace("this->", "")
    name = name.strip("_") or name
    return name[0].lower() + name[1:] if name else "v"


def _root_expr(root: Root, dtype: str, template: bool) -> str:
    if root.kind == "tbuf":
        t = ".template " if template else "."
        return f"{root.name}{t}Get<{dtype}>().GetPhyAddr()"
    return f"{root.name}.GetPhyAddr()"
