"""Settings shared by every test.

Hypothesis runs without its per-example time limit: the suite runs on shared machines
whose load varies, and a test that fails for being slow says nothing about the rules
(speed is measured in ``benchmarks/``, never asserted in a test).
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("tablee", deadline=None)
settings.load_profile("tablee")
