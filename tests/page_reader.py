"""Read a written page back as a user sees it: its tables (header cells and row cells, as
text), its run header and its headings, with the standard library's HTML parser."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Table:
    classes: str
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)

    def column(self, name: str) -> list[str]:
        k = self.headers.index(name)
        return [r[k] for r in self.rows if len(r) > k]


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables: list[Table] = []
        self.headings: list[str] = []
        self.csv: list[str] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_thead = False
        self._text: list[str] | None = None
        self._what = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append(Table(a.get("class") or ""))
        elif tag == "thead":
            self._in_thead = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        elif tag in ("h2", "h3") or (tag == "p" and a.get("class") == "csv"):
            self._text, self._what = [], tag

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            t = self.tables[-1]
            if self._in_thead:
                t.headers = self._row
            else:
                t.rows.append(self._row)
            self._row = None
        elif tag == "thead":
            self._in_thead = False
        elif tag in ("h2", "h3", "p") and self._text is not None:
            text = "".join(self._text).strip()
            (self.csv if self._what == "p" else self.headings).append(text)
            self._text = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._text is not None:
            self._text.append(data)


def read(page: str) -> _Reader:
    r = _Reader()
    r.feed(page)
    return r


def run_header(page: str) -> dict[str, str]:
    """The first table of class "run": what -> value."""
    t = next(t for t in read(page).tables if t.classes == "run")
    return {row[0]: row[1] for row in t.rows}


P_VALUE = re.compile(r"(^p_|_p$|^p$)")
COUNTS = ("seat_games", "games", "eligible_seat_games", "unheld_seat_games",
          "dealt_seat_games", "of_seat_games")


def unformatted(t: Table, decimals: int = 2) -> list[str]:
    """Cells a reader should not see: a number with more than ``decimals`` decimals (but a
    p-value), a negative zero, a whole number of four digits or more without thousands
    separators, a count with decimals, a share not in percent."""
    bad = []
    for name in t.headers:
        for cell in t.column(name):
            if not cell:
                continue
            parts = [c for c in re.split(r"[\[\], ]+", cell) if c]
            for x in parts:
                if re.fullmatch(r"[+-]?\d+\.\d+", x) and not P_VALUE.search(name) and \
                        len(x.split(".")[1]) > decimals:
                    bad.append(f"{name}: {cell} (digits)")
                if re.fullmatch(r"-0(\.0+)?", x):
                    bad.append(f"{name}: {cell} (negative zero)")
                if re.fullmatch(r"[+-]?\d{4,}(\.\d+)?", x) and name not in ("seed", "level"):
                    bad.append(f"{name}: {cell} (no thousands separator)")
            if name in COUNTS and not re.fullmatch(r"\d{1,3}(,\d{3})*", cell):
                bad.append(f"{name}: {cell} (a count)")
            if name.endswith("share") and not cell.endswith("%"):
                bad.append(f"{name}: {cell} (a share)")
    return bad
