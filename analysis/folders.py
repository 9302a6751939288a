"""Where results are written: a command's folder (claimed once, locked while it is written),
a page's folder (checked before the analysis, written whole), and every file in them written
through a temporary name, so that a full disk or an interruption never leaves a half-written
file or page that looks complete."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from sim.core.checks import path_fits, writable_folder
from sim.core.errors import PlaytestError
from sim.core.run_folder import LOCK, folder_lock


@contextmanager
def claimed(out: str | Path | None, name: str, request: dict) -> Iterator[Path]:
    """The folder of a command's request (``out``, or a temporary folder removed afterwards:
    the API without ``out``), claimed for it (``claim``) and locked while the block runs: a
    second command writing the same folder is refused in one line."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="playtest-") as tmp:
            claim(Path(tmp), name, request)
            yield Path(tmp)
        return
    folder = Path(out)
    claimable(folder, name, request)  # before the lock: a refused folder gets no lock file
    with folder_lock(folder, name):
        claim(folder, name, request)
        yield folder


def claim(folder: Path, name: str, request: dict) -> None:
    """Make ``folder`` the home of ``request`` (FOLDER/NAME.json): refused when it holds a
    different request or anything else; a folder holding the same request is resumed."""
    claimable(folder, name, request)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlaytestError(f"cannot write to {folder}: {e.strerror}") from None
    write_json(folder / f"{name}.json", {"request": request, "status": "running"})


def claimable(folder: Path, name: str, request: dict) -> None:
    """``claim``'s checks, nothing written: refused in one line when ``folder`` holds a
    different request or anything else."""
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
    elif folder.exists() and any(p.name != LOCK for p in folder.iterdir()):
        raise PlaytestError(f"{folder} exists and is not a {name} folder; choose another --out")


@contextmanager
def staged_output(folder: Path, command: str, flag: str = "out") -> Iterator[Path]:
    """A page's folder written whole or not at all. The block writes into a staging folder
    inside ``folder`` (checked writable first, and locked: one writer at a time); when it
    ends, the page's files replace their namesakes in ``folder``, the old index.html removed
    first and the new one put last, so the folder never holds a page beside another run's
    tables. When the block fails (a full disk, an interruption), the staging folder is
    removed and ``folder`` is left as it was (one made for the page is removed). Other files
    in ``folder`` are not touched."""
    writable_folder(folder, flag)  # a path the system cannot make, before it is looked at
    made = not folder.exists()
    output_folder(folder, flag)
    with folder_lock(folder, command):
        for old in folder.glob(f"{STAGING}*"):  # left by a killed writer: nobody holds it
            shutil.rmtree(old, ignore_errors=True)
        stage = folder / f"{STAGING}{os.getpid()}"
        try:
            stage.mkdir()
            yield stage
            names = sorted(p.name for p in stage.iterdir())
            (folder / PAGE).unlink(missing_ok=True)
            for name in sorted(names, key=lambda n: n == PAGE):  # the page last
                os.replace(stage / name, folder / name)
        except BaseException as e:
            shutil.rmtree(stage, ignore_errors=True)
            if made:  # a first page that failed leaves no folder behind (its lock included)
                (folder / LOCK).unlink(missing_ok=True)
                with contextlib.suppress(OSError):
                    folder.rmdir()
            if isinstance(e, OSError):
                raise PlaytestError(f"cannot write to {folder}: {e.strerror or e}") from None
            raise
        shutil.rmtree(stage, ignore_errors=True)


STAGING = ".staging-"  # a page's folder being written, inside its output folder
PAGE = "index.html"


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


# 12 significant digits: every figure's own precision (a rate's, a p-value's 1e-300) is kept,
# the float's binary tail (6.2700000000000005, 2553.3333333333335) is not
CSV_FLOAT = "%.12g"


def write_csv(path: Path, table: pd.DataFrame) -> Path:
    """``table`` as CSV, whole or not at all, floats to CSV_FLOAT."""
    return write_text(path, table.to_csv(index=False, float_format=CSV_FLOAT))


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


def bots_file_out(out: str | Path, work: str | Path | None, suffix: str) -> tuple[Path, Path]:
    """A command's bots file (``out``, NAME.toml, its folder made) and work folder (``work``,
    or OUT without .toml plus ``suffix``), refused in one line when ``out`` cannot be one."""
    out = Path(out)
    path_fits(out, "out")
    if out.is_dir() or out.suffix != ".toml":
        raise PlaytestError(f"--out {out}: the bots file to write, NAME.toml")
    writable_folder(out.parent)
    out.parent.mkdir(parents=True, exist_ok=True)
    return out, Path(work) if work is not None else out.with_suffix(suffix)
