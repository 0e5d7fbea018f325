"""What kernels call: the Ascend C surface of both routes (UB/GM memories, LocalTensor/GlobalTensor, TPipe and
queues, DMA, sync, dtypes and bit-faithful numerics, the MemBase LocalTensor API in ``membase/``, the RegBase
register API in ``regbase/``). Each API semantic is implemented once here; the Python kernels and the ``.asc``
bridge both call it."""
