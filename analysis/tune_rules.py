"""``playtest tune rules``: rule and card values searched toward a target (analysis/targets.py)
with optuna, then confirmed on fresh seeds.

Every trial plays the same games (one master seed: common random numbers), so trials differ
by their values, not their luck; the best trial is still the luckiest of many, so the verdict
is a confirmation run of its values on another seed, met only when every term's interval
lies inside its band. optuna's study lives in OUT/study.db (SQLite): an interrupted search
resumes there. Trial n is asked of a sampler seeded by (seed, n), so a resumed search asks
for the same values an uninterrupted one would have.
"""

from __future__ import annotations

import itertools
import math
import sqlite3
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.folders import claimed, read_json, write_csv, write_json, write_text
from analysis.targets import Term, check_terms, measure_all, parse_term
from sim.core.checks import MAX_GAMES, MAX_SEED, whole
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import ATTRS
from sim.core.runner import bot_record, check_data, resolve_bots, simulate_frame

CONFIRM_SEED = 1  # the confirmation plays master seed (seed + this): games no trial saw


@dataclass(frozen=True)
class Vary:
    key: str
    low: float
    high: float
    integer: bool

    def distribution(self):
        import optuna

        if self.integer:
            return optuna.distributions.IntDistribution(int(self.low), int(self.high))
        return optuna.distributions.FloatDistribution(self.low, self.high)


def parse_vary(text: str) -> Vary:
    """``KEY=LO..HI``: whole numbers when both ends are, else a float range."""
    key, eq, span = (text or "").partition("=")
    low, dots, high = span.partition("..")
    if not eq or not key.strip() or not dots:
        raise PlaytestError(f"--vary takes KEY=LO..HI (for example mascot_price=3..9), got "
                            f"'{text}'")
    try:
        ends = [int(low), int(high)]
        integer = True
    except ValueError:
        try:
            ends, integer = [float(low), float(high)], False
        except ValueError:
            raise PlaytestError(f"--vary {text}: LO and HI must be numbers") from None
    if not all(math.isfinite(e) for e in ends):
        raise PlaytestError(f"--vary {text}: LO and HI must be finite numbers")
    if ends[0] >= ends[1]:
        raise PlaytestError(f"--vary {text}: LO must be below HI")
    return Vary(key.strip(), ends[0], ends[1], integer)


def grid(space: list[Vary], trials: int, seed: int) -> list[dict] | None:
    """Every combination of whole-number ranges in an order drawn from ``seed``, when
    ``trials`` can play them all (a sampler would ask some twice and miss others), else
    None."""
    if not all(v.integer for v in space):
        return None
    combos = list(itertools.product(*[range(int(v.low), int(v.high) + 1) for v in space]))
    if len(combos) > trials:
        return None
    order = np.random.default_rng(seed).permutation(len(combos))
    return [{v.key: int(x) for v, x in zip(space, combos[i])} for i in order]


def search(space: list[Vary], evaluate: Callable[[dict], dict], trials: int, seed: int,
           storage: Path, progress: bool = True, label: str = "tune") -> pd.DataFrame:
    """Run ``trials`` trials in all (those in ``storage`` count) of optuna's TPE over
    ``space``, or, when the trials cover every combination of whole-number ranges, each
    combination not yet played, once; minimising ``evaluate(values)["objective"]``. Every
    number ``evaluate`` returns is kept with its trial. Values asked again are not played
    again: the games are the same, so is the result. Returns the trials table."""
    import optuna
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name="tune", storage=f"sqlite:///{storage}",
                                load_if_exists=True, direction="minimize")
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(t.number, state=TrialState.FAIL)  # interrupted: played again
    done = len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))
    dists = {v.key: v.distribution() for v in space}
    seen = {_key(t.params): t.user_attrs
            for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))}
    every = grid(space, trials, seed)
    if every is not None:  # what earlier trials (a sampler's, with fewer --trials) left
        every = [values for values in every if _key(values) not in seen]
    total = trials if every is None else done + len(every)
    bar = None
    if progress and done < total:
        from tqdm import tqdm

        bar = tqdm(total=total, initial=done, unit="trial", desc=label)
    try:
        for n in range(done, total):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                study.sampler = optuna.samplers.TPESampler(seed=seed * 100_003 + n)
            if every is not None:
                study.enqueue_trial(every[n - done])
            trial = study.ask(dists)
            result = seen.get(_key(trial.params)) or evaluate(dict(trial.params))
            seen[_key(trial.params)] = result
            for name, value in result.items():
                trial.set_user_attr(name, value)
            study.tell(trial, float(result["objective"]))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return trials_table(study, space)


def _key(values: dict) -> tuple:
    return tuple(sorted(values.items()))


def trials_table(study, space: list[Vary]) -> pd.DataFrame:
    """One row per finished trial: its values, then what it measured."""
    from optuna.trial import TrialState

    rows = []
    for i, t in enumerate(study.get_trials(states=(TrialState.COMPLETE,))):
        rows.append({"trial": i, **{v.key: t.params[v.key] for v in space}, **t.user_attrs})
    return pd.DataFrame(rows)


def best_row(table: pd.DataFrame) -> pd.Series:
    """The trial of the lowest objective (the first of equals)."""
    return table.loc[table["objective"].idxmin()]


def _toml_value(v) -> str:
    return repr(int(v)) if float(v).is_integer() else repr(float(v))


def best_toml(game: str, best: dict, base: dict, verdict: str) -> str:
    """best.toml: the best values as overrides, with the command line that passes them."""
    sets = " ".join(f"--set {k}={_toml_value(v)}" for k, v in {**base, **best}.items())
    lines = [f"# playtest tune rules {game}: the best trial's values ({verdict})",
             f"# pass them back as: {sets}"]
    lines += [f'"{k}" = {_toml_value(v)}' for k, v in best.items()]
    return "\n".join(lines) + "\n"


def tune_rules(game: str, vary: list[str], targets: list[str], players: int = 4,
               bots: list[str] | None = None, trials: int = 30, games: int = 20_000,
               confirm_games: int | None = None, seed: int = 0, out: str | Path | None = None,
               sets: dict | None = None, data: str | None = None, threads: int | None = None,
               progress: bool = True) -> dict:
    """Search the ``vary`` ranges for values that bring ``targets`` to their goals; returns
    tune.json's content (the request, the best trial, the confirmation and its verdict)."""
    module = game_module(game)
    space = [parse_vary(v) for v in vary or []]
    terms = [parse_term(t) for t in targets or []]
    if not space:
        raise PlaytestError("tune rules needs at least one --vary KEY=LO..HI")
    if not terms:
        raise PlaytestError("tune rules needs at least one --target")
    if len({v.key for v in space}) < len(space):
        raise PlaytestError("--vary names a key twice")
    whole("trials", trials, 1, 10_000)
    whole("games", games, 10, MAX_GAMES)
    confirm_games = 4 * games if confirm_games is None else confirm_games
    whole("confirm_games", confirm_games, 10, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED - CONFIRM_SEED)
    sets = dict(sets or {})
    bots = resolve_bots(game, bots, players)
    for v in space:  # both ends are values the game takes, before any trial
        if v.key in sets:
            raise PlaytestError(f"--vary {v.key} is also given by --set")
        for end in (v.low, v.high):
            at_end = {**sets, v.key: int(end) if v.integer else end}
            check_data(game, data, at_end)
            module.prepare(players, bots, data, True, sets=at_end)  # this line-up too
    _, meta = module.prepare(players, bots, data, True, sets=sets or None)  # the line-up
    check_terms(terms, module.declare({"request": {"game": game, "sets": sets}, **meta}))
    # what the trials play: the same again resumes (more --trials or --confirm-games go on
    # from the trials there)
    request = {"game": game, "players": players, "bots": bots, "sets": sets, "data": data,
               "vary": [v.__dict__ for v in space], "targets": [t.name for t in terms],
               "terms": [t.__dict__ for t in terms], "games": games, "seed": seed
               } | bot_record(game, bots)

    def measured(values: dict, master: int, n: int) -> dict:
        start = time.perf_counter()
        df = simulate_frame(game, n, players, bots, master, threads=threads, data=data,
                            sets={**sets, **values} or None)
        decl = module.declare(df.attrs[ATTRS])
        return {**measure_all(terms, df, decl, master), "games": n,
                "seconds": round(time.perf_counter() - start, 2)}

    with claimed(out, "tune", request) as folder:
        study = folder / "study.db"
        fresh = not study.exists()
        try:
            table = search(space, lambda values: measured(values, seed, games), trials, seed,
                           study, progress, f"tune {game}")
        except PlaytestError:
            # refused by the first trial (a target level the games never deal): nothing was
            # measured, so the folder is left as the corrected command can use it
            if fresh and not _any_trial(study):
                study.unlink(missing_ok=True)
                (folder / "tune.json").unlink(missing_ok=True)
            raise
        write_csv(folder / "trials.csv", table)
        row = best_row(table)
        best = {v.key: int(row[v.key]) if v.integer else float(row[v.key]) for v in space}
        confirm = _confirmation(folder, seed, confirm_games, best, measured, progress)
        verdict = "met" if confirm["best"]["met"] else "not met"
        write_text(folder / "best.toml", best_toml(game, best, sets, f"target {verdict} in "
                   f"the confirmation, {confirm_games:,} games on seed {seed + CONFIRM_SEED}"))
        whole_grid = grid(space, trials, seed) is not None
        result = {"request": request, "status": "complete", "trials": len(table),
                  "sampler": "every combination" if whole_grid else "TPE",
                  "confirm_games": confirm_games, "best": best,
                  "best_trial": _plain(best_row(table).to_dict()), "confirmation": confirm,
                  "verdict": verdict}
        write_json(folder / "tune.json", result)
        return result


def _any_trial(study: Path) -> bool:
    """Whether the optuna study in ``study`` holds a finished trial."""
    if not study.exists():
        return False
    try:
        with sqlite3.connect(study) as db:
            return db.execute("SELECT COUNT(*) FROM trials WHERE state = 'COMPLETE'"
                              ).fetchone()[0] > 0
    except sqlite3.Error:
        return True  # unreadable: kept, for the user to look at


def _confirmation(folder: Path, seed: int, games: int, best: dict, measured, progress: bool
                  ) -> dict:
    """The best values and the rules as they were, each played on the confirmation seed
    (kept in confirm.json, so a resumed search does not play it again)."""
    master = seed + CONFIRM_SEED
    try:  # a damaged or unfinished record is played again
        old = read_json(folder, "confirm")
        if old.get("values") == best and old.get("games") == games:
            return old
    except PlaytestError:
        pass
    if progress:
        print(f"confirming on seed {master}: {games:,} games of the best values and of the "
              "rules as they are")
    confirm = {"status": "complete", "values": best, "seed": master, "games": games,
               "best": _plain(measured(best, master, games)),
               "before": _plain(measured({}, master, games))}
    write_json(folder / "confirm.json", confirm)
    return confirm


def _plain(d: dict) -> dict:
    """numpy numbers as Python's, for JSON."""
    return {k: (v.item() if hasattr(v, "item") else v) for k, v in d.items()}


def term_of(request: dict) -> list[Term]:
    """A tune.json request's terms, as Term objects."""
    return [Term(**t) for t in request["terms"]]
