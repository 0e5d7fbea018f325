"""Calibration: the vendor-measured rows (VF cycles, whole-kernel hardware times), the coordinate
search that fits the machine file's free parameters, and the scoring of fitted and held-out rows."""
