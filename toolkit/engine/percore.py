"""Per-core scalars of a uniform group (toolkit.engine.uniform): one Python value per member core.

When the cores of a launch run their scalar code once as a group, a value that depends on the core
(``GetBlockIdx()``, an offset computed from it, a ``GetValue`` of GM at such an offset) is a
:class:`PerCore`: an object array holding each member's Python value, with Python's own arithmetic
applied element by element (so ``//``, ``%`` and unbounded ints are exactly what each core alone computes:
hand-written because numpy's int64 would wrap where a core's Python int does not).

Where the kernel needs one value (``if``, ``range``, ``int()``, a UB address, a hash), the members must
agree: then that value is used; otherwise the group cannot go on as one and :class:`Divergence` says how
the members split (by the value each one had). An API that cannot take a group raises
:class:`Unsupported`. Either way the launch runner rolls the attempt back (toolkit.engine.uniform).
"""
from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np


class Divergence(Exception):
    """The members take different paths here: ``parts`` are the member positions that agree."""

    def __init__(self, parts: list[list[int]], why: str):
        super().__init__(why)
        self.parts, self.why = parts, why


class Unsupported(Exception):
    """Something the group cannot run as one (a diagnostic, a per-core API, a cross-core wait)."""


def _same_key(x: Any) -> tuple:
    """What must be equal for two members' values to be one value (-0.0 is not 0.0, 1 is not True)."""
    return (type(x), x.hex() if isinstance(x, float) else x)


def agree(values: list) -> bool:
    """Whether every member has the same value (as :func:`_same_key` judges)."""
    first = values[0]
    t = type(first)
    if t is not float and type(values) is list:      # the usual case (ints, strings) at C speed
        return values.count(first) == len(values) and len(set(map(type, values))) == 1
    first = _same_key(first)
    return all(_same_key(v) == first for v in values)


def per_core(values: list, kind: str | None = None) -> Any:
    """The members' results: the one value when they agree, else a :class:`PerCore`."""
    return values[0] if agree(values) else PerCore(values, kind)


def split(values: list, why: str) -> Any:
    """``values[0]`` when every member has that value, else :class:`Divergence` by value."""
    try:
        if agree(values):
            return values[0]
        parts: dict[tuple, list[int]] = {}
        for k, v in enumerate(values):
            parts.setdefault(_same_key(v), []).append(k)
    except TypeError:                            # an unhashable value: one part per member
        parts = {k: [k] for k in range(len(values))}
    raise Divergence(list(parts.values()), why)


class PerCore:
    """One Python value per member core (see the module docstring); ``kind``: the tag a scalar read
    gives its value (toolkit.ascendc.tensor: "gm_read" / "ub_read"), kept until arithmetic drops it."""

    __slots__ = ("v", "kind")

    def __init__(self, values: Any, kind: str | None = None):
        if not isinstance(values, np.ndarray) or values.dtype != object:
            arr = np.empty(len(values), dtype=object)
            arr[:] = list(values)
            values = arr
        self.v, self.kind = values, kind

    def item(self, k: int) -> Any:
        """Member ``k``'s value."""
        return self.v[k]

    def values(self) -> list:
        return self.v.tolist()

    def one(self, fn: Callable[[Any], Any], why: str) -> Any:
        return split([fn(x) for x in self.v.tolist()], why)

    # -- where one value is needed ----------------------------------------------------------------
    def __bool__(self) -> bool:
        return self.one(bool, "a branch on a per-core value")

    def __index__(self) -> int:
        return self.one(operator.index, "a per-core value used as an index or count")

    def __int__(self) -> int:
        return self.one(int, "a per-core value converted to int")

    def __float__(self) -> float:
        return self.one(float, "a per-core value converted to float")

    def __hash__(self) -> int:
        return hash(self.one(lambda x: x, "a per-core value hashed"))

    def __format__(self, spec: str) -> str:
        return format(self.one(lambda x: x, "a per-core value printed"), spec)

    def __round__(self, n: int | None = None) -> Any:
        return self.one(lambda x: round(x, n), "a per-core value rounded")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.one(lambda x: x, "a per-core value made an array"), dtype=dtype)

    def __str__(self) -> str:
        return str(self.one(lambda x: x, "a per-core value printed"))

    def __repr__(self) -> str:
        return f"PerCore({self.v.tolist()})"

    # -- arithmetic: element by element, Python semantics -----------------------------------------
    def __neg__(self) -> Any:
        return collapse(-self.v)

    def __pos__(self) -> "PerCore":
        return self

    def __abs__(self) -> Any:
        return collapse(np.abs(self.v))

    def __invert__(self) -> Any:
        return collapse(PerCore([~x for x in self.v.tolist()]).v)


def collapse(values: np.ndarray) -> Any:
    """A per-core result: the one value when every member has it (a plain Python value again, as each
    core alone would have: isinstance checks and formatting see what they expect), else a PerCore."""
    if not isinstance(values, np.ndarray):       # an operand's own type answered (NotImplemented, a scalar)
        return values
    return per_core(values.tolist())


def _binary(op: Callable[[Any, Any], Any]) -> tuple[Callable, Callable]:
    def fwd(self: PerCore, other: Any) -> Any:
        return collapse(op(self.v, other.v if type(other) is PerCore else other))

    def rev(self: PerCore, other: Any) -> Any:
        return collapse(op(other, self.v))
    return fwd, rev


for _name, _op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv), ("mod", operator.mod),
                   ("pow", operator.pow), ("lshift", operator.lshift), ("rshift", operator.rshift),
                   ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor)):
    _f, _r = _binary(_op)
    setattr(PerCore, f"__{_name}__", _f)
    setattr(PerCore, f"__r{_name}__", _r)

for _name, _op in (("lt", operator.lt), ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge),
                   ("eq", operator.eq), ("ne", operator.ne)):
    setattr(PerCore, f"__{_name}__", _binary(_op)[0])


def has_percore(args: Any) -> bool:
    """Whether a call's arguments hold a per-core value (directly, in a sequence or in a field)."""
    t = type(args)
    if t is PerCore:
        return True
    if t is tuple or t is list:
        return any(has_percore(a) for a in args)
    if t is dict:
        return any(has_percore(a) for a in args.values())
    names = _fields(t)
    return bool(names) and any(type(getattr(args, n, None)) is PerCore for n in names)


def specialize(x: Any, k: int) -> Any:
    """``x`` as member ``k`` sees it: per-core values replaced by member k's, in sequences and one level
    of fields (a GlobalTensor's offset, a parameter block's counts)."""
    return specializer(x)(k)


def specializer(x: Any) -> Callable[[int], Any]:
    """``k -> specialize(x, k)``, the structure of ``x`` looked at once (a call of a group is specialized
    for every member: see toolkit.engine.uniform)."""
    t = type(x)
    if t is PerCore:
        vals = x.v.tolist()
        if x.kind is None:
            return vals.__getitem__
        from toolkit.ascendc.tensor import _tag
        return lambda k: _tag(vals[k], x.kind)
    if t is tuple or t is list or t is dict:
        items = list(x.items()) if t is dict else list(enumerate(x))
        subs = [(i, specializer(a)) for i, a in items if has_percore(a)]
        if not subs:
            return lambda k: x
        if t is dict:
            return lambda k: {**x, **{i: f(k) for i, f in subs}}

        def seq(k: int) -> Any:
            out = list(x)
            for i, f in subs:
                out[i] = f(k)
            return t(out)
        return seq
    names = _fields(t)
    per = [(n, specializer(getattr(x, n))) for n in names if type(getattr(x, n, None)) is PerCore]
    if not per:
        return lambda k: x
    fixed = [(n, getattr(x, n)) for n in names if hasattr(x, n) and type(getattr(x, n)) is not PerCore]
    setter = object.__setattr__

    def obj(k: int) -> Any:
        out = object.__new__(t)
        for n, v in fixed:
            setter(out, n, v)
        for n, f in per:
            setter(out, n, f(k))
        return out
    return obj


_FIELDS: dict[type, tuple] = {}


def _fields(t: type) -> tuple:
    """Attribute names of ``t``'s instances: its slots (whole MRO) or dataclass fields; () for others
    (numbers, strings, enums: nothing per-core inside)."""
    got = _FIELDS.get(t)
    if got is None:
        names: list[str] = []
        for c in t.__mro__:
            s = c.__dict__.get("__slots__", ())
            names.extend([s] if isinstance(s, str) else s)
        fields = getattr(t, "__dataclass_fields__", None)
        if fields and not names:
            names = list(fields)
        got = _FIELDS[t] = tuple(n for n in names if n not in ("__dict__", "__weakref__"))
    return got
