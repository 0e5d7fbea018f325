"""Golden comparison: the sample hosts' gates (``CompareBf16``, ``CompareFloat``) and generic verifiers
for other kernels.

``CompareBf16`` formats numbers as a C ``printf("%f")``: values, diffs and the precision use six decimals
(``%.6f``); indices are plain integers; infinities print as ``inf``. ``CompareFloat`` prints as an
iostream does (six significant digits, ``%g``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from toolkit.ascendc.dtypes import BF16

BF16_COMPARE_TOL = 6e-2
FLOAT_COMPARE_TOL = 1e-3
MAX_MISMATCH_LINES = 20


def _bf16_bits(a: np.ndarray) -> np.ndarray:
    arr = np.asarray(a)
    if arr.dtype == BF16:
        arr = arr.view(np.uint16)
    if arr.dtype != np.uint16:
        raise TypeError(f"expected bf16 bit patterns (uint16), got {arr.dtype}")
    return arr.ravel()


def _decode(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def _fmt(v: float) -> str:
    return f"{v:.6f}"


@dataclass
class CompareResult:
    """Outcome of one ``CompareBf16`` call."""

    name: str
    n: int                       # element count
    errors: int                  # elements with diff > tol (NaN included)
    max_diff: float              # largest diff (inf when a NaN or an infinity mismatches)
    max_diff_index: int          # first flat index where max_diff occurs (0 when empty)
    precision: float             # (n - errors) / n * 100, 100 when empty
    lines: list[str] = field(default_factory=list)  # mismatch lines then the summary line
    passed: bool = True          # errors == 0

    def to_json(self) -> dict:
        """``{errors, max_diff, max_diff_index, precision}``; max_diff inf becomes ``"inf"``."""
        max_diff = self.max_diff if np.isfinite(self.max_diff) else "inf"
        return {"errors": self.errors, "max_diff": max_diff,
                "max_diff_index": self.max_diff_index, "precision": self.precision}

    def describe(self, name: str) -> str:
        """One line for a failed gate: ``NAME E errors (max diff M)``."""
        return f"{name} {self.errors} errors (max diff {self.max_diff:g})"


#: elements compared at a time: the fp32 temporaries stay bounded whatever the output size
COMPARE_CHUNK = 1 << 20


def CompareBf16(name: str, actual: np.ndarray, golden: np.ndarray, tol: float = BF16_COMPARE_TOL,
                max_lines: int = MAX_MISMATCH_LINES, chunk: int = COMPARE_CHUNK) -> CompareResult:
    """Compare two arrays of bf16 bits (uint16 or ml_dtypes bfloat16) as the sample host does.

    Both are decoded to fp32 and compared flat: ``diff = |actual - golden|`` in fp32, and an
    element is an error when ``diff > float32(tol)``, as the C++ does with ``float``. NaN choice:
    a NaN on either side is an error with ``diff = inf`` (the C++ ``diff > tol`` would let it
    pass); equal infinities have diff 0. ``lines`` holds at most ``max_lines``
    ``NAME mismatch index I, expected E, actual A, diff D`` lines in index order, then
    ``NAME precision P%, errors E, max diff M at I``. Done ``chunk`` elements at a time (the
    result does not depend on it).
    """
    a_bits = _bf16_bits(actual)
    g_bits = _bf16_bits(golden)
    if a_bits.size != g_bits.size:
        raise ValueError(f"{name}: size mismatch, actual {a_bits.size}, golden {g_bits.size}")
    n = int(a_bits.size)
    errors, max_index, max_diff = 0, 0, 0.0
    lines: list[str] = []
    for lo in range(0, n, max(int(chunk), 1)):
        a, g = _decode(a_bits[lo:lo + chunk]), _decode(g_bits[lo:lo + chunk])
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(a - g)
        diff[a == g] = 0.0
        diff[np.isnan(a) | np.isnan(g)] = np.inf
        bad = np.flatnonzero(diff > np.float32(tol))
        errors += int(bad.size)
        k = int(np.argmax(diff))
        if lo == 0 or float(diff[k]) > max_diff:             # the first index of the largest diff
            max_index, max_diff = lo + k, float(diff[k])
        lines += [f"{name} mismatch index {lo + i}, expected {_fmt(g[i])}, actual {_fmt(a[i])}, "
                  f"diff {_fmt(diff[i])}" for i in bad[:max(max_lines - len(lines), 0)]]
    precision = (n - errors) / n * 100.0 if n else 100.0
    lines.append(f"{name} precision {_fmt(precision)}%, errors {errors}, "
                 f"max diff {_fmt(max_diff)} at {max_index}")
    return CompareResult(name=name, n=n, errors=errors, max_diff=max_diff,
                         max_diff_index=max_index, precision=precision, lines=lines,
                         passed=errors == 0)


def _g(v: float) -> str:
    """iostream default formatting of a float (6 significant digits, as ``%g``)."""
    return f"{float(v):g}"


def CompareFloat(name: str, actual: np.ndarray, golden: np.ndarray, tol: float = FLOAT_COMPARE_TOL) -> CompareResult:
    """The float gate of the sample hosts (the softmax sample's ``CompareFloat``, fp32 outputs).

    ``diff = |actual - golden|`` in float; ``diff > tol`` is an error; a strictly larger diff moves
    the max (first occurrence wins); NaN diffs fail both comparisons (neither error nor max). Numbers in iostream
    default formatting; the result is a :class:`CompareResult`, as ``CompareBf16``'s."""
    a = np.asarray(actual, np.float32).ravel()
    g = np.asarray(golden, np.float32).ravel()
    n = g.size
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a[:n] - g)
        bad = np.flatnonzero(diff > np.float32(tol))
        finite = np.where(np.isnan(diff), np.float32(-1), diff)
    idx = int(np.argmax(finite)) if n else 0
    max_diff = float(max(finite[idx], 0.0)) if n else 0.0
    idx = idx if max_diff > 0 else 0
    errors = int(bad.size)
    precision = float(np.float32((n - errors) / n * 100)) if n else 100.0
    lines = [f"{name} mismatch index {i}, expected {_g(g[i])}, actual {_g(a[i])}, diff {_g(diff[i])}"
             for i in bad[:MAX_MISMATCH_LINES]]
    lines.append(f"{name} precision {_g(precision)}%, errors {errors}, max diff {_g(max_diff)} at {idx}")
    return CompareResult(name=name, n=n, errors=errors, max_diff=max_diff, max_diff_index=idx, precision=precision,
                         lines=lines, passed=errors == 0)


@dataclass
class CheckResult:
    """Outcome of ``check_abs`` / ``check_rel_sum``."""

    passed: bool          # failures == 0
    worst_index: int      # flat index of the largest error (first occurrence; 0 when empty)
    worst_error: float    # largest error in the check's own measure (inf for NaN)
    failures: int         # elements outside the tolerance
    n: int = 0            # element count

    def describe(self, name: str) -> str:
        """One line for a failed gate: ``NAME F errors (max error W)``."""
        return f"{name} {self.failures} errors (max error {self.worst_error:g})"


def _check(err: np.ndarray, limit: np.ndarray | float, nan_mask: np.ndarray) -> CheckResult:
    err = err.copy()
    err[nan_mask] = np.inf
    failures = int(np.count_nonzero(~(err <= limit)))
    if err.size:
        worst = int(np.argmax(err))
        worst_err = float(err[worst])
    else:
        worst, worst_err = 0, 0.0
    return CheckResult(passed=failures == 0, worst_index=worst, worst_error=worst_err,
                       failures=failures, n=int(err.size))


def _pair(got: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    g = np.asarray(got, dtype=np.float64).ravel()
    r = np.asarray(ref, dtype=np.float64).ravel()
    if g.size != r.size:
        raise ValueError(f"size mismatch, got {g.size}, ref {r.size}")
    return g, r


def check_abs(got: np.ndarray, ref: np.ndarray, atol: float) -> CheckResult:
    """Element-wise ``|got - ref| <= atol`` in float64; worst error is the absolute difference."""
    g, r = _pair(got, ref)
    with np.errstate(invalid="ignore"):
        err = np.abs(g - r)
    err[g == r] = 0.0
    return _check(err, atol, np.isnan(g) | np.isnan(r))


def check_rel_sum(got: np.ndarray, ref: np.ndarray, rtol: float = 1e-3) -> CheckResult:
    """Element-wise ``|got - ref| <= rtol * (|ref| + 1)`` in float64.

    Worst error is reported normalised, ``|got - ref| / (|ref| + 1)``, so it is comparable to rtol.
    """
    g, r = _pair(got, ref)
    with np.errstate(invalid="ignore"):
        err = np.abs(g - r)
        err[g == r] = 0.0
        err = err / (np.abs(r) + 1.0)
    return _check(err, rtol, np.isnan(g) | np.isnan(r) | np.isnan(err))
