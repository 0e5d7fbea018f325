"""simd_vf_story reduce kernels (one module per vendor .asc file) and their host side (host.py)."""
