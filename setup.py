"""Build script: cythonizes every .pyx under alfabeta/.

Metadata, including the entry points that register the project's own plugins, lives in
pyproject.toml; only what needs code lives here.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent


def extensions() -> list[Extension]:
    modules = []
    for pyx in sorted(ROOT.glob("alfabeta/**/*.pyx")):
        relative = pyx.relative_to(ROOT).with_suffix("")
        modules.append(Extension(".".join(relative.parts), [str(pyx.relative_to(ROOT))]))
    return modules


setup(
    ext_modules=cythonize(
        extensions(),
        language_level=3,
        compiler_directives={"embedsignature": True},
    ),
)
