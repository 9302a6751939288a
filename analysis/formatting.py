"""Numbers as the pages and the summary write them: signed differences never read "-0.0"."""

from __future__ import annotations


def signed(x: float, digits: int = 1) -> str:
    """A signed difference to ``digits`` decimals; a value that rounds to zero is "+0.0",
    never "-0.0"; NaN is empty."""
    if x != x:
        return ""
    return f"{round(float(x), digits) + 0.0:+.{digits}f}"


def number(x: float, digits: int = 2) -> str:
    """A number to ``digits`` decimals with thousands separators; never "-0.00"; NaN is
    empty."""
    if x != x:
        return ""
    return f"{round(float(x), digits) + 0.0:,.{digits}f}"


def overrides(sets: dict | None) -> str:
    """Rule overrides as typed on the command line (the mode is said apart)."""
    rules = {k: v for k, v in (sets or {}).items() if k != "mode"}
    return ", ".join(f"{k}={v!r}" for k, v in rules.items()) if rules else "none"


def interval(low: float, high: float, digits: int = 1) -> str:
    return "" if low != low else f"[{signed(low, digits)}, {signed(high, digits)}]"
