"""Calibration: the measured rows, the kernels behind them, and every fit and score of the cycle model.

* ``data/calibration.csv`` (vendor simulator: VF cycles and counters) and ``data/hw_whole_kernel.csv``
  (hardware: task time, per-pipe busy); ``vendor_rows`` loads the first, ``whole_kernel`` the second.
* ``sources``: what the operator packages register (entry-point group ``migrate_check.calibration``):
  which kernel produces the rows of a group. This package never imports an operator.
* ``cannsim``: our figures under the vendor simulator's names, per run or per VF instance.
* ``counter_rows``: our counters against the vendor's counter rows (exact, or within 1 %).
* ``vf_rows``: a prediction per VF cycle row, MAPE, within-group orderings, the acceptance summary.
* ``vf_fit``: the fitted machine parameters, the fit on a set of rows (the fitted set) and the
  leave-one-family-out judgement of the rows left out (the judged set).
* ``whole_kernel`` / ``whole_kernel_fit``: the whole-kernel rows, their scoring and their fit.
* ``search``: the coordinate search both fits use; ``report``: what scripts/calibrate.py prints.
"""
