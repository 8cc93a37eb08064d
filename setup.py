"""Build script: cythonizes every .pyx under alfabeta/ and compiles the extensions, both on
every core (cythonize's nthreads, build_ext's parallel jobs).

Metadata, including the entry points that register the project's own plugins, lives in
pyproject.toml; only what needs code lives here. ``pip install -v .`` shows each module as
it is cythonized and compiled.
"""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
JOBS = os.cpu_count() or 1


class ParallelBuildExt(build_ext):
    """build_ext compiling the extensions in parallel unless ``-j`` says otherwise."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS


def extensions() -> list[Extension]:
    modules = []
    for pyx in sorted(ROOT.glob("alfabeta/**/*.pyx")):
        relative = pyx.relative_to(ROOT).with_suffix("")
        modules.append(Extension(".".join(relative.parts), [str(pyx.relative_to(ROOT))]))
    return modules


setup(
    cmdclass={"build_ext": ParallelBuildExt},
    ext_modules=cythonize(
        extensions(),
        language_level=3,
        compiler_directives={"embedsignature": True},
        nthreads=JOBS,
    ),
)
