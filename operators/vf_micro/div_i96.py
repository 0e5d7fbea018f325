"""vf_micro row div_i96."""
from .binary import div_variant

KERNEL, HOST = div_variant(96)
