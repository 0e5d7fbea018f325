"""Hypothesis profiles for the fuzz tests.

``ci`` (the default, what ``.ci/run``'s plain ``python -m pytest -q`` uses; the seed is fixed in
pyproject.toml's addopts): 60 examples per property, no shrinking, so all fuzzing stays well under a
minute even when a property fails.
``thorough``: 1000 examples per property (``--hypothesis-profile=thorough``), for local runs.
No example database is written (runs are reproducible from the seed alone).
"""
from hypothesis import HealthCheck, Phase, settings

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.function_scoped_fixture])
# ci: a failure is reported as found (no shrinking), so a broken build cannot spend minutes here
settings.register_profile("ci", max_examples=60, phases=[Phase.explicit, Phase.reuse, Phase.generate], **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile("ci")
