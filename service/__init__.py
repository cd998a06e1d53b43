"""spitlog's service: the use cases (``games``, ``audit``) and their errors, over the game
store (``store``), with the limits (``limits``), the HTTP adapter (``http``) and the
command line (``cli``).

Layers, arrows inward only: ``cli`` (entry points) -> ``http``, ``store``, ``limits`` and
``workers/`` (adapters) -> ``games`` and the other use-case modules -> ``domain/``.
``tests/test_layers.py`` holds every module to it.
"""
