"""What-if sweeps: every combination of parameter values run (local process pool or Dask), rows with
their reasons, the Pareto front of cycles against UB bytes, and the advisor built on them.

* :mod:`.values`: ``1..44``, ``8,64`` value lists and their product.
* :mod:`.engine`: run the points (``run_points``), local pool or ``--dask ADDRESS``.
* :mod:`.rows`: the fields every row shares, from a cycle summary and a UB plan.
* :mod:`.asc_target`: points of an ``.asc`` program (``-D NAME=v1,v2``).
* :mod:`.report`: Pareto front, text table, CSV, JSON, picture and HTML page.
* :mod:`.advisor`: the single change that buys most, from the rows and the cycle model's bounds.
"""
