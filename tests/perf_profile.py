"""Where a game's compiled time goes, by function: ``perf`` over one thread's games.

    python tests/perf_profile.py GAME BOTS [PLAYERS] [GAMES]

compiles the engine into an empty cache (a kernel loaded from the cache has no function
addresses to give), writes a perf map of every compiled function (``/tmp/perf-PID.map``, which
``perf report`` reads for code it cannot name), records the timed games alone with
``perf record -p`` and prints the top entries. BOTS is one bot for every seat or a
comma-separated line-up. For source lines within a function, run with NUMBA_DEBUGINFO=1 and
``perf annotate``. Needs ``perf`` (linux-tools).
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))


def perf_map() -> int:
    """Write the perf map of every compiled function in this process; how many."""
    from numba.core.registry import CPUDispatcher

    addresses = {}
    for obj in gc.get_objects():
        if isinstance(obj, CPUDispatcher):
            for cres in obj.overloads.values():
                library = cres.library
                for f in library._final_module.functions:
                    if not f.is_declaration:
                        address = library.get_pointer_to_function(f.name)
                        if address:
                            addresses[address] = f.name
    ranked = sorted(addresses.items())
    ends = [a for a, _ in ranked[1:]] + [ranked[-1][0] + 4096]
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for (address, name), end in zip(ranked, ends):
            f.write(f"{address:x} {min(end - address, 1 << 20):x} {name}\n")
    return len(ranked)


def readable(symbol: str) -> str:
    """numba's mangled name (``_ZN3sim8festival8features11_held_cardsB3v95...``) as a
    dotted one (``sim.festival.features._held_cards``); other names as they are."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        size = int(symbol[i:j])
        parts.append(symbol[j:j + size])
        i = j + size
    return ".".join(parts) or symbol


def main(game: str, bots: str, players: int, games: int) -> None:
    import numba

    from sim.core.registry import game_module

    module = game_module(game)
    lineup = bots.split(",") if "," in bots else [bots] * players
    prepared, _ = module.prepare(len(lineup), lineup)
    numba.set_num_threads(1)
    module.play_chunk(prepared, 1, 0, 2)  # compiles, into the empty cache
    mapped = perf_map()
    data = Path(tempfile.mkdtemp()) / "perf.data"
    perf = subprocess.Popen(["perf", "record", "-q", "-p", str(os.getpid()), "-o", str(data)],
                            stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attached
    t0 = time.perf_counter()
    module.play_chunk(prepared, 1, 0, games)
    rate = games / (time.perf_counter() - t0)
    perf.send_signal(signal.SIGINT)
    perf.wait()
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort",
                             "sym", "--stdio"], capture_output=True, text=True).stdout
    Path(f"/tmp/perf-{os.getpid()}.map").unlink()
    shutil.rmtree(data.parent)
    print(f"{game}, {','.join(lineup)}: {rate:,.0f} games/s on one thread under perf; "
          f"{mapped} compiled functions mapped")
    for line in [x for x in report.splitlines() if x.strip() and not x.startswith("#")][:20]:
        share, _, symbol = line.split(maxsplit=2)
        print(f"{share:>8}  {readable(symbol)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 2:
        raise SystemExit(__doc__)
    seats = len(args[1].split(","))
    players = int(args[2]) if len(args) > 2 else seats if seats > 1 else 4
    games = int(args[3]) if len(args) > 3 else 2000
    if seats > 1 and players != seats:  # a line-up sets the players: another count is refused
        raise SystemExit(f"perf_profile: {seats} bots for {players} players")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache
        from sim.core.errors import PlaytestError

        try:
            main(args[0], args[1], players, games)
        except PlaytestError as e:
            raise SystemExit(f"perf_profile: {e}") from None
