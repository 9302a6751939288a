"""Where results are written: a comparison's or a tournament's folder (claimed once), a
report's folder (checked before the analysis), and every file in them written through a
temporary name, so that a full disk or an interruption never leaves a half-written file
that looks complete."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from sim.core.checks import writable_folder
from sim.core.errors import PlaytestError


@contextmanager
def work_folder(out: str | Path | None) -> Iterator[Path]:
    """``out``, or a temporary folder removed afterwards (the API without ``out``)."""
    if out is not None:
        yield Path(out)
        return
    with tempfile.TemporaryDirectory(prefix="playtest-") as tmp:
        yield Path(tmp)


def claim(folder: Path, name: str, request: dict) -> None:
    """Make ``folder`` the home of ``request`` (FOLDER/NAME.json): refused when it holds a
    different request or anything else; a folder holding the same request is resumed."""
    writable_folder(folder)
    path = folder / f"{name}.json"
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise PlaytestError(f"{path} is not a {name} record; choose another --out")
        try:
            old = json.loads(path.read_text()).get("request")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError) as e:
            raise PlaytestError(f"cannot read {path}: {e}") from None
        if old != request:
            old = old if isinstance(old, dict) else {}
            keys = [k for k in dict.fromkeys([*old, *request]) if old.get(k) != request.get(k)]
            changed = "; ".join(f"{k} {old.get(k)!r} there, {request.get(k)!r} now"
                                for k in keys)
            raise PlaytestError(f"{folder} holds a different {name} ({changed}); choose "
                                "another --out")
    elif folder.exists() and any(folder.iterdir()):
        raise PlaytestError(f"{folder} exists and is not a {name} folder; choose another --out")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlaytestError(f"cannot write to {folder}: {e.strerror}") from None
    write_json(path, {"request": request, "status": "running"})


def output_folder(folder: Path, flag: str = "out") -> Path:
    """``folder``, made if needed, once a file can be written in it: refused in one line
    before any work is done for it (a read-only run folder, an unwritable --out)."""
    writable_folder(folder, flag)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".playtest-probe-"):
            pass
    except OSError as e:
        raise PlaytestError(f"cannot write to {folder}: {e.strerror or e}") from None
    return folder


def write_text(path: Path, text: str) -> Path:
    """``path`` holds ``text`` whole or is left as it was: written under a temporary name,
    then renamed; a write that fails (a full disk) is one line."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException as e:  # an interruption too: no temporary file is left behind
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise PlaytestError(f"cannot write {path}: {e.strerror or e}") from None
        raise
    return path


def write_csv(path: Path, table: pd.DataFrame) -> Path:
    return write_text(path, table.to_csv(index=False))


def write_json(path: Path, content: dict) -> Path:
    return write_text(path, json.dumps(content, indent=2, default=float) + "\n")


def read_json(folder: str | Path, name: str) -> dict:
    """FOLDER/NAME.json of a finished comparison or tournament."""
    path = Path(folder) / f"{name}.json"
    if path.exists() and not path.is_file():
        raise PlaytestError(f"{path} is not a {name} record")
    try:
        content = json.loads(path.read_text())
    except FileNotFoundError:
        raise PlaytestError(f"{folder} is not a {name} folder (no {name}.json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PlaytestError(f"cannot read {path}: {e}") from None
    if not isinstance(content, dict) or content.get("status") != "complete":
        raise PlaytestError(f"{folder} holds an unfinished {name}; rerun the same command "
                            "to finish it")
    return content
