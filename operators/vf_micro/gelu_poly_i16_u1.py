"""vf_micro row gelu_poly_i16_u1."""
from .gelu_poly import variant

KERNEL, HOST = variant(16, 1)
