"""``spitlog``: the command line, the entry points of every process (nothing imports them).

- ``main``     the command group; ``common``: the settings every command reads;
- ``serve``    ``spitlog serve`` (gunicorn) and ``spitlog openapi``;
- ``dev``      ``spitlog dev``: everything on an embedded Redis, for trying it;
- ``workers``  ``spitlog worker`` and ``spitlog scheduler``;
- ``console``  ``spitlog export|audit|replay|simulate``: tools on exported games;
- ``archive``  ``spitlog audit ARCHIVE`` and ``spitlog dump``: tools on a whole archive.

Imports stay inside the commands: gunicorn's gevent workers patch the standard library
when they start, and the app is best imported after that.
"""

from .main import main

__all__ = ["main"]
