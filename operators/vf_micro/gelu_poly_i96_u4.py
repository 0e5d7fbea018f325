"""vf_micro row gelu_poly_i96_u4."""
from .gelu_poly import variant

KERNEL, HOST = variant(96, 4)
