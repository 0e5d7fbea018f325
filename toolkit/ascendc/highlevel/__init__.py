"""The high-level Ascend C library (``AscendC::Asin``, ``SoftMax``, ``CumSum`` ...), written as kernels over
our own basic APIs.

Convention (shared by every family module here, one module or a few per reference family, e.g.
``math``): each high-level API is one Python function that does its work by calling the MemBase (or Reg)
API functions of :mod:`toolkit.ascendc.membase` / :mod:`toolkit.ascendc.regbase`, the way the vendor's
library is layered over its basic API. The result is never computed in numpy and written into UB: every
step is a basic-API call, so the UB it touches, its VF records, counters and cycles come from the same
machinery as hand-written kernel code. Where a basic op with the same semantics exists it is called.

Temporary space: an API that needs scratch UB takes the caller's ``sharedTmpBuffer`` (a
``LocalTensor<uint8_t>``, checked against the documented minimum with a clear diagnostic) or, without
one, uses the space the framework keeps for it (the UB the kernel's TPipe has not handed out), recorded
as a row of the UB plan. The host-side size queries (``Get<Api>MaxMinTmpSize``,
``Get<Api>TmpBufferFactorSize``) compute their figures from the same table the kernel side checks with.

Algorithms follow the reference page where it states one; otherwise the choice is documented on the API
definition (``note="algorithm: assumed (...)"``), which ``migrate-check api`` shows.

The definitions (C++ forms, dtypes, pages) live in ``toolkit/ascendc/api/hl_<family>.py``; this package
holds only the semantics. The same functions are the Python kernel API and what the ``.asc`` bridge runs.
"""
