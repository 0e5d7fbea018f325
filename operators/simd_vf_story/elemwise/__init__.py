"""simd_vf_story elemwise kernels (one module per vendor .asc file) and their host side (host.py)."""
