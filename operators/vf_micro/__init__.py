"""vf_micro: VF micro-kernels measured with the vendor's cycle-accurate model (calibration rows).

Each kernel is one VF over ``I`` VL chunks of fp32 (A=B+C, A=B/C, polynomial GeLU with unroll, SiLU,
long dependent VADDS / VEXP chains); ``kernel.py`` holds the shared UB plan and launch, each kind's
VF is in its own file, and one small file per calibration row sets its loop count and unroll.
``registry.py`` lists them; the measured cycles are rows of ``toolkit/calibration/data/calibration.csv``.
"""
