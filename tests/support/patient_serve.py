"""``spitlog serve`` with the graceful timeout of its stop taken from
``TEST_GRACEFUL_TIMEOUT_S`` (whole seconds) instead of its own: a test that stops the server
while a request is in flight can then tell a stop that waited for that timeout from one
that did not, by a bound well under it, however slow the machine.

    python tests/support/patient_serve.py serve [--bind HOST:PORT]
"""

import importlib
import os
import sys

from service.cli import main

if __name__ == "__main__":
    serve = importlib.import_module("service.cli.serve")  # the module (``serve``: its command)
    serve.GRACEFUL_TIMEOUT_S = int(os.environ["TEST_GRACEFUL_TIMEOUT_S"])  # gunicorn: an int
    sys.exit(main(sys.argv[1:]))
