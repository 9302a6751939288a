"""The folder of a comparison or a tournament: claimed once, its JSON written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
    if path.exists():
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


def write_json(path: Path, content: dict) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(content, indent=2, default=float) + "\n")
    os.replace(tmp, path)


def read_json(folder: str | Path, name: str) -> dict:
    """FOLDER/NAME.json of a finished comparison or tournament."""
    path = Path(folder) / f"{name}.json"
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
