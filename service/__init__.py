"""spitlog's service: the use cases (``games``, ``audit``) and their errors, over the game
store (``store``), with the limits (``limits``), the HTTP adapter (``http``) and the
command line (``cli``).

Layers, arrows inward only: ``cli`` (entry points) -> ``http``, ``store``, ``limits`` and
``workers/`` (adapters) -> ``games`` and the other use-case modules -> ``domain/``.
``tests/test_layers.py`` holds every module to it.

``create_app`` is imported lazily: gunicorn's gevent workers patch the standard library
when they start, before the app (and redis) should be imported.
"""

__all__ = ["create_app"]


def __getattr__(name):
    if name == "create_app":
        from .http.app import create_app

        return create_app
    raise AttributeError(name)
