"""vf_micro row div_i16."""
from .binary import div_variant

KERNEL, HOST = div_variant(16)
