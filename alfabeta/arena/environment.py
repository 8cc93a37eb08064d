"""Where and with what results were produced: the facts every benchmark and run records."""

from __future__ import annotations

import os
import platform
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog


def environment(catalog: Catalog | None = None) -> dict[str, Any]:
    """Versions (alfabeta, Python, numpy, pluggy, attrs), the machine, the host, the time, and
    with ``catalog`` every loaded plugin with its distribution and version."""
    import attrs
    import numpy
    import pluggy

    from alfabeta import __version__

    facts: dict[str, Any] = {
        "alfabeta": __version__,
        "compiled": True,  # alfabeta has no pure-Python build: the core is always compiled
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": numpy.__version__,
        "pluggy": pluggy.__version__,
        "attrs": attrs.__version__,
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "system": platform.platform(),
        "cpus": os.cpu_count(),
        "host": platform.node(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if catalog is not None:
        facts["plugins"] = [
            {"name": p.name, "distribution": p.distribution, "version": p.version}
            for p in catalog.plugins
        ]
    return facts
