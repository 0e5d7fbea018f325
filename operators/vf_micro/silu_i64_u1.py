"""vf_micro row silu_i64_u1."""
from .silu import variant

KERNEL, HOST = variant(64)
