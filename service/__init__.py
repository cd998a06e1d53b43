"""spitlog's service: the use cases (``games``, ``audit``, ``archiving``, ``bulk``) and
their errors, over the game store (``store``) and the archive (``archive``), with the
limits (``limits``), the HTTP adapter (``http``) and the command line (``cli``).

Layers, arrows inward only: ``cli`` (entry points) -> ``http``, ``store``, ``archive``,
``limits`` and ``workers/`` (adapters) -> ``games`` and the other use-case modules ->
``domain/``.
``tests/test_layers.py`` holds every module to it.
"""
