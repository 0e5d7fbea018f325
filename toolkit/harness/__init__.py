"""The host side every operator shares; an operator package keeps its kernels, tiling, data generator,
command options and report specifics.

- ``case``: the data of one launch (GM inputs, outputs, tiling) and ``launch_case``
- ``run``: the run record (the launch, the checks of its outputs, the UB plan), the one gate
  (``views.launch_summary.gate``), its text / JSON / HTML-verdict pieces and the reason a sweep row gives
- ``lineup``: variants run on one case, side by side: one cycle model, text, JSON, trace
- ``plan``: the UB plan of a kernel's Init from a dry run
- ``data``: ``BadInput``, the ``--data-dir`` check, ``user_input`` (a bad input is exit 2)
- ``golden``: the sample hosts' gates (CompareBf16, CompareFloat) and numpy reference checks
- ``binio``: the ``.bin`` files of a gen_data directory
- ``cpp_random``: the C++ random generators the vendor's host programs draw inputs with
"""
