"""C scalar type names used by kernel ports (``bfloat16_t``, ``uint32_t`` ...), mapped to numpy dtypes.

Each name is a class that serves two purposes, as in the C++ it mirrors:

* a *type tag* in template-like positions: ``LoadAlign[bfloat16_t, LoadDist.DIST_UNPACK_B16](...)``,
  ``queue.AllocTensor(float)``; Python's ``float`` means fp32 and ``int`` means int32;
* a *mutable scalar variable* where the C++ passes a scalar by reference:
  ``remain = uint32_t(n); mask = UpdateMask[float](remain)`` updates ``remain.value``.

bf16 comes from ml_dtypes; no bit tricks here.
"""
from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

import ml_dtypes
import numpy as np

from . import lowfloat as _lf
from .itervec import BATCH, Iv

BF16 = np.dtype(ml_dtypes.bfloat16)


class CScalar:
    """A C scalar variable: a value of a fixed numpy dtype, mutable in place (passed by reference)."""

    dtype: ClassVar[np.dtype]
    __slots__ = ("value", "born")

    def __init__(self, value: Any = 0):
        self.value = self._wrap(value.value if isinstance(value, CScalar) else value)
        self.born = BATCH.key            # made in a batched loop body (regbase/loopbatch.py): its key

    @classmethod
    def _wrap(cls, v: Any) -> Any:
        if type(v) is Iv:                                    # a batched loop's per-iteration value
            return Iv(np.asarray([cls._wrap(x) for x in v.values.tolist()]))
        if cls.dtype.names:                                  # hifloat8 / packed 4-bit: the byte's bits
            return int(v) & 0xFF
        if cls.dtype.kind in "iu":
            bits = cls.dtype.itemsize * 8
            v = int(v) & ((1 << bits) - 1)
            if cls.dtype.kind == "i" and v >= 1 << (bits - 1):
                v -= 1 << bits
            return v
        return float(cls.dtype.type(v))

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value})"

    # Arithmetic and comparisons read the value (C promotion: the result is a plain number).
    def __add__(self, o): return self.value + _v(o)
    def __radd__(self, o): return _v(o) + self.value
    def __sub__(self, o): return self.value - _v(o)
    def __rsub__(self, o): return _v(o) - self.value
    def __mul__(self, o): return self.value * _v(o)
    def __rmul__(self, o): return _v(o) * self.value
    def __floordiv__(self, o): return self.value // _v(o)
    def __rfloordiv__(self, o): return _v(o) // self.value
    def __truediv__(self, o): return self.value / _v(o)
    def __rtruediv__(self, o): return _v(o) / self.value
    def __mod__(self, o): return self.value % _v(o)
    def __neg__(self): return -self.value
    def __eq__(self, o): return self.value == _v(o)
    def __lt__(self, o): return self.value < _v(o)
    def __le__(self, o): return self.value <= _v(o)
    def __gt__(self, o): return self.value > _v(o)
    def __ge__(self, o): return self.value >= _v(o)
    __hash__ = None


def _v(o: Any) -> Any:
    return o.value if isinstance(o, CScalar) else o


def _ctype(name: str, dt: Any) -> type[CScalar]:
    return type(name, (CScalar,), {"dtype": np.dtype(dt), "__slots__": ()})


int8_t = _ctype("int8_t", np.int8)
uint8_t = _ctype("uint8_t", np.uint8)
int16_t = _ctype("int16_t", np.int16)
uint16_t = _ctype("uint16_t", np.uint16)
int32_t = _ctype("int32_t", np.int32)
uint32_t = _ctype("uint32_t", np.uint32)
int64_t = _ctype("int64_t", np.int64)
uint64_t = _ctype("uint64_t", np.uint64)
half = _ctype("half", np.float16)
bfloat16_t = _ctype("bfloat16_t", BF16)
float32_t = _ctype("float32_t", np.float32)
# the 8- / 4-bit types of Ascend 950 (toolkit.ascendc.lowfloat: storage, decoding and encoding)
fp8_e4m3fn_t = _ctype("fp8_e4m3fn_t", _lf.FP8_E4M3FN)
fp8_e5m2_t = _ctype("fp8_e5m2_t", _lf.FP8_E5M2)
fp8_e8m0_t = _ctype("fp8_e8m0_t", _lf.FP8_E8M0)
hifloat8_t = _ctype("hifloat8_t", _lf.HIF8)
fp4x2_e2m1_t = _ctype("fp4x2_e2m1_t", _lf.FP4X2_E2M1)
fp4x2_e1m2_t = _ctype("fp4x2_e1m2_t", _lf.FP4X2_E1M2)
int4x2_t = _ctype("int4x2_t", _lf.INT4X2)
int4b_t = _ctype("int4b_t", _lf.INT4B)


def np_dtype(t: Any) -> np.dtype:
    """Resolve a type tag (C name class, Python ``float``/``int``, numpy type or dtype) to a numpy dtype."""
    if t is float:
        return np.dtype(np.float32)
    if t is int:
        return np.dtype(np.int32)
    if t is bool:
        return np.dtype(np.uint8)
    if isinstance(t, type) and issubclass(t, CScalar):
        return t.dtype
    return np.dtype(t)


def type_name(dt: np.dtype) -> str:
    """C spelling of a numpy dtype, for messages."""
    names = {"float32": "float", "float16": "half", "bfloat16": "bfloat16_t"}
    if dt in _lf.NAMES:
        return _lf.NAMES[dt]
    return names.get(dt.name, dt.name + "_t")


def scalar_value(v: Any) -> Any:
    """Plain Python value of a scalar argument (CScalar or number)."""
    return v.value if isinstance(v, CScalar) else v


class TemplateValue(NamedTuple):
    """A non-type template argument an API needs (``Add<half, false>``: isSetMask = false), as the ``.asc``
    bridge hands it over in the template argument tuple; the API receives it as a keyword argument."""

    name: str
    value: int
