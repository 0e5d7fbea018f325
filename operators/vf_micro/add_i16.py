"""vf_micro row add_i16."""
from .binary import add_variant

KERNEL, HOST = add_variant(16)
