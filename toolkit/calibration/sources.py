"""What the operators register: which kernel produces the rows of a calibration group.

``toolkit`` never imports ``operators``. An operator package names a function in the
``migrate_check.calibration`` entry-point group (pyproject.toml, as the commands do); the function
returns the :class:`VfSource` and :class:`WholeKernelSource` objects of the package. Everything else
(matching rows to kernels, timing, scoring, fitting) is this package's.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    from toolkit.engine.launch import LaunchResult

ENTRY_POINT_GROUP = "migrate_check.calibration"
SCOPES = ("run", "vf")


class RegistrationError(RuntimeError):
    """The registered calibration kernels are missing or inconsistent (one line, names the cause)."""


@dataclass(frozen=True)
class VfSource:
    """A kernel whose VF cycles and counters are rows of ``data/calibration.csv`` (vendor simulator)."""

    key: str                    #: unique name, "family/kernel" (e.g. "reduce/reduce_sum_ar_binary")
    group: str                  #: the rows' ``kernel`` column
    variant: str                #: the rows' ``variant`` column
    scope: str                  #: how the vendor measured it: "run" (sums over the run's VF launches) or
    #: "vf" (one VF instance: the steady state of a repeated VF, or a VF that runs once)
    run: Callable[[], list]     #: the functional run on one core: that core's event stream

    @property
    def family(self) -> str:
        return self.key.split("/", 1)[0]


@dataclass(frozen=True)
class WholeKernelSource:
    """A kernel group whose task and per-pipe times are rows of ``data/hw_whole_kernel.csv`` (hardware)."""

    group: str                                      #: the rows' ``kernel`` column
    run: Callable[[], dict[str, LaunchResult]]      #: the functional run of every variant: variant -> launch


@dataclass(frozen=True)
class Registered:
    vf: tuple[VfSource, ...]
    whole_kernel: tuple[WholeKernelSource, ...]


def check(found: Iterable[object]) -> Registered:
    """Sort what the entry points returned into VF and whole-kernel sources; refuse duplicates, an
    unknown scope or an object of another type."""
    vf, wk = [], []
    for s in found:
        if isinstance(s, VfSource):
            if s.scope not in SCOPES:
                raise RegistrationError(f"calibration kernel {s.key}: scope {s.scope!r} is not one of {SCOPES}")
            vf.append(s)
        elif isinstance(s, WholeKernelSource):
            wk.append(s)
        else:
            raise RegistrationError(f"a calibration entry point returned {type(s).__name__}, not a source")
    for what, keys in (("kernel", [s.key for s in vf]), ("row", [(s.group, s.variant) for s in vf]),
                       ("whole-kernel group", [s.group for s in wk])):
        dup = sorted({str(k) for k in keys if keys.count(k) > 1})
        if dup:
            raise RegistrationError(f"calibration {what} registered twice: {', '.join(dup)}")
    return Registered(tuple(vf), tuple(wk))


@functools.lru_cache(maxsize=None)
def registered() -> Registered:
    """Every registered source, the entry points in name order."""
    from importlib.metadata import entry_points
    eps = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
    if not eps:
        raise RegistrationError(f"no calibration kernels registered: the entry-point group {ENTRY_POINT_GROUP} "
                                "is empty (reinstall the package: pip install -e .)")
    return check(s for ep in eps for s in ep.load()())


def vf_sources() -> tuple[VfSource, ...]:
    return registered().vf


def whole_kernel_sources() -> tuple[WholeKernelSource, ...]:
    return registered().whole_kernel
