"""The execution engine: the emulated core a kernel runs on, launches on blockNum cores (lock-step
or serial), batches of cores, GM writers and races, the paused cyclic GC. With ``toolkit.ascendc`` it
writes the record."""
