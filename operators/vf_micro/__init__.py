"""vf_micro: VF micro-kernels measured with the vendor's cycle-accurate model (calibration rows).

Each kernel is one VF over ``I`` VL chunks of fp32 (A=B+C, A=B/C, polynomial GeLU with unroll, SiLU,
long dependent VADDS / VEXP chains). ``vfs.py`` holds the VFs and their references; ``rows.py`` the ten
rows (loop count, unroll, inputs, check), the shared UB plan and launch, and their registration as
calibration kernels. The measured cycles are rows of ``toolkit/calibration/data/calibration.csv``.
"""
