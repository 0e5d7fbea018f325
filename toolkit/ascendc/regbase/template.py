"""C++ template arguments in Python: ``LoadAlign[float, LoadDist.DIST_UNPACK_B16](dst, src)``.

A :class:`TemplateApi` wraps an implementation ``impl(targs, *args)``; ``api[...]`` binds the template
arguments (parsed once and cached), a plain call ``api(...)`` uses the defaults. Template arguments are
told apart by their kind, as the C++ overloads are: an element type, an enum member, or a CastTrait.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, Callable

import numpy as np

from toolkit.ascendc.dtypes import np_dtype
from toolkit.ascendc.itervec import BATCH, NotBatchable

from .loopbatch import BATCHABLE
from .types import CastTrait


@dataclass(frozen=True)
class TArgs:
    """Parsed template arguments: element type(s) in order, enum values by enum class, a CastTrait."""

    types: tuple = ()
    enums: tuple = ()
    trait: CastTrait | None = None
    values: tuple = ()              #: integer non-type template arguments (MaskGenWithRegTensor's offset)
    #: enum class -> first member given (an Enum with members cannot be subclassed, so the exact class
    #: is what ``isinstance`` matched); every API call asks, so it is one dict look-up
    by_class: dict = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        by_class: dict = {}
        for e in self.enums:
            by_class.setdefault(type(e), e)
        object.__setattr__(self, "by_class", by_class)

    def enum(self, cls: type, default: Any = None) -> Any:
        return self.by_class.get(cls, default)

    def type(self, k: int = 0, default: np.dtype | None = None) -> np.dtype | None:
        return self.types[k] if len(self.types) > k else default


NO_TARGS = TArgs()


def parse_targs(targs: tuple) -> TArgs:
    types, enums, trait, values = [], [], None, []
    for a in targs:
        if isinstance(a, CastTrait):
            trait = a
        elif isinstance(a, Enum):
            enums.append(a)
        elif isinstance(a, (int, np.integer)) and not isinstance(a, bool):
            values.append(int(a))
        else:
            types.append(np_dtype(a))
    return TArgs(tuple(types), tuple(enums), trait, tuple(values))


class TemplateApi:
    __slots__ = ("impl", "cache", "__name__", "__doc__")

    def __init__(self, impl: Callable):
        self.impl = impl
        self.cache: dict[tuple, Callable] = {}
        self.__name__ = impl.__name__
        self.__doc__ = impl.__doc__

    def __getitem__(self, targs: Any) -> Callable:
        bound = self.cache.get(targs)
        if bound is None:
            key = targs if isinstance(targs, tuple) else (targs,)
            # a partial adds no Python frame to every call (kernel_frame walks the stack past it too)
            bound = self.cache.get(key) or partial(self.impl, parse_targs(key))
            self.cache[key] = self.cache[targs] = bound
        return bound

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.impl(NO_TARGS, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<Reg API {self.__name__}>"


def template(impl: Callable) -> TemplateApi:
    """The API of ``impl``; one with no batched form (not in ``loopbatch.BATCHABLE``) refuses to run inside
    a batched loop body, so the loop runs iteration by iteration."""
    if impl.__name__ not in BATCHABLE:
        impl = _gated(impl)
    return TemplateApi(impl)


def _gated(impl: Callable) -> Callable:
    name = impl.__name__

    def gated(*args: Any, **kwargs: Any) -> Any:
        if BATCH.batch is not None:
            raise NotBatchable(f"{name} has no batched form", static=True)
        return impl(*args, **kwargs)
    gated.__name__, gated.__doc__, gated.__wrapped__ = name, impl.__doc__, impl
    return gated
