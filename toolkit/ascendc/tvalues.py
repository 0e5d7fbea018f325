"""C++ templates whose arguments include non-type integral values (``CrossCoreSetFlag<0, PIPE_MTE3>``,
``GetBitCount<1>``, ``Nop<8>``) in Python: ``api[0, PipeType.PIPE_MTE3](flag)``. Unlike the Reg API's
:class:`~toolkit.ascendc.regbase.template.TemplateApi` (which reads a bare type or int as an element
type), the arguments reach the implementation as given, a tuple in declaration order."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable


def plain(targs: tuple) -> tuple:
    """The template arguments with each non-type value as a plain int: the bridge may hand a value over as
    a (name, value) pair (a NamedTuple with those fields) as well as a bare int."""
    return tuple(a.value if isinstance(a, tuple) and getattr(a, "_fields", None) == ("name", "value") else a
                 for a in targs)


class ValueTemplate:
    """``impl(targs: tuple, *args)`` behind ``api[targs](*args)``; ``api(*args)`` passes ``()``."""


    def __init__(self, impl: Callable):
        self.impl = impl
        self.cache: dict = {}
        self.__name__ = impl.__name__
        self.__doc__ = impl.__doc__

    def __getitem__(self, targs: Any) -> Callable:
        key = plain(targs if isinstance(targs, tuple) else (targs,))
        bound = self.cache.get(key)
        if bound is None:
            bound = self.cache[key] = partial(self.impl, key)
        return bound

    def __call__(self, *args: Any) -> Any:
        return self.impl((), *args)

    def __repr__(self) -> str:
        return f"<template API {self.__name__}>"


def value_template(impl: Callable) -> ValueTemplate:
    return ValueTemplate(impl)
