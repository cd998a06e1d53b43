"""The test suite's own knobs (docs/testing.md): longer profiles of the generated tests.
They are variables of the test run, not settings of the service, and are read here only:
importing this module (``tests/conftest.py`` does, first) takes them out of the
environment, so that no process a test starts sees them (the service warns of a
``SPITLOG_*`` variable that is not one of its settings)."""

import os

NAMES = ("SPITLOG_FUZZ_LONG", "SPITLOG_PROPERTY_EXAMPLES", "SPITLOG_AUDIT_GAMES",
         "SPITLOG_SCHEMATHESIS_EXAMPLES")  # fmt: skip
_GIVEN = {name: os.environ.pop(name) for name in NAMES if name in os.environ}

# the fuzzers' long run, with new examples each time (else the same every run)
FUZZ_LONG = _GIVEN.get("SPITLOG_FUZZ_LONG") == "1"
# games per property (Hypothesis); set, new examples each run (else the same every run)
PROPERTY_EXAMPLES = int(_GIVEN.get("SPITLOG_PROPERTY_EXAMPLES", "100"))
PROPERTY_EXPLORE = "SPITLOG_PROPERTY_EXAMPLES" in _GIVEN
AUDIT_GAMES = int(_GIVEN.get("SPITLOG_AUDIT_GAMES", "150"))  # simulated games per mode
SCHEMATHESIS_EXAMPLES = int(_GIVEN.get("SPITLOG_SCHEMATHESIS_EXAMPLES", "25"))  # per operation
