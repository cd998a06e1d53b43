"""spitlog's REST service: Flask API (``app``, ``api``), the Redis event store (``store``),
the use cases (``games``), live updates (``live``) and the command line (``cli``).

``create_app`` is imported lazily: gunicorn's gevent workers patch the standard library
when they start, before the app (and redis) should be imported.
"""

__all__ = ["create_app"]


def __getattr__(name):
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
