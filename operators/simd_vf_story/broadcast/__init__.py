"""simd_vf_story broadcast kernels (one module per vendor .asc file) and their host side (host.py)."""
