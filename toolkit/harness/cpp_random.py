"""The inputs the vendor's C++ host programs draw: ``std::mt19937 gen(seed)`` with
``std::uniform_real_distribution<float>(a, b)`` as libstdc++ implements them, bit for bit.

* ``std::mt19937(seed)`` is MT19937 with the reference ``init_genrand`` seeding, which is numpy's legacy
  seeding (``RandomState(seed)``); its 32-bit outputs are read with ``MT19937.random_raw``.
* libstdc++'s ``uniform_real_distribution<float>`` calls ``generate_canonical<float, 24>``: the generator's
  range is 2**32 >= 2**24, so it takes one draw ``u`` and returns ``float(u) / 4294967296.0f`` computed in
  float (``float(u)`` rounds to nearest), replaced by ``nextafter(1.0f, 0.0f)`` when that rounds up to 1;
  the distribution then returns ``x * (b - a) + a``, in float.
"""
from __future__ import annotations

import numpy as np

__all__ = ["mt19937_u32", "uniform_real_float"]


def mt19937_u32(seed: int, count: int) -> np.ndarray:
    """The first ``count`` outputs of ``std::mt19937(seed)`` as uint32."""
    _, key, pos, *_ = np.random.RandomState(seed & 0xFFFFFFFF).get_state(legacy=True)
    bits = np.random.MT19937()
    bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
    return bits.random_raw(int(count)).astype(np.uint32)


def uniform_real_float(seed: int, count: int, a: float = -1.0, b: float = 1.0) -> np.ndarray:
    """``count`` draws of ``std::uniform_real_distribution<float>(a, b)`` from ``std::mt19937(seed)``
    (float32), in draw order."""
    u = mt19937_u32(seed, count)
    x = u.astype(np.float32) / np.float32(4294967296.0)
    x = np.where(x >= np.float32(1.0), np.nextafter(np.float32(1.0), np.float32(0.0)), x).astype(np.float32)
    lo, hi = np.float32(a), np.float32(b)
    return (x * (hi - lo) + lo).astype(np.float32)
