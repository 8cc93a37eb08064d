"""Data files without pickle: ``NAME.json`` (what the data is) beside ``NAME.npz`` (numpy
arrays, read with ``allow_pickle=False``). Solved tables and learned models are stored so.

``write`` saves both; ``read`` checks the JSON's ``format`` and ``version`` and returns the
metadata and the arrays; ``check_array`` validates one array's dtype, shape and finiteness;
``problem_text`` words what went wrong reading a JSON object's entries.
Every failure — a missing, truncated, foreign or pickled file — raises the caller's error
type with a message naming the file and what is wrong.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np


def paths(path: str | Path) -> tuple[Path, Path]:
    """``(NAME.npz, NAME.json)`` for ``path``, which may name either file or neither."""
    path = Path(path)
    stem = path.with_suffix("") if path.suffix in (".npz", ".json") else path
    return stem.with_name(stem.name + ".npz"), stem.with_name(stem.name + ".json")


def write(
    path: str | Path,
    arrays: dict[str, np.ndarray],
    meta: dict[str, Any],
    error: type[Exception],
) -> tuple[Path, Path]:
    """Write ``arrays`` and ``meta`` (JSON-serialisable) as the pair named by ``path``."""
    npz, meta_path = paths(path)
    try:
        np.savez_compressed(npz, allow_pickle=False, **arrays)
        meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    except OSError as problem:
        raise error(f"cannot write {str(npz)!r}: {problem}") from None
    return npz, meta_path


def read(
    path: str | Path,
    what: str,
    format: str,
    version: int,
    names: tuple[str, ...],
    error: type[Exception],
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The metadata and the arrays ``names`` of the pair named by ``path``; ``what`` names
    the kind of file in messages (``"solved table"``)."""
    npz, meta_path = paths(path)
    meta = read_json(meta_path, what, format, error)
    if meta.get("version") != version:
        raise error(
            f"{str(meta_path)!r}: {what} format version {meta.get('version')!r}, this "
            f"alfabeta reads version {version}"
        )
    try:
        with open(npz, "rb") as handle, np.load(handle, allow_pickle=False) as data:
            arrays = {name: data[name] for name in names}
    except FileNotFoundError:
        raise error(f"{what} {str(npz)!r}: no such file") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as problem:
        raise error(f"{what} {str(npz)!r}: unreadable ({problem})") from None
    return meta, arrays


def read_json(path: Path, what: str, format: str, error: type[Exception]) -> dict[str, Any]:
    """The JSON object in ``path`` whose ``format`` is ``format``; ``error`` otherwise."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise error(f"{what} {str(path)!r}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as problem:
        raise error(f"{what} {str(path)!r}: not JSON ({problem})") from None
    if not isinstance(data, dict) or data.get("format") != format:
        raise error(f"{str(path)!r} is not an alfabeta {what}")
    return data


def problem_text(problem: Exception) -> str:
    """What ``problem``, met while reading the entries of a file's JSON object, says of the
    file: a missing entry (a KeyError, whose own text is only the key) is named as one."""
    if isinstance(problem, KeyError):
        return f"it has no {problem} entry"
    return str(problem)


def check_array(
    where: str,
    name: str,
    array: np.ndarray,
    dtype: Any,
    shape: tuple[int | None, ...],
    error: type[Exception],
) -> None:
    """Raise ``error`` unless ``array`` has ``dtype`` and ``shape`` (None: any length) and,
    for floats, only finite values."""
    expected = np.dtype(dtype)
    fits = array.ndim == len(shape) and all(
        want is None or want == have for want, have in zip(shape, array.shape, strict=False)
    )
    if array.dtype != expected or not fits:
        wanted = ", ".join("N" if n is None else str(n) for n in shape)
        raise error(
            f"{where}: {name} is {array.dtype}{list(array.shape)}, expected {expected}[{wanted}]"
        )
    if np.issubdtype(array.dtype, np.floating) and not np.all(np.isfinite(array)):
        raise error(f"{where}: {name} holds a value that is not finite")
