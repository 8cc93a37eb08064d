"""Start the web page's server: loopback only unless asked, with a clear error when the web
extra is missing."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

from alfabeta.core import InvalidOptionError

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog


def check_host(host: str, allow_remote: bool) -> None:
    """Refuse a host that is not a loopback address unless ``allow_remote``: the page runs
    searches and reads the results database for whoever reaches it."""
    if host == "localhost" or allow_remote:
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        raise InvalidOptionError(f"--host {host!r}: expected an IP address or localhost") from None
    if not loopback:
        raise InvalidOptionError(
            f"--host {host}: not a loopback address; anyone who reaches it could run "
            "searches on this machine. Add --allow-remote to serve it anyway"
        )


def serve(
    catalog: Catalog,
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    allow_remote: bool = False,
    out: IO[str] = sys.stdout,
) -> None:
    """Serve the page until Ctrl-C."""
    check_host(host, allow_remote)
    if not 0 < port < 65536:
        raise InvalidOptionError(f"--port {port}: expected 1 to 65535")
    if db is not None and not Path(db).is_file():
        raise InvalidOptionError(f"--db {db!r}: no such results database")
    try:
        import uvicorn

        from alfabeta.web.app import create_app
    except ImportError as missing:
        raise InvalidOptionError(
            f"alfabeta serve needs the web extra ({missing.name} is missing): "
            "pip install 'alfabeta[web]'"
        ) from None
    app = create_app(catalog, db)
    print(f"alfabeta: serving on http://{host}:{port}/ (Ctrl-C to stop)", file=out, flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
