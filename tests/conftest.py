"""Shared test settings: hypothesis profiles and the size of the Monte-Carlo checks."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=200,
    deadline=None,  # the first call of a numba kernel compiles or loads it from the cache
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def scale() -> float:
    """CARDSIM_TEST_SCALE (default 1.0): multiplies the sample sizes of the Monte-Carlo checks."""
    value = float(os.environ.get("CARDSIM_TEST_SCALE", "1.0"))
    if value <= 0:
        raise ValueError(f"CARDSIM_TEST_SCALE must be positive, got {value}")
    return value
