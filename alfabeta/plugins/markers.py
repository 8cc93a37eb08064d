"""The hook markers, in one place: plugins decorate their hooks with ``hookimpl``."""

import pluggy

PROJECT = "alfabeta"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)
