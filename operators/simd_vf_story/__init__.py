"""simd_vf_story: the vendor's 26 single-core RegBase sample kernels (broadcast, elemwise, reduce).

One file per vendor variant under ``broadcast/``, ``elemwise/``, ``reduce/``; ``registry.py`` lists
them; ``report.py`` runs a selection and compares our counters with the vendor's cannsim figures.
"""
