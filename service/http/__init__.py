"""The HTTP adapter: the WSGI app (``app``), the one request pipeline (``pipeline``: body,
credentials, limits, gate, use case, answer, metrics), the routes and their documents
(``routes``, ``openapi``, ``schemas``, ``shapes``, ``docs``), problem+json (``problems``),
live answers (``live``), the web page and the API's try-it page (``web``)."""
