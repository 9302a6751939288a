"""The ``playtest`` command line."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from analysis import BAND, MODEL_GAMES
from analysis.catalogue import help_text
from sim.core.data import parse_sets
from sim.core.errors import ParameterError, PlaytestError
from sim.core.registry import GAMES


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad command in one line, without the usage block."""

    def error(self, message: str):
        sys.stderr.write(f"playtest: error: {message} (see '{self.prog} --help')\n")
        sys.exit(2)


class _Named(argparse.Action):
    """An option of two names (--mode and --side): its value, and under DEST_flag the name
    the user wrote, so that an error names the option as it was typed."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_flag", (option_string or self.dest).lstrip("-")
                .replace("-", "_"))


def _bots(game: str, text: str | None, players: int) -> list[str]:
    from sim.core.runner import resolve_bots

    names = None if text is None else [b.strip() for b in text.split(",") if b.strip()]
    return resolve_bots(game, names, players)


def _out(a, default: str) -> str:
    """--out as given (an empty one is refused, not taken as the default), else ``default``."""
    from sim.core.checks import path

    return default if a.out is None else str(path("out", a.out, optional=False))


def _interrupted(kept: str) -> int:
    """What a resumable command says when it is interrupted (Ctrl-C, or SIGTERM through
    _on_sigterm), and its exit code (the shell's 128 + the signal's number)."""
    how, code = ("terminated", 143) if _TERMINATED.is_set() else ("interrupted", 130)
    sys.stderr.write(f"playtest: {how}: {kept}; run the same command again to resume\n")
    return code


_TERMINATED = threading.Event()  # a SIGTERM arrived during this command


def _on_sigterm(signum, frame) -> None:
    """SIGTERM (a scheduler's or a shell's kill) stops a command as Ctrl-C does: its
    finished work kept, its workers stopped, and one line saying what was kept."""
    _TERMINATED.set()
    raise KeyboardInterrupt


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """``_on_sigterm`` while a command runs (from the main thread only: Python takes signal
    handlers there); the handler before it put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _TERMINATED.clear()
    before = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def cmd_simulate(a) -> int:
    from sim.core.runner import run

    out = _out(a, f"runs/{a.game}-{a.players}p-seed{a.seed}")
    try:
        info = run(a.game, a.games, a.players, _bots(a.game, a.bots, a.players), a.seed, out,
                   backend=a.backend, chunk_size=a.chunk_size, threads=a.threads,
                   workers=a.workers, address=a.address, rotate=not a.no_rotate, data=a.data,
                   progress=not a.quiet, sets=_sets(a, a.game))
    except KeyboardInterrupt:
        return _interrupted(f"finished chunks are kept in {out}")
    total, now = info["request"]["games"], info["games_now"]
    if now == 0:
        print(f"{out} is already complete: {total:,} games, played in {info['seconds']:.1f} s")
    elif now < total:
        print(f"{now:,} games played now, {total:,} in total ({info['seconds']:.1f} s in all) "
              f"-> {out}")
    else:
        print(f"{total:,} games in {info['seconds']:.1f} s -> {out}")
    if a.report:
        return _report(out, Path(out) / "report", progress=not a.quiet)
    return 0


def _report(run: str, out: str | Path | None, model_games: int = MODEL_GAMES,
            band: float = BAND, progress: bool = True) -> int:
    from reports.html import write_report

    try:
        print(f"report: {write_report(run, out, model_games, band, progress)}")
    except KeyboardInterrupt:
        sys.stderr.write("playtest: interrupted: the report was not written (a page is "
                         "written whole or not at all); run the same command again\n")
        return 130
    return 0


def cmd_report(a) -> int:
    return _report(a.run, a.out, a.model_games, a.band, not a.quiet)


def cmd_replay(a) -> int:
    from sim.core.checks import MAX_GAMES, MAX_SEED, whole
    from sim.core.registry import game_module
    from sim.core.run_folder import read_info

    data = a.data
    if a.run:
        info = read_info(a.run)
        req = info["request"]
        if req["game"] not in GAMES:
            raise PlaytestError(f"{a.run}/run.json records an unknown game {req['game']!r} "
                                f"(available: {', '.join(GAMES)}); was the file edited?")
        game, seed, players, bots, rotate = (req["game"], req["seed"], req["players"],
                                             req["bots"], req["rotate"])
        given = {"game": a.game, "seed": a.seed, "players": a.players,
                 "bots": _bots(game, a.bots, players) if a.bots else None,
                 "rotate": False if a.no_rotate else None}
        for key, value in given.items():
            if value is not None and value != req[key]:
                flag = "--no-rotate" if key == "rotate" else key if key == "game" else f"--{key}"
                raise PlaytestError(f"{flag} {value!r} contradicts the run in {a.run} "
                                    f"({req[key]!r}); leave it out to replay the run's game")
        whole("game", a.game_index, 0, req["games"] - 1)
        data = data or _run_data(info)
        sets = req.get("sets", {})
        module = game_module(game)
        if a.mode is not None:
            if not hasattr(module, "MODES"):
                raise ParameterError(getattr(a, "mode_flag", "mode"),
                                     f"is for a game with modes; {game} has none")
            word = getattr(module, "MODE_WORD", "mode")
            played = sets.get("mode", getattr(module, "DEFAULT_MODE", None))
            if a.mode != played:
                raise PlaytestError(f"--{word} {a.mode} contradicts the run in {a.run} ({word} "
                                    f"{played}); leave it out to replay the run's game")
        rules = {k: v for k, v in sets.items() if k != "mode"}
        if a.bots_file and a.game is None:  # main() adds a file's bots once GAME is known
            with _bots_files(game, a.bots_file):
                return _replay_run(a, info, game, seed, players, bots, rotate, data, sets,
                                   rules)
        return _replay_run(a, info, game, seed, players, bots, rotate, data, sets, rules)
    if a.game is None:
        raise PlaytestError("replay needs GAME (or --run DIR)")
    seed = 0 if a.seed is None else whole("seed", a.seed, 0, MAX_SEED)
    game, players = a.game, a.players or 4
    whole("game", a.game_index, 0, MAX_GAMES)
    bots, rotate = _bots(game, a.bots, players), not a.no_rotate
    return _replay(game, seed, a.game_index, players, bots, rotate, data, _sets(a, game))


def _replay(game, seed, index, players, bots, rotate, data, sets) -> int:
    from sim.core.registry import game_module

    lines, _ = game_module(game).replay(seed, index, players, bots, rotate, data,
                                        sets=sets or None)
    print("\n".join(lines))
    return 0


def _replay_run(a, info, game, seed, players, bots, rotate, data, sets, rules) -> int:
    """replay --run: the run's game, with the bots it recorded from files."""
    from sim.core.registry import game_module
    from strategies.presets import added_bots, recorded

    with added_bots(game, recorded(info["request"].get("bot_presets"), f"{a.run}/run.json")):
        if a.set and parse_sets(a.set) != rules:
            raise PlaytestError(f"--set contradicts the run in {a.run} ("
                                f"{rules or 'no --set'}); leave it out to replay the run's "
                                "game")
        try:
            _, meta = game_module(game).prepare(players, bots, data, rotate, sets=sets or None)
        except PlaytestError as e:  # what the run recorded, not what the user typed
            raise PlaytestError(f"{a.run}/run.json records a game {game!r} cannot play as "
                                f"recorded ({e}); was the file edited? Play the run again "
                                "with simulate") from None
        if meta["data_hash"] != info["request"]["data_hash"]:
            raise PlaytestError(f"the card data of {a.run} has changed since it was played, "
                                f"or its run.json was edited (hash "
                                f"{info['request']['data_hash']} there, {meta['data_hash']} "
                                "now)")
        return _replay(game, seed, a.game_index, players, bots, rotate, data, sets)


def _run_data(info: dict) -> str | None:
    """The data folder a run recorded; when it is gone (a run folder moved to another
    machine), the shipped data, whose hash ``replay`` then checks against the run's."""
    recorded = info.get("data_dir")
    return recorded if isinstance(recorded, str) and Path(recorded).is_dir() else None


def cmd_data(a) -> int:
    import importlib

    from sim.core.data import LOADERS
    from sim.core.rule_keys import rule_keys, table_lines
    from sim.core.runner import check_data

    sets = _sets(a, a.game)
    d = check_data(a.game, a.data, sets)
    print(f"{a.game} data is valid: {d.folder} (hash {d.hash})")
    if a.keys:
        print("rules (--set KEY=VALUE overrides any of them; the values each takes when "
              "changed alone):")
        for k in rule_keys(a.game, d.folder, sets,
                           lambda s: check_data(a.game, a.data, s)):
            print(f"  {k.key} = {k.value!r}: {k.settable}")
            if k.note:
                print(f"      {k.note}")
        print("tables (--set TABLE.ROW.COLUMN=VALUE overrides one cell, checked as the file's "
              "own values are):")
        print("\n".join(table_lines(a.game, d.folder)))
        return 0
    for name in importlib.import_module(LOADERS[a.game]).FILES:
        if name.endswith(".csv"):
            lines = (d.folder / name).read_text(encoding="utf-8-sig").splitlines()
            print(f"  {name}: {sum(1 for line in lines if line) - 1} rows")
    return 0


def _sets(a, game: str, sets: list[str] | None = None, mode: str | None = None,
          flag: str = "mode") -> dict:
    """--set overrides plus --mode (a game with modes reads it from the same dict, so it is
    recorded, hashed and replayed as an override is); ``sets`` and ``mode`` instead of
    ``a.set`` and ``a.mode`` for one arm of a comparison (its --a-set, --a-mode)."""
    from sim.core.runner import with_mode

    mode = a.mode if mode is None and flag == "mode" else mode
    flag = getattr(a, f"{flag}_flag", flag)  # --side, --a-side as typed
    return with_mode(game, parse_sets(a.set if sets is None else sets), mode, flag)


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [b.strip() for b in text.split(",") if b.strip()]


def cmd_compare(a) -> int:
    from analysis.comparisons import compare, verdict_line
    from reports.compare_page import write_compare_page

    out = _out(a, f"runs/compare-{a.game}-{a.players}p-seed{a.seed}")
    try:
        c = compare(a.game, a.players, _names(a.bots), a_bots=_names(a.a_bots),
                    b_bots=_names(a.b_bots), sets=_sets(a, a.game) or None,
                    a_sets=_sets(a, a.game, a.a_set or [], a.a_mode, "a_mode") or None,
                    b_sets=_sets(a, a.game, a.b_set or [], a.b_mode, "b_mode") or None,
                    a_data=a.a_data, b_data=a.b_data, metric=a.metric, target=a.target,
                    alpha=a.alpha, beta=a.beta, delta=a.delta, max_games=a.max_games,
                    games=a.games, batch=a.batch, seed=a.seed, b_seed=a.b_seed, out=out,
                    rotate=not a.no_rotate, threads=a.threads, progress=not a.quiet)
    except KeyboardInterrupt:
        return _interrupted(f"finished batches are kept in {out}")
    s = c.summary
    win = s["metric_key"].split(":")[0] in ("win", "seat-spread")
    k, unit = (100, "points of win rate") if win else (1, "points")
    default = ", the default for this metric" if s["delta_is_default"] else ""
    print(f"{verdict_line(s)}. {s['reading']} (delta {k * s['delta']:g} {unit}{default}; "
          f"{s['games']:,} games per arm) -> {out}")
    print(f"page: {write_compare_page(out)}")
    return 0


def cmd_tournament(a) -> int:
    from analysis.tournaments import tournament
    from reports.tournament_page import write_tournament_page

    out = _out(a, f"runs/tournament-{a.game}-{a.players}p-seed{a.seed}")
    try:
        t = tournament(a.game, a.players, _names(a.bots), a.games, a.seed, out,
                       sets=_sets(a, a.game) or None, data=a.data, threads=a.threads,
                       progress=not a.quiet)
    except KeyboardInterrupt:
        return _interrupted(f"finished tables are kept in {out}")
    r = t.ratings
    print(f"{t.summary['games']:,} games at {t.summary['tables']} tables -> {out}")
    for row in r.itertuples():
        print(f"  {row.bot:<12} rating {row.rating:+.3f} [{row.ci_low:+.3f}, {row.ci_high:+.3f}]"
              f"  win rate {100 * row.win_rate:.1f}%")
    for line in t.summary["disagreements"]:
        print(f"  note: {line}")
    print(f"page: {write_tournament_page(t, out)}")
    return 0


def cmd_diff(a) -> int:
    from analysis.diff import diff_runs
    from reports.diff_page import write_diff_page
    from sim.core.checks import writable_folder

    out = Path(_out(a, f"runs/diff-{Path(a.run_a).name}-{Path(a.run_b).name}"))
    writable_folder(out)  # a bad --out is refused before the runs are read
    d = diff_runs(a.run_a, a.run_b)
    page = write_diff_page(d, a.run_a, a.run_b, out)
    print(f"{'paired' if d.paired else 'unpaired'} diff of {d.a['request']['game']}: "
          f"{len(d.changes)} difference(s) in the requests and data -> {page}")
    return 0


def cmd_bench(a) -> int:
    from reports.bench import bench
    from sim.core.registry import game_module

    lineup = None
    if a.players is not None and a.bots is None:
        raise ParameterError("players", "goes with --bots (the bench bots play every count)")
    if a.bots is not None:
        names = [b for b in a.bots.split(",") if b.strip()]
        players = a.players or (len(names) if len(names) > 1 else
                                game_module(a.game).PLAYERS[1])
        lineup = _bots(a.game, a.bots, players)
    bench(a.game, games=a.games, interpreted_games=a.interpreted_games, threads=a.threads,
          sets=_sets(a, a.game) or None, lineup=lineup)
    return 0


def cmd_tune_rules(a) -> int:
    from analysis.targets import measured_text
    from analysis.tune_rules import tune_rules
    from reports.tune_page import write_tune_page

    out = _out(a, f"runs/tune-{a.game}-{a.players}p-seed{a.seed}")
    try:
        r = tune_rules(a.game, a.vary, a.target, a.players, _names(a.bots), a.trials, a.games,
                       a.confirm_games, a.seed, out, _sets(a, a.game) or None, a.data,
                       a.threads, not a.quiet)
    except KeyboardInterrupt:
        return _interrupted(f"finished trials are kept in {out}")
    c = r["confirmation"]
    values = ", ".join(f"{k}={v}" for k, v in r["best"].items())
    print(f"best of {r['trials']} trials: {values}")
    for name in r["request"]["targets"]:
        for arm in ("before", "best"):
            m = c[arm]
            print(f"  {name} {arm:<6} {measured_text(m, name, '')} on {m['games']:,} games "
                  f"of seed {c['seed']}")
    print(f"target {r['verdict']} -> {out}/best.toml")
    print(f"page: {write_tune_page(out)}")
    return 0


def cmd_tune_bot(a) -> int:
    from analysis.tune_bot import tune_bot

    try:
        s = tune_bot(a.game, a.base, _names(a.against), a.name, a.out or f"{a.name}.toml",
                     a.work, a.games, a.generations, a.popsize, a.sigma, a.final_games,
                     a.seed, _sets(a, a.game) or None, a.data, a.threads, not a.quiet)
    except KeyboardInterrupt:
        return _interrupted("finished generations are kept")
    t, b, d = s["tuned"], s["base"], s["difference"]
    req = s["request"]
    print(f"{req['name']} wins {100 * t['share']:.1f}% [{100 * t['low']:.1f}, "
          f"{100 * t['high']:.1f}], {req['base']} {100 * b['share']:.1f}% "
          f"[{100 * b['low']:.1f}, {100 * b['high']:.1f}] against {', '.join(req['against'])} "
          f"on {s['final_games']:,} fresh games: {d['pp']:+.1f} pp [{d['low']:+.1f}, "
          f"{d['high']:+.1f}]")
    print(f"bots file: {s['out']} (use it with --bots-file {s['out']} --bots {req['name']},...)")
    return 0


def cmd_train(a) -> int:
    from analysis.training import train

    out = a.out or f"{a.name}.toml"
    try:
        s = train(a.game, a.base, a.name, out, a.work, a.players, a.games, a.rounds,
                  a.search, a.budget, a.duel_games, a.seed, _sets(a, a.game) or None, a.data,
                  a.workers, a.threads, not a.quiet)
    except KeyboardInterrupt:
        return _interrupted("finished games and rounds are kept")
    last = s["rounds"][s["kept_round"] - 1]
    print(f"{a.name}: round {s['kept_round']} of {len(s['rounds'])}, "
          f"{100 * last['duel_share']:.1f}% [{100 * last['duel_low']:.1f}, "
          f"{100 * last['duel_high']:.1f}] against {last['rollout_bot']}"
          + ("" if s["climbed"] else " (no round beat the bot before it)"))
    print(f"bots file: {s['out']} (use it with --bots-file {s['out']} --bots {a.name},... "
          f"or search_{a.name})")
    return 0


def cmd_ladder(a) -> int:
    from analysis.ladder import climb

    out = _out(a, f"runs/ladder-{a.game}-{a.players}p-seed{a.seed}")
    try:
        ladder = climb(a.game, _names(a.bots) or [], a.players, a.games, a.seed, out,
                       _sets(a, a.game) or None, a.data, a.threads, not a.quiet)
    except KeyboardInterrupt:
        return _interrupted(f"finished steps are kept in {out}")
    for line in ladder.lines():
        print(line)
    print(f"order: {ladder.order()}  ('<' resolved, '?' not resolved, '>' reversed)")
    print(f"tables: {out}/ladder.csv, {out}/rungs.csv")
    return 0


def cmd_balance(a) -> int:
    from analysis.balance import balance
    from reports.balance_page import write_balance_page

    out = _out(a, f"runs/balance-{a.game}-{a.players}p-seed{a.seed}")
    try:
        b = balance(a.game, a.tiers, a.players, a.games, a.minutes, a.seed, out,
                    sets=_sets(a, a.game) or None, data=a.data, threads=a.threads, band=a.band,
                    order_games=a.order_games, progress=not a.quiet)
    except KeyboardInterrupt:
        return _interrupted(f"each tier's finished chunks are kept in {out}/tiers")
    for t in b.record["tiers"]:
        print(f"  {t['tier']:<12} {t['games']:>9,} games -> {out}/{t['folder']}")
    for line in b.summary:
        print(line)
    print(f"page: {write_balance_page(out)}")
    return 0


def games_help() -> str:
    """Each game with an engine, its player range, its bots and its default line-up (read
    from its rules.toml, its preset file and its package; nothing is compiled)."""
    from sim.core.data import read_toml, seeds_dir
    from sim.core.registry import game_module
    from strategies.presets import load_presets

    lines = ["games, players and bots:"]
    for game in GAMES:
        try:
            rules = read_toml(seeds_dir(game), "rules.toml")
        except PlaytestError:  # an engine registered from elsewhere, without shipped data
            lines.append(f"  {game}: engine {GAMES[game]}")
            continue
        bots = ", ".join(load_presets(game))
        lineup = ",".join(getattr(game_module(game), "DEFAULT_BOTS", ())) or "none"
        lines.append(f"  {game}: {rules['min_players']} to {rules['max_players']} players; "
                     f"bots {bots}; default line-up {lineup}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="playtest", description="Monte Carlo strategy analysis for board games.",
               formatter_class=argparse.RawDescriptionHelpFormatter, epilog="""examples:
  playtest simulate festival --games 100000 --out runs/demo --report
  playtest report runs/demo --out runs/demo/report
  playtest replay festival --seed 0 --game 17 --players 4 --bots greedy,hunter,builder,random
  playtest compare festival --bots greedy --b-bots explorer,greedy,greedy,greedy
  playtest tournament festival --bots random,builder,hunter,greedy,explorer
  playtest balance festival --tiers random,greedy,search --minutes 20
  playtest diff runs/base runs/variant
  playtest bench festival

""" + games_help())
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    raw = argparse.RawDescriptionHelpFormatter

    s = sub.add_parser("simulate", help="play many games into a run folder", formatter_class=raw,
                       epilog="""examples:
  playtest simulate festival --games 1000000 --players 4 --bots greedy --seed 1 --out runs/g4
  playtest simulate festival --players 3 --bots greedy,hunter,builder --backend processes
  playtest simulate festival --backend dask --address tcp://scheduler:8786 --out runs/big
  playtest simulate festival --set end_completed_objectives=5 --out runs/end5
An interrupted run keeps its finished chunks: the same command resumes it.

""" + games_help())
    s.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    s.add_argument("--games", type=int, default=100_000, help="games to play (default 100000)")
    s.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    s.add_argument("--bots", help="one bot per seat, comma-separated, or one for all seats "
                   "(default: the game's line-up, listed below, cut to the player count)")
    s.add_argument("--bots-file", action="append", metavar="FILE",
                   help="a TOML file of your own bots, in the presets' format (repeatable)")
    s.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    s.add_argument("--out", help="run folder (default runs/GAME-Pp-seedS)")
    s.add_argument("--backend", default="threads", help="threads (default), processes or dask")
    s.add_argument("--chunk-size", type=int, help="games per chunk and parquet file "
                   "(default 50000)")
    s.add_argument("--threads", type=int, help="threads playing the games (threads backend)")
    s.add_argument("--workers", type=int, help="worker processes (processes, local dask)")
    s.add_argument("--address", help="dask scheduler address (default: a local cluster)")
    s.add_argument("--no-rotate", action="store_true",
                   help="keep bot i in seat i (default: rotate bots through the seats)")
    s.add_argument("--data", help="a copy of seeds/GAME with edited cards or rules")
    s.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="override a rule of rules.toml (repeatable; dotted keys for its "
                   "tables) or a cell of a card table as TABLE.ROW.COLUMN=VALUE; 'playtest "
                   "data GAME --keys' lists them")
    s.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="the game's mode, for a game that "
                   "has modes (Dice Theme Park: full, the default; short; intro. The "
                   "Magnificent: the player boards' side, A, the default, or B; --side is the "
                   "same option)")
    s.add_argument("--report", action="store_true", help="write RUN/report afterwards")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_simulate)

    r = sub.add_parser("report", help="analyse a run folder into an HTML report",
                       formatter_class=raw, epilog=f"""example:
  playtest report runs/festival-4p-seed0 --out runs/festival-4p-seed0/report

the tables (RUN/report/NAME.csv; ELEMENT: a setup element the game declares):
{help_text()}

""" + games_help())
    r.add_argument("run", help="a run folder written by simulate")
    r.add_argument("--out", help="report folder (default RUN/report)")
    r.add_argument("--model-games", type=int, default=MODEL_GAMES,
                   help=f"games the model and the bootstrap use, the run's first ones "
                   f"(default {MODEL_GAMES}; 0: all)")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.add_argument("--band", type=float, default=BAND,
                   help=f"percentage points of win rate beyond which the summary flags an "
                   f"effect (default {BAND:g})")
    r.set_defaults(func=cmd_report)

    y = sub.add_parser("replay", help="print one game move by move", formatter_class=raw,
                       epilog="""examples:
  playtest replay festival --seed 0 --game 17 --players 4 --bots greedy,hunter,builder,random
  playtest replay --run runs/festival-4p-seed0 --game 17

""" + games_help())
    y.add_argument("game", nargs="?", help=f"a game with an engine: {', '.join(GAMES)}")
    y.add_argument("--seed", type=int, help="master seed of the run (default 0, as for "
                   "simulate; with --run, the run's)")
    y.add_argument("--game", dest="game_index", type=int, default=0, help="game index")
    y.add_argument("--players", type=int, help="players (default 4, or the run's)")
    y.add_argument("--bots", help="as for simulate")
    y.add_argument("--bots-file", action="append", metavar="FILE",
                   help="a TOML file of your own bots, in the presets' format (repeatable)")
    y.add_argument("--no-rotate", action="store_true", help="as for simulate")
    y.add_argument("--data", help="as for simulate")
    y.add_argument("--set", action="append", metavar="KEY=VALUE", help="as for simulate")
    y.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate")
    y.add_argument("--run", help="take game, seed, players and bots from a run folder")
    y.set_defaults(func=cmd_replay)

    d = sub.add_parser("data", help="check a game's data folder (cards, tiles, rules.toml)",
                       formatter_class=raw, epilog="""examples:
  playtest data dice_theme_park
  playtest data festival --data my-festival-cards
  playtest data festival --keys

""" + games_help())
    d.add_argument("game", help="festival, dice_theme_park or magnificent")
    d.add_argument("--data", help="a copy of seeds/GAME to check (default: the shipped one)")
    d.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="check the data with a rule overridden (repeatable)")
    d.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="check this mode (side) alone, as "
                   "for simulate (default: every mode)")
    d.add_argument("--keys", action="store_true",
                   help="list every rule of rules.toml with its value and range, and the "
                   "card tables' rows and columns that --set TABLE.ROW.COLUMN reaches")
    d.set_defaults(func=cmd_data)

    c = sub.add_parser("compare", help="two arms on common random numbers, stopped when a "
                       "sequential test decides", formatter_class=raw, epilog="""examples:
  playtest compare festival --players 4 --bots greedy --b-bots explorer,greedy,greedy,greedy
  playtest compare festival --bots greedy --b-set crowd_pleaser_tiles=2 --metric score
  playtest compare festival --a-bots greedy,hunter --b-bots explorer,hunter --players 2 \\
      --metric win --target slot=0 --games 20000
Game i of both arms is dealt the same. The verdict is what the interval shows: A better or
B better (it excludes zero; for --metric seat-spread, A fairer or B fairer: the smaller lead
of seat 0), no difference larger than delta (it lies inside +/- delta), or
stopped without a decision within delta (at max-games, or after the games asked by --games).
It goes to OUT/compare.json, the page to OUT/compare.html; an interrupted comparison resumes
with the same command.

""" + games_help())
    c.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    c.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    c.add_argument("--bots", help="line-up of both arms, as for simulate (default: the game's)")
    c.add_argument("--bots-file", action="append", metavar="FILE",
                   help="a TOML file of your own bots, in the presets' format (repeatable)")
    c.add_argument("--a-bots", help="line-up of arm A (default --bots)")
    c.add_argument("--b-bots", help="line-up of arm B (default --bots)")
    c.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="rule override for both arms (repeatable)")
    c.add_argument("--a-set", action="append", metavar="KEY=VALUE", help="for arm A only")
    c.add_argument("--b-set", action="append", metavar="KEY=VALUE", help="for arm B only")
    c.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate (both arms)")
    c.add_argument("--a-mode", "--a-side", dest="a_mode", action=_Named,
                   help="the mode of arm A only (a game with modes)")
    c.add_argument("--b-mode", "--b-side", dest="b_mode", action=_Named,
                   help="the mode of arm B only, as: "
                   "--a-mode full --b-mode short, or --a-side A --b-side B")
    c.add_argument("--a-data", help="data folder of arm A (default: the shipped one)")
    c.add_argument("--b-data", help="data folder of arm B (default: the shipped one)")
    c.add_argument("--metric", choices=("win", "score", "seat-spread"),
                   help="win rate or mean score of the target (default win; score when every "
                   "slot's bot differs), or seat-spread: seat 0's win minus the last seat's, "
                   "per game (is the game fairer in B?)")
    c.add_argument("--target", help="seat=N, slot=N[,M], bot=NAME or holder=ELEMENT:LEVEL "
                   "(the seat dealt that level, e.g. holder=admin_pair:recruiter; default: "
                   "the slots whose bot differs; seat=0, the start player, for a rule "
                   "variant)")
    c.add_argument("--alpha", type=float, default=0.05, help="false-positive rate (0.05)")
    c.add_argument("--beta", type=float, default=0.2, help="miss rate at delta (0.2)")
    c.add_argument("--delta", type=float, help="indifference zone: the smallest difference "
                   "that matters (default 0.02 of win rate, for win and seat-spread; for a "
                   "score, the game's: 1 point "
                   "for Festival and Dice Theme Park, 2 for The Magnificent)")
    c.add_argument("--max-games", type=int, default=1_000_000,
                   help="games per arm at most (default 1000000)")
    c.add_argument("--games", type=int, help="fixed-n mode: play exactly this many games per "
                   "arm, then a paired t-test decides")
    c.add_argument("--batch", type=int, default=2000, help="games per arm between two looks "
                   "of the test (default 2000)")
    c.add_argument("--seed", type=int, default=0, help="master seed of both arms (default 0)")
    c.add_argument("--b-seed", type=int, help="a seed of arm B's own: no common random "
                   "numbers (to measure what pairing gives)")
    c.add_argument("--out", help="comparison folder (default runs/compare-GAME-Pp-seedS)")
    c.add_argument("--no-rotate", action="store_true", help="as for simulate")
    c.add_argument("--threads", type=int, help="threads playing the games")
    c.add_argument("--quiet", action="store_true", help="no progress bar")
    c.set_defaults(func=cmd_compare)

    t = sub.add_parser("tournament", help="rank many bots at balanced tables",
                       formatter_class=raw, epilog="""examples:
  playtest tournament festival --players 4 --bots random,builder,hunter,greedy,explorer
  playtest tournament festival --players 3 --bots greedy,g2=greedy,hunter --games 30000
Every set of PLAYERS bots plays in every cyclic seating order, seats rotated, equally often.
NAME=BOT enters a bot under another name. Writes ratings.csv, head_to_head.csv, scores.csv
and index.html into OUT; an interrupted tournament resumes with the same command.

""" + games_help())
    t.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    t.add_argument("--players", type=int, default=4, help="players per table (default 4)")
    t.add_argument("--bots", help="the entrants, comma-separated, BOT or NAME=BOT (default: "
                   "every bot of the game)")
    t.add_argument("--bots-file", action="append", metavar="FILE",
                   help="a TOML file of your own bots, in the presets' format (repeatable)")
    t.add_argument("--games", type=int, default=50_000, help="games in all, at least "
                   "(default 50000)")
    t.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    t.add_argument("--set", action="append", metavar="KEY=VALUE", help="as for simulate")
    t.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate")
    t.add_argument("--data", help="as for simulate")
    t.add_argument("--out", help="tournament folder (default runs/tournament-GAME-Pp-seedS)")
    t.add_argument("--threads", type=int, help="threads playing the games")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(func=cmd_tournament)

    f = sub.add_parser("diff", help="two finished runs of one game, element by element",
                       formatter_class=raw, epilog="""examples:
  playtest simulate dice_theme_park --out runs/base
  playtest simulate dice_theme_park --set mascot_price=7 --out runs/mascot7
  playtest diff runs/base runs/mascot7 --out runs/diff
Runs of the same seed, players and rotation are paired (common random numbers); others are
compared as independent samples. Writes OUT/index.html and OUT/diff.csv.

""" + games_help())
    f.add_argument("run_a", help="a finished run folder (A)")
    f.add_argument("run_b", help="a finished run folder of the same game (B)")
    f.add_argument("--out", help="the diff's folder (default runs/diff-A-B)")
    f.set_defaults(func=cmd_diff)

    b = sub.add_parser("bench", help="games per second, compile time, memory",
                       formatter_class=raw, epilog="""examples:
  playtest bench festival
  playtest bench festival --games 50000 --interpreted-games 10
  playtest bench dice_theme_park --mode intro
  playtest bench festival --bots search,greedy,greedy,greedy

""" + games_help())
    b.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    b.add_argument("--games", type=int, help="games per measurement (default 40,000; 100 "
                   "for a line-up with a search bot)")
    b.add_argument("--bots", help="measure this line-up (comma-separated, as for simulate) "
                   "instead of the game's bench bots; with a search bot, its rollouts a "
                   "second too")
    b.add_argument("--bots-file", action="append", metavar="FILE",
                   help="a TOML file of your own bots, in the presets' format (repeatable)")
    b.add_argument("--players", type=int, help="players of --bots (default: its length)")
    b.add_argument("--interpreted-games", type=int, default=20,
                   help="games for the interpreted (NUMBA_DISABLE_JIT=1) comparison; 0 "
                   "skips it")
    b.add_argument("--threads", type=int, help="threads for the total figure (default all)")
    b.add_argument("--set", action="append", metavar="KEY=VALUE", help="as for simulate")
    b.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate")
    b.set_defaults(func=cmd_bench)

    w = sub.add_parser("balance", help="every seat and dealt effect at each tier of skill, "
                       "with a verdict: does it hold for strong players?", formatter_class=raw,
                       epilog="""examples:
  playtest balance festival --minutes 20 --out runs/balance-festival
  playtest balance magnificent --tiers random,greedy,search:4,search --games 100000,100000,8000,4000
  playtest balance dice_theme_park --tiers random,greedy,tuned,search:4 --bots-file tuned.toml
Each tier's bot plays every seat of its run, all tiers on the same deals (one master seed).
List the tiers weakest first: a verdict reads the last as the strongest, and the summary
says whether each tier beat the one below it head to head (--order-games). Each tier is a run
folder (OUT/tiers/NN-TIER, for playtest report); the findings are in OUT/findings.csv and
OUT/index.html; an interrupted balance resumes with the same command.

""" + games_help())
    w.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    w.add_argument("--tiers", default="random,greedy,search", help="bots, weakest first: "
                   "presets, bots of --bots-file, search:N (default random,greedy,search)")
    w.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    w.add_argument("--games", help="games of every tier (N), or of each tier (N1,N2,...)")
    w.add_argument("--minutes", type=float, help="the time of all tiers together, shared "
                   "evenly; each tier plays as many games as its speed allows, from 100 to "
                   "1,000,000 (default 10, without --games)")
    w.add_argument("--band", type=float, default=BAND, help="the effect that matters, in "
                   f"points of win rate (default {BAND:g})")
    w.add_argument("--order-games", type=int, default=200, help="deals of each tier's head "
                   "to head against the tier below it, each played twice: the tiers' order, "
                   "measured (default 200; 0: not measured)")
    w.add_argument("--bots-file", action="append", metavar="FILE", help="as for simulate")
    w.add_argument("--seed", type=int, default=0, help="master seed of every tier (default 0)")
    w.add_argument("--set", action="append", metavar="KEY=VALUE", help="as for simulate")
    w.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate")
    w.add_argument("--data", help="as for simulate")
    w.add_argument("--out", help="the balance folder (default runs/balance-GAME-Pp-seedS)")
    w.add_argument("--threads", type=int, help="threads playing the games")
    w.add_argument("--quiet", action="store_true", help="no progress bar")
    w.set_defaults(func=cmd_balance)

    tune = sub.add_parser("tune", help="search rule and card values toward a target, or "
                          "learn a bot's weights by play")
    tsub = tune.add_subparsers(dest="what", required=True, parser_class=Parser)
    u = tsub.add_parser("rules", help="rule and card values toward a target (optuna)",
                        formatter_class=raw, epilog="""examples:
  playtest tune rules dice_theme_park --vary administrators.recruiter.amount=1..4 \\
      --vary mascot_price=3..10 --target effect:admin_pair=recruiter,band=1 --out runs/tr
  playtest tune rules festival --vary start_objectives.red-A.value=5..10 \\
      --target spread:board,band=0.5 --games 100000
  playtest tune rules magnificent --vary start_coins_by_turn_order=5..10 --target seat-spread
Targets (METRIC[,goal=G][,band=B][,weight=W]; repeat --target for a weighted sum):
  seat-spread, seat-max, effect:ELEMENT=LEVEL, spread:ELEMENT (pp of win rate), length,
  score. Every trial plays the same games; the best values are then played on a fresh seed,
  and the target is met only when each interval lies inside its band. Writes trials.csv,
  best.toml, tune.json and index.html into OUT; an interrupted search resumes with the same
  command.

""" + games_help())
    u.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    u.add_argument("--vary", action="append", metavar="KEY=LO..HI", required=True,
                   help="a rule (rules.toml) or table cell (TABLE.ROW.COLUMN) and its range "
                   "(repeatable)")
    u.add_argument("--target", action="append", metavar="METRIC[,goal=G][,band=B]",
                   required=True, help="what to bring to its goal (repeatable: a weighted sum)")
    u.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    u.add_argument("--bots", help="the line-up, as for simulate (default: the game's)")
    u.add_argument("--bots-file", action="append", metavar="FILE", help="as for simulate")
    u.add_argument("--trials", type=int, default=30, help="trials in all (default 30)")
    u.add_argument("--games", type=int, default=20_000, help="games a trial (default 20000)")
    u.add_argument("--confirm-games", type=int, help="games of the confirmation on a fresh "
                   "seed, for the best values and for the rules as they are (default 4 x "
                   "--games)")
    u.add_argument("--seed", type=int, default=0, help="master seed of the trials (default 0; "
                   "the confirmation plays seed + 1)")
    u.add_argument("--set", action="append", metavar="KEY=VALUE", help="as for simulate: "
                   "fixed for every trial")
    u.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate")
    u.add_argument("--data", help="as for simulate")
    u.add_argument("--out", help="the search's folder (default runs/tune-GAME-Pp-seedS)")
    u.add_argument("--threads", type=int, help="threads playing the games")
    u.add_argument("--quiet", action="store_true", help="no progress bar")
    u.set_defaults(func=cmd_tune_rules)

    v = tsub.add_parser("bot", help="a bot's weights learned by play (CMA-ES)",
                        formatter_class=raw, epilog="""examples:
  playtest tune bot festival --from greedy --out my_bots.toml
  playtest tune bot dice_theme_park --from greedy --set money_per_star_at_end=4 \\
      --name greedy4 --out greedy4.toml
  playtest simulate festival --bots-file my_bots.toml --bots tuned,greedy,greedy,greedy
The tuned bot plays every seat in turn against the field on the same games for every
candidate; the result is checked on fresh seeds beside the base bot, and the bots file says
how it was made. An interrupted tuning resumes from its work folder with the same command.

""" + games_help())
    v.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    v.add_argument("--from", dest="base", default="greedy", help="the bot whose weights are "
                   "tuned (default greedy)")
    v.add_argument("--against", help="the field, comma-separated (default the --from bot "
                   "three times: a 4-player game)")
    v.add_argument("--name", default="tuned", help="the tuned bot's name (default tuned)")
    v.add_argument("--out", help="the bots file to write (default NAME.toml)")
    v.add_argument("--work", help="the work folder: state, history (default OUT without .toml "
                   "+ .tuning)")
    v.add_argument("--bots-file", action="append", metavar="FILE", help="as for simulate")
    v.add_argument("--games", type=int, default=2000, help="games per candidate (default 2000)")
    v.add_argument("--generations", type=int, default=20, help="CMA-ES generations (default "
                   "20)")
    v.add_argument("--popsize", type=int, help="candidates a generation (default cma's, "
                   "4 + 3 ln(weights))")
    v.add_argument("--sigma", type=float, default=0.5, help="the first step, in units of each "
                   "weight's size (default 0.5)")
    v.add_argument("--final-games", type=int, help="games of the check on fresh seeds "
                   "(default 10 x --games)")
    v.add_argument("--seed", type=int, default=0, help="master seed (default 0; the check "
                   "plays seed + 1)")
    v.add_argument("--set", action="append", metavar="KEY=VALUE", help="tune for this "
                   "variant (as for simulate)")
    v.add_argument("--mode", "--side", dest="mode", action=_Named,
                   help="as for simulate")
    v.add_argument("--data", help="as for simulate")
    v.add_argument("--threads", type=int, help="threads playing the games")
    v.add_argument("--quiet", action="store_true", help="no progress bar")
    v.set_defaults(func=cmd_tune_bot)

    n = sub.add_parser("train", help="a fast bot taught by search's self-play (expert "
                       "iteration)", formatter_class=raw, epilog="""examples:
  playtest train festival --out trained.toml
  playtest train dice_theme_park --bots-file strategies/tuned/dice_theme_park.toml \
      --from tuned --games 400 --out dtp_trained.toml
  playtest ladder festival --bots-file trained.toml --bots greedy,trained,search_trained
Each round, a search bot whose rollouts the current policy plays (first the --from bot) plays
every seat of --games games; at each decision the search's value of every move it weighed is
recorded, and a greedy bot's weights are fitted to them (least squares within each decision,
each move weighted by its rollouts). The new bot plays the one before it head to head (2
players, the same deals twice, seats swapped); rounds go on while it wins by a resolved
margin. The bots file holds the trained bot, search_NAME (the search over it) and how both
were made. An interrupted training resumes from its work folder with the same command.

""" + games_help())
    n.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    n.add_argument("--from", dest="base", default="greedy", help="the bot that plays the "
                   "first round's rollouts (default greedy)")
    n.add_argument("--name", default="trained", help="the trained bot's name (default "
                   "trained)")
    n.add_argument("--out", help="the bots file to write (default NAME.toml)")
    n.add_argument("--work", help="the work folder: games, fits, duels (default OUT without "
                   ".toml + .training)")
    n.add_argument("--bots-file", action="append", metavar="FILE", help="as for simulate")
    n.add_argument("--players", type=int, default=2, help="the self-play's table (default 2)")
    n.add_argument("--games", type=int, default=500, help="self-play games a round (default "
                   "500)")
    n.add_argument("--rounds", type=int, default=6, help="the most rounds (default 6)")
    n.add_argument("--search", default="search", help="the search bot whose choices teach "
                   "(default search)")
    n.add_argument("--budget", type=int, help="its rollouts a decision (default its preset's)")
    n.add_argument("--duel-games", type=int, default=2000, help="deals of each round's head "
                   "to head, each played twice (default 2000)")
    n.add_argument("--seed", type=int, default=0, help="master seed (default 0; the duels "
                   "play seed + 1)")
    n.add_argument("--set", action="append", metavar="KEY=VALUE", help="train for this "
                   "variant (as for simulate)")
    n.add_argument("--mode", "--side", dest="mode", action=_Named, help="as for simulate")
    n.add_argument("--data", help="as for simulate")
    n.add_argument("--workers", type=int, help="processes playing the self-play (default: "
                   "one a core)")
    n.add_argument("--threads", type=int, help="threads playing the duels")
    n.add_argument("--quiet", action="store_true", help="no progress bar")
    n.set_defaults(func=cmd_train)

    la = sub.add_parser("ladder", help="each bot head to head against the next, weakest "
                        "first: is the order of skill real", formatter_class=raw,
                        epilog="""examples:
  playtest ladder festival --bots random,greedy,search
  playtest ladder magnificent --bots-file strategies/tuned/magnificent.toml \
      --bots-file strategies/trained/magnificent.toml \
      --bots random,greedy,tuned,trained,search,search_trained --games 1000
Each step plays the upper bot against the lower on the same deals twice, seats swapped (at
more than 2 players the bots alternate round the table), and gives the upper bot's share of
the wins with a 95% interval: resolved when it lies above 50%, reversed when below. Each
rung's games a second are timed with every seat that bot, on one thread. Finished steps are
kept in --out: the same command resumes.

""" + games_help())
    la.add_argument("game", help=f"a game with an engine: {', '.join(GAMES)}")
    la.add_argument("--bots", required=True, help="the rungs, weakest first, comma-separated")
    la.add_argument("--bots-file", action="append", metavar="FILE", help="as for simulate")
    la.add_argument("--players", type=int, default=2, help="the table (default 2)")
    la.add_argument("--games", default="2000", help="deals of every step (N) or of each step "
                    "(N1,N2,...), each played twice (default 2000)")
    la.add_argument("--seed", type=int, default=0)
    la.add_argument("--out", help="folder of the steps and tables (default "
                    "runs/ladder-GAME-Np-seedS)")
    la.add_argument("--set", action="append", metavar="KEY=VALUE", help="as for simulate")
    la.add_argument("--mode", "--side", dest="mode", action=_Named, help="as for simulate")
    la.add_argument("--data", help="as for simulate")
    la.add_argument("--threads", type=int, help="threads playing the games")
    la.add_argument("--quiet", action="store_true", help="no progress lines")
    la.set_defaults(func=cmd_ladder)
    return p


def _bots_files(game: str, files: list[str] | None):
    """The bots of --bots-file files known while a command runs (none: nothing added)."""
    from strategies.presets import added_bots, bots_files

    return added_bots(game, bots_files(files)) if files else nullcontext()


def main(argv: list[str] | None = None) -> int:
    from strategies.presets import PresetError

    args = build_parser().parse_args(argv)
    try:
        game = getattr(args, "game", None)
        with _sigterm_as_interrupt():
            if getattr(args, "bots_file", None) and game not in GAMES:
                if game is not None:
                    raise PlaytestError(f"unknown game '{game}' (available: "
                                        f"{', '.join(GAMES)})")
                return args.func(args)  # replay --run: the run names the game
            with _bots_files(game, getattr(args, "bots_file", None)):
                return args.func(args)
    except ParameterError as e:
        sys.stderr.write(f"playtest: error: {e.flag()}\n")
        return 2
    except (PlaytestError, PresetError) as e:
        sys.stderr.write(f"playtest: error: {e}\n")
        return 2
    except BrokenPipeError:  # output piped into a reader that stopped (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # the commands that write say what they kept; the others
        terminated = _TERMINATED.is_set()
        sys.stderr.write(f"playtest: {'terminated' if terminated else 'interrupted'}\n")
        return 143 if terminated else 130
    except OSError as e:  # what the system refused (a full disk, a name too long, ...)
        where = f": {e.filename}" if e.filename else ""
        sys.stderr.write(f"playtest: error: {e.strerror or e}{where}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
