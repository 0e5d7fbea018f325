"""Calls whose value or effect is one core's own, named once for both routes' lock-step checks
(``toolkit.ascendc.regbase.vfscalar`` for Python VFs, ``toolkit.asc.rawub`` for ``.asc`` VF bodies): a VF
body making one runs on each core alone, since lock-step would run it once for a group of cores."""

#: LocalTensor members that read or write one core's UB (``Print`` prints it)
SCALAR_METHODS = frozenset({"GetValue", "SetValue", "Print"})
#: device output: per core
PRINT_NAMES = frozenset({"printf", "PRINTF", "DumpTensor", "DumpAccChkPoint"})
#: reads of the core's own identity
CORE_NAMES = frozenset({"GetBlockIdx", "asc_get_block_idx", "asc_get_core_id"})
