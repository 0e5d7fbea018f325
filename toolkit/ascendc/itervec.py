"""The index of a hardware loop run as one array operation: :class:`Iv`, one value per iteration.

A batched hardware loop (``toolkit.ascendc.regbase.loopbatch``) runs its body once with the loop
variable bound to an :class:`Iv`: integer arithmetic on it (``i * 64``, ``i % 5``, ``i // 5``, pointer
``p + i``) gives another :class:`Iv`, so every address and count the body computes is known for every
iteration at once, exactly. Anything that needs one Python value (``if i == 0``, ``range(i)``, ``int(i)``,
a dict key) raises :class:`NotBatchable`: the loop then runs iteration by iteration, as before.

Written by hand: numpy arrays would silently turn ``bool(i == 0)`` into an error of the wrong kind or a
broadcast; this class refuses every such use instead.
"""
from __future__ import annotations

import itertools
import operator
import threading
from typing import Any

import numpy as np


class _BatchState(threading.local):
    batch = None                  #: the batched loop body running on this thread (regbase/loopbatch.py)
    key = 0                       #: its serial number (0: none), what a C scalar made in it remembers


BATCH = _BatchState()
KEYS = itertools.count(1)


class NotBatchable(Exception):
    """The loop cannot run as array operations (the reason is the message); it runs serially. ``static``:
    the reason is in the loop's code (it holds for every run of that loop), not in this run's data."""

    def __init__(self, message: str, static: bool = False):
        super().__init__(message)
        self.static = static


def _vals(x: Any) -> Any:
    if type(x) is Iv:
        return x.values
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        return x
    if hasattr(x, "value") and hasattr(type(x), "dtype"):          # a CScalar: its plain value
        return _vals(x.value)
    raise NotBatchable(f"loop index combined with {type(x).__name__}", static=True)


def _binop(op):
    def fwd(self, other):
        return Iv(op(self.values, _vals(other)))

    def rev(self, other):
        return Iv(op(_vals(other), self.values))
    return fwd, rev


def _affine_add(sign: int):
    """``+`` / ``-`` that keep the (first, step) of an arithmetic progression (integers only)."""
    def fwd(self, other):
        o = other if type(other) is Iv else _vals(other)
        out = Iv(self.values + _vals(o) if sign > 0 else self.values - _vals(o))
        if self.affine is not None:
            if type(o) is Iv and o.affine is not None:
                out.affine = (self.affine[0] + sign * o.affine[0], self.affine[1] + sign * o.affine[1])
            elif type(o) is int:
                out.affine = (self.affine[0] + sign * o, self.affine[1])
        return out

    def rev(self, other):
        o = _vals(other)
        out = Iv(o + self.values if sign > 0 else o - self.values)
        if self.affine is not None and type(o) is int:
            out.affine = (o + sign * self.affine[0], sign * self.affine[1])
        return out
    return fwd, rev


def _affine_mul(self, other):
    o = _vals(other)
    out = Iv(self.values * o)
    if self.affine is not None and type(o) is int:
        out.affine = (self.affine[0] * o, self.affine[1] * o)
    return out


class Iv:
    """Per-iteration values of an integer (or float) expression of a batched loop's index. ``affine``:
    (first value, step) when the values are known to be an arithmetic progression of ints (the index and
    its sums and products with ints), else None: UB accesses at such addresses need no scan of the values."""

    __slots__ = ("values", "affine")
    __array_ufunc__ = None               # numpy scalars defer to the reflected operators below

    def __init__(self, values: np.ndarray, affine: tuple[int, int] | None = None):
        self.values = values
        self.affine = affine

    __add__, __radd__ = _affine_add(1)
    __sub__, __rsub__ = _affine_add(-1)
    __mul__ = __rmul__ = _affine_mul
    __floordiv__, __rfloordiv__ = _binop(np.floor_divide)
    __truediv__, __rtruediv__ = _binop(np.true_divide)
    __mod__, __rmod__ = _binop(np.mod)
    __lshift__, __rlshift__ = _binop(np.left_shift)
    __rshift__, __rrshift__ = _binop(np.right_shift)
    __and__, __rand__ = _binop(np.bitwise_and)
    __or__, __ror__ = _binop(np.bitwise_or)
    __xor__, __rxor__ = _binop(np.bitwise_xor)
    __lt__ = _binop(operator.lt)[0]
    __le__ = _binop(operator.le)[0]
    __gt__ = _binop(operator.gt)[0]
    __ge__ = _binop(operator.ge)[0]

    def __eq__(self, other):              # elementwise, as the other comparisons (never a Python bool)
        return Iv(self.values == _vals(other))

    def __ne__(self, other):
        return Iv(self.values != _vals(other))

    def __neg__(self):
        return Iv(-self.values)

    def __pos__(self):
        return self

    def __abs__(self):
        return Iv(np.abs(self.values))

    def _scalar(self, *_: Any):
        raise NotBatchable("the loop index is used as one Python value (a branch, a range, int(), a key)",
                           static=True)

    __bool__ = __int__ = __index__ = __float__ = __hash__ = __iter__ = __len__ = _scalar

    def uniform(self) -> bool:
        """Every iteration has the same value."""
        v = self.values
        return bool((v == v[0]).all())

    def __repr__(self) -> str:
        v = self.values
        return f"Iv[{v[0]}..{v[-1]}; {v.size}]"
