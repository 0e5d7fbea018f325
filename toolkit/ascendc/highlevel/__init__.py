"""The high-level API library (issue 21): kernels over the basic MemBase / Reg APIs, one module per family."""
