"""vf_micro row add_i96."""
from .binary import add_variant

KERNEL, HOST = add_variant(96)
