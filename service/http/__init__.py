"""The HTTP adapter: the WSGI app (``app``), the one request pipeline (``pipeline``: body,
credentials, limits, gate, use case, answer, metrics), the routes and their documents
(``routes``, ``openapi``, ``schemas``, ``docs``), problem+json (``problems``), live answers
(``live``) and the web page (``web``)."""
