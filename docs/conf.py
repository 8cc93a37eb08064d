"""Sphinx configuration of alfabeta's documentation site: the Markdown guides (MyST) and the
API reference generated from docstrings. Build: sphinx-build -W -b html docs docs/_build."""

import alfabeta

project = "alfabeta"
author = "the alfabeta developers"
copyright = "the alfabeta developers, MIT licence"
release = alfabeta.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # signatures name their types; the docstrings say what they mean
html_theme = "alabaster"
html_static_path: list[str] = []
suppress_warnings = ["myst.xref_missing"]
