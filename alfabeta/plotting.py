"""Plots (the optional ``plot`` extra): matplotlib drawn off-screen, to files."""

from __future__ import annotations

from typing import Any

from alfabeta.core.errors import InvalidOptionError


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the file-only Agg backend; InvalidOptionError naming the extra
    when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidOptionError(
            "--plot needs the plot extra: pip install 'alfabeta[plot]'"
        ) from None
    return plt
