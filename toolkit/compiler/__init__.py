"""What the vendor compiler does to a kernel, modelled as rewrites of the record: dead-code elimination and
mask hoisting at VF end (:mod:`.passes`, applied by the VF recorder) and VF fusion of adjacent VFs
(:mod:`.fusion`, a pass over a core's event stream). Both routes apply the same passes."""
from __future__ import annotations

from typing import Callable


def stream_passes(vf_fusion: bool = False) -> tuple[Callable[[list], list], ...]:
    """The event-stream passes a launch applies for these compiler options (``launch(..., passes=...)``)."""
    if not vf_fusion:
        return ()
    from .fusion import fuse_vfs
    return (fuse_vfs,)
