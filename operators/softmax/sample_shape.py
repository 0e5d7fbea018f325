"""The sample's compile-time shape (``include/sample_common.h``): the defaults of :class:`.common.SoftmaxShape`
and of the ``migrate-check softmax`` options. Its own module, importing nothing, so the command's ``--help``
does not load the emulator (tests/test_startup.py)."""

TOTAL_M, TOTAL_N = 256, 2048
SINGLE_CORE_M, SINGLE_CORE_N = 8, 2048
