"""Shared fixtures (``ctx``: one emulated core, current for the test; ``machine``: the machine model) and
the hypothesis profiles for the fuzz tests. Plain helpers of the kernel-API tests are in api_support.py.

Hypothesis profiles: ``ci`` (the default, what ``.ci/run``'s plain ``python -m pytest -q`` uses; the seed
is fixed in pyproject.toml's addopts): 60 examples per property, no shrinking, so all fuzzing stays well
under a minute even when a property fails.
``thorough``: 1000 examples per property (``--hypothesis-profile=thorough``), for local runs.
No example database is written (runs are reproducible from the seed alone).
"""
import pytest
from hypothesis import HealthCheck, Phase, settings

from toolkit.engine.runtime import CoreContext, running
from toolkit.machine import Machine, load_machine

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.function_scoped_fixture])
# ci: a failure is reported as found (no shrinking), so a broken build cannot spend minutes here
settings.register_profile("ci", max_examples=60, phases=[Phase.explicit, Phase.reuse, Phase.generate], **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile("ci")


@pytest.fixture
def ctx():
    """A fresh core context, current while the test runs (what the kernel APIs act on)."""
    c = CoreContext()
    with running(c):
        yield c


@pytest.fixture(scope="module")
def machine() -> Machine:
    return load_machine()
