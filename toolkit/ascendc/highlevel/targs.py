"""Template arguments of the sorting / filtering APIs on the Python route: ``Sort[half, True](...)``,
``TopK[float, True, True, False, TopKMode.TOPK_NORMAL](...)``, ``DropOut[half, False, 3](...)`` bind their
non-type arguments, in order, to the C++ template parameters' names (element types come from the tensors,
as C++ deduces them); a :class:`TemplateValue` (the bridge's) binds by its own name."""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from toolkit.ascendc.dtypes import CScalar, TemplateValue
from toolkit.ascendc.membase.elementwise import MemBaseApi


def _is_type(a: Any) -> bool:
    return isinstance(a, np.dtype) or (isinstance(a, type) and (issubclass(a, (np.generic, CScalar)) or
                                                                 a in (float, int, bool)))


class PositionalApi(MemBaseApi):
    """A MemBase-style API whose positional template values bind to ``names`` (a sequence, or a function of
    the values that picks one: Sort's isFullSort form or its SortConfig form)."""

    def __init__(self, fn: Callable, name: str, names: Sequence[str] | Callable[[list], Sequence[str]]):
        super().__init__(fn, name, batchable=False)
        self.names = names

    def __getitem__(self, targs: Any) -> Callable:
        key = targs if isinstance(targs, tuple) else (targs,)
        values = [a for a in key if not _is_type(a)]
        kw = {a.name: a.value for a in values if isinstance(a, TemplateValue)}
        plain = [a for a in values if not isinstance(a, TemplateValue)]
        names = self.names(plain) if callable(self.names) else self.names
        kw.update(zip(names, plain))
        return functools.partial(self.__call__, **kw) if kw else self.__call__
