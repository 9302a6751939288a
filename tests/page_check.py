"""The pages as a browser lays them out (a script, not a test: it needs Chromium).

    python tests/page_check.py PAGE.html [PAGE.html ...] [--shots DIR] [--width 1200]

Each page is opened in headless Chromium at ``--width`` pixels with a script added that
measures, after layout, every table and image: one wider than the page must sit in a box
that scrolls sideways (the reports' ``div.scroll``), or the check fails. Every table's cells
are then read back (tests/page_reader.py) for numbers a reader should not see: too many
digits, a negative zero, a count without thousands separators, a share not in percent.
``--shots`` keeps a full-page screenshot of each page. Prints one line per page; exits 1
when any page fails. The README's "Statistics" section holds the latest result.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import page_reader  # noqa: E402

MEASURE = """
<script>
window.addEventListener('load', () => {
  const page = document.documentElement.clientWidth;
  const bad = [];
  for (const el of document.querySelectorAll('table, img')) {
    const r = el.getBoundingClientRect();
    if (r.right <= page + 1) continue;
    let box = el.parentElement, held = false;
    while (box && box !== document.body) {
      const s = getComputedStyle(box);
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll')
          && box.getBoundingClientRect().right <= page + 1) { held = true; break; }
      box = box.parentElement;
    }
    if (!held) bad.push(el.tagName.toLowerCase() + ' ' + Math.round(r.width) + 'px');
  }
  const out = document.createElement('pre');
  out.id = 'page-check';
  out.textContent = JSON.stringify({page: page, tables: document.querySelectorAll('table').length,
                                    scrolled: [...document.querySelectorAll('.scroll')]
                                      .filter(d => d.scrollWidth > d.clientWidth).length,
                                    overflow: bad});
  document.body.appendChild(out);
});
</script>
"""


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("page_check: no Chromium found (apt install chromium)")


def _chrome(args: list[str], profile: str) -> subprocess.CompletedProcess:
    return subprocess.run([browser(), "--headless", "--no-sandbox", "--disable-gpu",
                           "--no-first-run", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120)


def check(page: Path, width: int, shots: Path | None, profile: str) -> tuple[bool, str]:
    import json

    text = page.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / page.name
        probe.write_text(text.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
        dom = _chrome([f"--window-size={width},1000", "--virtual-time-budget=5000",
                       "--dump-dom", probe.as_uri()], profile).stdout
    found = re.search(r"<pre id=\"page-check\">(.*?)</pre>", dom, re.S)
    if not found:
        return False, f"{page}: the browser gave no measurement"
    m = json.loads(found.group(1).replace("&quot;", '"'))
    bad = [b for t in page_reader.read(text).tables for b in page_reader.unformatted(t, 3)]
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        shot = shots / f"{page.parent.name}-{page.stem}.png"
        _chrome([f"--window-size={width},4000", f"--screenshot={shot}", page.as_uri()],
                profile)
    ok = not m["overflow"] and not bad
    return ok, (f"{'ok  ' if ok else 'FAIL'} {page}: {m['tables']} tables at {m['page']} px, "
                f"{m['scrolled']} scrolled in their box, overflowing: "
                f"{', '.join(m['overflow']) or 'none'}; unformatted cells: "
                f"{'; '.join(bad[:5]) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pages", nargs="+", type=Path)
    p.add_argument("--shots", type=Path, help="keep a screenshot of each page here")
    p.add_argument("--width", type=int, default=1200)
    a = p.parse_args(argv)
    failed = 0
    with tempfile.TemporaryDirectory() as profile:
        for page in a.pages:
            ok, line = check(page, a.width, a.shots, profile)
            print(line, flush=True)
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
