"""The plugin system (design §5): hook markers and specs, registries, ``name(key=value)``
specifications, and the fault-tolerant loader behind :class:`Catalog`."""

from alfabeta.plugins.markers import hookimpl, hookspec

__all__ = ["hookimpl", "hookspec"]
