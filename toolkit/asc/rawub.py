"""Which VF bodies touch UB through a raw ``__ubuf__`` pointer (or print, or read the core's index), from
the tokens of the source.

Two mechanisms of the ``.asc`` route run a VF body's C++ fewer times than the hardware would: lock-step
runs one body for a group of cores with equal parameters (the others skip it: ``hooks.vf_begin_hook``),
and a recorded hardware loop defers its calls to the loop's end (``loopdefer``). Both are exact for the
API calls, which see every core and iteration; C++ that reads or writes UB itself (``x[i]``, ``*p``,
``*(p + k)``, a subscripted cast, ``LocalTensor::GetValue`` / ``SetValue`` / ``Print``: SIMD_VF functions
may, ordered by ``LocalMemBar<..., SCALAR_*>``), prints or reads ``GetBlockIdx()`` (the names:
``toolkit.ascendc.percore``) would run once for the group, or before the deferred stores. Such a VF is
made unkeyable (each core runs its own body) and its loops are not recorded. A callee
(``__simd_callee__``) of the same file with such access counts for every VF naming it; a helper of
another kind receiving a ``__ubuf__`` pointer is not looked into (noted as a limit).

Why by hand: the rewrite is token based (it runs before the compiler, without the kernel headers);
libclang would need them to type the expressions.
"""
from __future__ import annotations

from toolkit.ascendc.percore import CORE_NAMES, PRINT_NAMES, SCALAR_METHODS

from .lexer import IDENT, Token, match_forward

#: calls whose output or value is per core (printed or read once for a group otherwise); the C++ asserts too
_PER_CORE_CALLS = PRINT_NAMES | CORE_NAMES | {"assert", "ascendc_assert"}
#: tokens after which a ``*`` is unary (a dereference), not a multiplication
_UNARY_AFTER = frozenset({"(", "[", "{", "}", ";", ",", "=", "return", "+", "-", "*", "/", "%", "!", "~",
                          "&&", "||", "?", ":", "<", ">", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/="})


def ub_pointers(toks: list[Token], begin: int, end: int) -> set[str]:
    """Names declared as ``__ubuf__`` pointers in ``toks[begin:end]`` (parameters and locals)."""
    names: set[str] = set()
    i = begin
    while i < end:
        if toks[i].text == "__ubuf__":
            j = i + 1
            while j < end and toks[j].text not in (";", ",", ")", "=", "(", "{"):
                j += 1
            if j - 1 > i and toks[j - 1].kind == IDENT and any(t.text == "*" for t in toks[i:j - 1]):
                names.add(toks[j - 1].text)
            i = j
        else:
            i += 1
    return names


def touches_ub(toks: list[Token], lp: int, body: int, end: int, flagged_callees: set[str] = frozenset()) -> bool:
    """Whether the function with parameters ``toks[lp]`` .. and body ``toks[body:end]`` reads or writes
    UB through a pointer, prints, or names a callee in ``flagged_callees``."""
    names = ub_pointers(toks, lp, end)
    for i in range(body + 1, end):
        t = toks[i]
        if t.text in _PER_CORE_CALLS or t.text in flagged_callees:
            return True
        if t.text in SCALAR_METHODS and toks[i - 1].text in (".", "->") and toks[i + 1].text == "(":
            return True                              # LocalTensor::GetValue / SetValue / Print
        nxt = toks[i + 1].text if i + 1 < end else ""
        if t.kind == IDENT and t.text in names and (nxt == "[" or _deref_before(toks, i)):
            return True
        if t.text == "(" and i + 1 < end:
            close = match_forward(toks, i)
            inner = {x.text for x in toks[i + 1:close]}
            if (inner & names or "__ubuf__" in inner) and (
                    (close + 1 < end and toks[close + 1].text == "[") or _deref_before(toks, i)):
                return True
    return False


def _deref_before(toks: list[Token], i: int) -> bool:
    """Whether ``toks[i]`` is preceded by a unary ``*``."""
    return i >= 2 and toks[i - 1].text == "*" and toks[i - 2].text in _UNARY_AFTER


__all__ = ["touches_ub", "ub_pointers"]
