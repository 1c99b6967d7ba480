"""gunicorn's server hooks for the API, loaded by file with ``--config`` (see ``app.gunicorn_command``).

A request whose body is over the API's limit is answered with a 413 without
reading that body, so the connection cannot carry another request: the hook
tells gunicorn, before the API runs, to answer it with ``Connection: close``
and to close the connection after the 413. (gunicorn drops a ``Connection``
header that the application sets, so the API cannot say it by itself.)

gunicorn loads this file by its path, so it imports only the standard library.
"""

from __future__ import annotations

import os
from typing import Any

DEFAULT_MAX_BODY_BYTES = 64 * 1024
"""The default of ``Settings.max_body_bytes`` in app.py, which reads the same ``ORRERY_MAX_BODY_BYTES``."""


def max_body_bytes() -> int:
    """The API's body limit, read from the environment as ``Settings.from_env`` reads it."""
    return int(os.environ.get("ORRERY_MAX_BODY_BYTES", str(DEFAULT_MAX_BODY_BYTES)))


def pre_request(worker: Any, req: Any) -> None:
    """Mark a request that declares a body over the limit: gunicorn closes its connection after the answer."""
    worker.log.debug("%s %s", req.method, req.path)
    for name, value in req.headers:
        if name == "CONTENT-LENGTH" and value.isdigit() and (len(value) > 18 or int(value) > max_body_bytes()):
            req.must_close = True


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    """Under gevent workers, close a connection that must close as the sync and gthread workers do.

    gunicorn's gevent worker closes the socket outright, so a request body left
    unread (a 413's) makes the kernel answer with RST, which can destroy the
    answer in flight. Send FIN and drain what the client still sends first
    (gunicorn's own lingering close); the worker's close then finds it closed.
    """
    if resp is None or not type(worker).__module__.endswith("ggevent") or not resp.should_close():
        return
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        from gunicorn.util import close_graceful

        close_graceful(sock)
