"""``playtest train``: a fast bot taught by a slow search (expert iteration).

A round plays self-play games in which every seat is a search bot whose rollouts are played
by the current policy (round 1: the ``--from`` bot). At each decision with more than one
legal move, the search's candidates are recorded: each move's features (the ones a bots file
weighs) and what the search found for it (mean rollout value, rollouts). A new policy is then
fitted to the values of every round so far (each round's search is stronger than the last,
and the older rounds' values are still the search's judgement of those moves), and measured
head to head against the one before on the same deals.
Rounds go on while the new policy beats the old one by a resolved margin (its share's 95%
interval above 50%); the last policy that did is the trained bot.

The policy is a greedy bot over the engine's move features: what the compiled kernels already
play at batch speed, so the trained bot costs what greedy costs. Its weights are the fit of
the search's values on the features *within each decision* (a fixed effect per decision: the
values of one position's moves are compared with each other, never with another position's),
by weighted least squares with each move weighted by its rollouts (a mean over more rollouts
is less noisy): statsmodels' WLS on the rows centred within their decision, which is the
fixed-effects fit (Frisch-Waugh-Lovell), with a ridge penalty too small to bias it, so that
features that move together share their weight instead of taking opposite huge ones.
The fitted weights predict how much more a move is worth than its siblings, in the search's
units (a win is 1); greedy plays the move predicted best. A plain fit extrapolates to moves
the search seldom weighed (it weighs its rollout bot's best few), so each round also fits
the weights as the rollout bot's, rescaled, plus a correction under a ridge penalty, at a
few penalties (ALPHAS), and keeps the fit that plays best against the rollout bot on deals
of their own (seed + 2): the choice is made by play, the reported duel on other deals.

Every round's games are played in chunks kept in the work folder as they finish, each from
(seed, game index), so an interrupted training resumes where it stopped and ends as an
uninterrupted one would; each round's fit and duel are kept too.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analysis.folders import bots_file_out, claimed, read_json, write_json, write_text
from analysis.ladder import duel, step_verdict
from sim.core.checks import MAX_GAMES, MAX_SEED, whole
from sim.core.errors import PlaytestError
from sim.core.game import each_decision, steps_of
from sim.core.registry import game_module
from sim.core.runner import bot_record
from strategies.presets import MAX_BUDGET, added_bots, bot_table, bots_toml, load_presets
from strategies.search import COUNT, MOVE, SUM, weighed
from strategies.selectors import SEARCH

CHUNK = 10  # self-play games a kept piece of a round
DUEL_SEED_OFFSET = 1  # the duels play seed + 1: deals the self-play never trained on
KEEP = 1e-4  # a fitted weight below this share of its kind's largest is written as 0
PLAIN_RIDGE = 1e-8  # the plain fit's penalty: no bias worth the name, but no weight of 1e10
# from two features that nearly move together
# the fits tried each round: plain, then shrunk toward the rollout bot, then (inf) the
# rollout bot's own weights, so that a round never has only worse bots to choose from
ALPHAS = (0.0, 1e-2, 1e-1, 1.0, 3.0, 10.0, 30.0, 100.0, math.inf)
SELECT_SEED_OFFSET = 2  # the fits are chosen on seed + 2: the duel's figure is not the pick's
MAX_SEED_OFFSET = max(DUEL_SEED_OFFSET, SELECT_SEED_OFFSET)


@dataclass(frozen=True)
class Samples:
    """Searched decisions, one row per candidate move: its decision (``group``), the
    decision's kind (its name's index in the game's kinds), the seat that searched, the
    move's features (padded to the widest kind), mean value and rollouts."""

    group: np.ndarray
    kind: np.ndarray
    seat: np.ndarray
    feats: np.ndarray
    value: np.ndarray
    rollouts: np.ndarray

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        """One table of several, their decisions numbered apart."""
        groups, offset = [], 0
        for s in parts:
            groups.append(s.group + offset)
            offset += int(s.group.max()) + 1 if len(s.group) else 0
        return cls(np.concatenate(groups),
                   *(np.concatenate([getattr(s, f) for s in parts]) for f in
                     ("kind", "seat", "feats", "value", "rollouts")))

    def save(self, path: Path) -> None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.npz")
        np.savez(tmp, **{f: getattr(self, f) for f in self.__dataclass_fields__})
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> Samples:
        try:
            with np.load(path) as z:
                return cls(**{f: z[f] for f in cls.__dataclass_fields__})
        except (OSError, ValueError, KeyError) as e:
            raise PlaytestError(f"cannot read {path} ({e}); remove it and run the same "
                                "command again to play its games again") from None


def kinds_of(game: str) -> tuple[dict[int, str], dict[str, tuple[str, ...]]]:
    """The game's decision codes -> kind names, and each kind's feature names."""
    steps = steps_of(game)
    return dict(steps.DECISIONS), dict(steps.FEATURES)


def collect(game: str, players: int, bots: list[str], tables: dict, sets: dict | None,
            data: str | None, seed: int, start: int, n: int) -> Samples:
    """Games start..start+n-1 of ``seed`` played by ``bots`` (seats rotated as in
    simulate), driven decision by decision, and the candidates of every decision a search
    bot made recorded. ``tables``: the added bots' tables, known while the games play."""
    with added_bots(game, {k: ("the training", v) for k, v in tables.items()}):
        prepared, _ = game_module(game).prepare(players, bots, data, True, sets=sets or None)
        return _collect(game, prepared, seed, start, n)


def _collect(game: str, prepared, seed: int, start: int, n: int) -> Samples:
    codes, features = kinds_of(game)
    names = list(features)
    width = max(len(f) for f in features.values())
    s = steps_of(game)(prepared)
    selectors, params, _ = prepared.bots
    rows: dict[str, list] = {f: [] for f in Samples.__dataclass_fields__}
    group = 0
    for _, decision, seat, slot in each_decision(s, prepared, seed, range(start, start + n)):
        moves = s.legal(decision, seat)
        move = s.decide(prepared, slot, decision, seat)
        if len(moves) > 1 and selectors[slot] == SEARCH:
            _record(s, rows, group, decision, seat, moves, codes, names, width,
                    int(weighed(params, slot, len(moves))))
            group += 1
        s.apply(move)
    return Samples(np.asarray(rows["group"], dtype=np.int64),
                   np.asarray(rows["kind"], dtype=np.int64),
                   np.asarray(rows["seat"], dtype=np.int64),
                   np.asarray(rows["feats"], dtype=float).reshape(-1, width),
                   np.asarray(rows["value"], dtype=float),
                   np.asarray(rows["rollouts"], dtype=float))


def _record(s, rows: dict, group: int, decision: int, seat: int, moves: np.ndarray, codes,
            names: list[str], width: int, k: int) -> None:
    """Add the last search's ``k`` candidates to ``rows``, as decision ``group``."""
    stats = s.scratch
    for i in s.SEARCH_STATS:
        stats = stats[i]
    table = stats[0]
    feats = s.features(decision, seat, moves)  # the position is the one searched
    index = {int(m): r for r, m in enumerate(moves)}
    kind = names.index(codes[decision])
    for i in range(k):
        padded = np.zeros(width)
        padded[: feats.shape[1]] = feats[index[int(table[MOVE, i])]]
        rows["group"].append(group)
        rows["kind"].append(kind)
        rows["seat"].append(seat)
        rows["feats"].append(padded)
        rows["value"].append(table[SUM, i] / table[COUNT, i])
        rows["rollouts"].append(table[COUNT, i])


def within(x: np.ndarray, group: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``x`` less its weighted mean within each group (rows of a group need not be
    adjacent)."""
    sums = np.zeros((int(group.max()) + 1,) + x.shape[1:])
    np.add.at(sums, group, x * (w if x.ndim == 1 else w[:, None]))
    totals = np.bincount(group, weights=w)
    means = sums / np.maximum(totals, 1e-300).reshape((-1,) + (1,) * (x.ndim - 1))
    return x - means[group]


def fit_weights(feats: np.ndarray, value: np.ndarray, rollouts: np.ndarray,
                group: np.ndarray, prior: np.ndarray | None = None,
                alpha: float = 0.0) -> np.ndarray:
    """The weights w minimising sum_i rollouts_i (value_i - feats_i @ w - a_g(i))^2, a_g a
    free constant per decision: the within-decision least squares (each decision's rows
    centred, which removes its constant), with a ridge penalty of PLAIN_RIDGE so that
    features that (nearly) move together share their weight. With a ``prior`` (the weights
    of the bot the search rolled out with) and ``alpha`` > 0, w = b * prior + d with a
    ridge penalty ``alpha`` on d alone (b free): large alphas keep the prior's choices,
    rescaled, and small ones the plain fit; an infinite one is the prior itself. A prior
    that scores every move of every decision alike gives the plain fit."""
    import statsmodels.api as sm

    if prior is not None and alpha == math.inf:
        return prior.astype(float).copy()
    if len(value) == 0:
        return np.zeros(feats.shape[1])
    _, group = np.unique(group, return_inverse=True)
    x = within(feats, group, rollouts)
    y = within(value, group, rollouts)
    varies = np.abs(x).max(axis=0) > 1e-12  # a feature that never differs within a decision
    w = np.zeros(feats.shape[1])
    if not varies.any():
        return w
    scored = None if prior is None else x @ prior  # the prior's scores, within decisions
    with warnings.catch_warnings():  # statsmodels' notes on collinear designs: meant here
        warnings.simplefilter("ignore")
        # the plain fit, with a ridge too small to bias, against collinearity; also where
        # the prior tells no move from another here (its column would be all zero)
        if alpha <= 0 or scored is None or np.abs(scored).max() <= 1e-12:
            w[varies] = sm.WLS(y, x[:, varies], weights=rollouts).fit_regularized(
                alpha=PLAIN_RIDGE, L1_wt=0.0).params
            return w
        z = np.column_stack([scored, x[:, varies]])
        penalty = np.r_[0.0, np.full(int(varies.sum()), alpha)]
        theta = sm.WLS(y, z, weights=rollouts).fit_regularized(alpha=penalty,
                                                                 L1_wt=0.0).params
    w[varies] = theta[1:]
    return w + theta[0] * prior


def prior_weights(table: dict | None, kind: str, names: tuple[str, ...]) -> np.ndarray:
    """A greedy bot's weights on a kind's features, from its table ([NAME.all] and the
    kind's own); zeros for none."""
    table = table or {}
    return np.array([float(table.get("all", {}).get(f, 0.0))
                     + float(table.get(kind, {}).get(f, 0.0)) for f in names])


def fit_table(samples: Samples, game: str, description: str, prior: dict | None = None,
              alpha: float = 0.0) -> dict:
    """A greedy bot's table: per decision kind, the fitted weights of its features, scaled
    so that the largest is 1, rounded to 6 significant digits, those below KEEP left out;
    ``prior`` and ``alpha`` as for ``fit_weights`` (the prior a table, of the bot the search
    rolled out with). A kind the self-play never searched keeps the prior's weights."""
    _, features = kinds_of(game)
    fills = _fills(game)
    table: dict = {"selector": "greedy", "description": description}
    for k, (kind, names) in enumerate(features.items()):
        rows = samples.kind == k
        if not rows.any():
            w = prior_weights(prior, kind, names)
        else:
            w = fit_weights(samples.feats[rows][:, : len(names)], samples.value[rows],
                            samples.rollouts[rows], samples.group[rows],
                            prior_weights(prior, kind, names), alpha)
        allowed = [f in fills.get(kind, names) for f in names]
        w = np.where(allowed, w, 0.0)
        top = float(np.abs(w).max()) if len(w) else 0.0
        # greedy's choice is the same at any positive scale: the largest weight is 1, so
        # every weight kept is within the presets' bounds
        kept = {f: float(f"{v / top:.6g}") for f, v in zip(names, w)
                if top > 0 and abs(v) >= KEEP * top}
        if kept:
            table[kind] = kept
    return table


def _fills(game: str) -> dict[str, tuple[str, ...]]:
    """The features each decision kind's moves can be nonzero in, where the engine says
    (its features.FILLS): a bots file may weigh no other."""
    import importlib

    module = importlib.import_module(f"{game_module(game).__name__}.features")
    return dict(getattr(module, "FILLS", {}))


def climbs(d: dict) -> bool:
    """A round is kept when its policy beats the one before by a resolved margin: the 95%
    interval of its share lies above one half (the ladder's resolved step)."""
    return step_verdict(d["low"], d["high"]) == "resolved"


def search_table(game: str, search: str, rollout: str, budget: int | None) -> dict:
    """The table of search bot ``search`` (a search preset) with ``rollout`` playing its
    rollouts (and ``budget`` rollouts a decision, when given)."""
    presets = load_presets(game)
    p = presets.get(search)
    if p is None or not p.search:
        searchers = ", ".join(n for n, q in presets.items() if q.search) or "none"
        raise PlaytestError(f"--search {search}: not a search bot of {game} ({searchers})")
    b, _, horizon, candidates = p.search
    return {"selector": "search", "description": f"{search} over {rollout}",
            "budget": budget or b, "rollout": rollout, "horizon": horizon,
            "candidates": candidates}


def train(game: str, base: str = "greedy", name: str = "trained",
          out: str | Path = "trained.toml", work: str | Path | None = None, players: int = 2,
          games: int = 500, rounds: int = 6, search: str = "search", budget: int | None = None,
          duel_games: int = 2000, seed: int = 0, sets: dict | None = None,
          data: str | None = None, workers: int | None = None, threads: int | None = None,
          progress: bool = True) -> dict:
    """Train bot ``name`` from ``search``'s self-play, starting from ``base`` as the
    rollout bot; writes the bots file ``out`` (the trained bot and ``search_NAME``, the
    search over it) and returns the summary (train.json of the work folder)."""
    module = game_module(game)
    presets = load_presets(game)
    if base not in presets or presets[base].search:
        plain = [n for n, p in presets.items() if not p.search]
        raise PlaytestError(f"--from {base}: not a bot of {game} that can play rollouts "
                            f"({', '.join(plain)})")
    if name in presets or f"search_{name}" in presets:
        raise PlaytestError(f"--name {name}: {game} has a bot of that name (or search_{name}) "
                            "already; choose another name")
    whole("games", games, 1, MAX_GAMES)
    whole("rounds", rounds, 1, 100)
    whole("duel_games", duel_games, 10, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED - MAX_SEED_OFFSET)
    if workers is not None:
        whole("workers", workers, 1, 1024)
    if budget is not None:
        whole("budget", budget, 1, MAX_BUDGET)
    searcher = search_table(game, search, base, budget)
    base_table = bot_table(game, base)
    with added_bots(game, {f"search_{name}": ("--name", searcher)}):
        module.prepare(players, [f"search_{name}"] * players, data, True, sets=sets or None)
    out, work = bots_file_out(out, work, ".training")
    request = {"game": game, "base": base, "base_table": base_table, "name": name,
               "players": players, "games": games, "search": search, "search_table": searcher,
               "duel_games": duel_games, "seed": seed, "sets": sets or {},
               "data": data} | bot_record(game, [base])
    start_time = time.perf_counter()
    with claimed(work, "train", request):
        history: list[dict] = []
        pooled: list[Samples] = []  # every round's decisions: each round fits them all
        tables = {base: base_table} if presets[base].source else {}  # a bots file's bot
        current, kept = base, None
        for r in range(1, rounds + 1):
            folder = work / f"round-{r}"
            folder.mkdir(exist_ok=True)
            player = f"{name}_round{r}"
            searching = f"search_{name}_round{r}"
            tables[searching] = searcher | {"rollout": current,
                                            "description": f"{search} over {current}"}
            samples = _round_games(game, players, searching, tables, request, folder,
                                   (r - 1) * games, games, workers, progress, r)
            pooled.append(samples)
            if (folder / "fit.json").exists():
                fit = _kept(folder, "fit", ("table", "alpha", "tried"))
            else:
                fit = _pick_fit(game, Samples.join(pooled), current, tables, request, r,
                                threads, progress)
                write_json(folder / "fit.json", fit | {"status": "complete"})
            tables[player] = fit["table"]
            if (folder / "duel.json").exists():
                d = _kept(folder, "duel", ("share", "low", "high", "games", "players"))
            else:
                if progress:
                    print(f"round {r}: {player} against {current}, {2 * duel_games:,} games "
                          "at 2 players")
                d = duel(game, player, current, tables, duel_games, seed + DUEL_SEED_OFFSET, 2,
                         sets, data, threads)
                write_json(folder / "duel.json", d | {"status": "complete"})
            history.append({"round": r, "rollout_bot": current, "games": games,
                            "alpha": fit["alpha"], "tried": fit["tried"],
                            "decisions": int(len(np.unique(samples.group))),
                            "candidates": int(len(samples.group)),
                            "rollouts": int(samples.rollouts.sum()), **{
                                f"duel_{k}": v for k, v in d.items()
                            if k not in ("a", "b", "status")},
                            "climbed": climbs(d)})
            if progress:
                print(f"round {r}: {player} wins {100 * d['share']:.1f}% "
                      f"[{100 * d['low']:.1f}, {100 * d['high']:.1f}] against {current}"
                      f" -> {'climbed' if climbs(d) else 'stopped'}")
            if not climbs(d):
                break
            kept, current = r, player
        final = kept or 1
        table = dict(tables[f"{name}_round{final}"])
        table["description"] = (
            f"trained from {search} over {base} in {final} round{'s' if final > 1 else ''} "
            f"of self-play: {_fit_name(history[final - 1]['alpha'])}"
            + ("" if kept else f"; no round beat {base}"))
        summary = {"request": request, "status": "complete", "out": str(out),
                   "base_file": presets[base].source, "rounds": history,
                   "kept_round": final, "climbed": kept is not None,
                   "seconds_this_run": round(time.perf_counter() - start_time, 1)}
        write_text(out, _bots_file(name, table, searcher, summary))
        write_json(work / "train.json", summary)
        return summary


def _fit_name(alpha: float) -> str:
    """How a round's fit was made, in words."""
    if alpha == math.inf:
        return "the rollout bot's own weights"
    return "the plain fit" if alpha == 0 else f"the fit at penalty {alpha:g}"


def _kept(folder: Path, name: str, keys: tuple[str, ...]) -> dict:
    """A round's kept FOLDER/NAME.json, refused in one line when it lacks ``keys``."""
    record = read_json(folder, name)
    if not set(keys) <= set(record):
        raise PlaytestError(f"{folder / name}.json is not a record of this training; remove "
                            "it and run the same command again")
    return record


def _pick_fit(game: str, samples: Samples, current: str, tables: dict, request: dict, r: int,
              threads: int | None, progress: bool) -> dict:
    """The round's fit: one table for each penalty of ALPHAS (shrunk toward ``current``'s
    weights), each played head to head against ``current`` on seed + SELECT_SEED_OFFSET
    (a quarter of the duel's deals), the best share kept; the shares of all."""
    prior = tables.get(current) or bot_table(game, current)
    trying = f"{request['name']}_round{r}_fit"  # beside the round's other names
    games = max(10, request["duel_games"] // 4)
    tried, best = [], None
    for alpha in ALPHAS:
        table = fit_table(samples, game, f"trained from {request['search']} (round {r}, "
                          f"rollouts by {current})", prior, alpha)
        d = duel(game, trying, current, tables | {trying: table}, games,
                 request["seed"] + SELECT_SEED_OFFSET, 2, request["sets"] or None,
                 request["data"], threads)
        tried.append({"alpha": alpha, "share": d["share"]})
        if best is None or d["share"] > best[0]:
            best = (d["share"], alpha, table)
        if progress:
            print(f"round {r}: {_fit_name(alpha)}: {100 * d['share']:.1f}% against "
                  f"{current} ({2 * games:,} games)")
    return {"table": best[2], "alpha": best[1], "tried": tried}


def _round_games(game, players, searching, tables, request, folder, first, games, workers,
                 progress, r) -> Samples:
    """A round's self-play samples: the kept chunks read, the missing ones played (in
    worker processes) and kept as each finishes."""
    chunks = [(s, min(CHUNK, first + games - s)) for s in range(first, first + games, CHUNK)]
    path = {s: folder / f"games-{s:08d}.npz" for s, _ in chunks}
    todo = [(s, n) for s, n in chunks if not path[s].exists()]
    if todo:
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=games, initial=games - sum(n for _, n in todo), unit="game",
                       desc=f"round {r}: self-play")
        try:
            for (s, n), part in zip(todo, _play_chunks(game, players, searching, tables,
                                                       request, todo, workers)):
                part.save(path[s])
                if bar is not None:
                    bar.update(n)
        finally:
            if bar is not None:
                bar.close()
    return Samples.join([Samples.load(path[s]) for s, _ in chunks])


def _play_chunks(game, players, searching, tables, request, todo, workers):
    """Each chunk's samples, in order, from worker processes (joblib) or in this one."""
    args = (game, players, [searching] * players, tables, request["sets"], request["data"],
            request["seed"])
    n_jobs = workers or os.cpu_count() or 1
    if n_jobs == 1 or len(todo) == 1:
        for s, n in todo:
            yield collect(*args, s, n)
        return
    from joblib import Parallel, delayed

    jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_collect_in_worker)(*args, s, n) for s, n in todo)
    try:
        yield from jobs
    finally:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "[0-9]+ tasks which were still being", UserWarning)
            jobs.close()


def _collect_in_worker(*args) -> Samples:
    """``collect`` in a worker process of this run, which ends with its parent."""
    from sim.core.runner import _watch_parent

    _watch_parent()
    return collect(*args)


def _bots_file(name: str, table: dict, searcher: dict, summary: dict) -> str:
    """The bots file: how the bot was made and measured (comments), the trained bot, and
    ``search_NAME``, the search over it."""
    req = summary["request"]
    sets = req["sets"]
    lines = [
        f"playtest train {req['game']}"
        + (f" --bots-file {summary['base_file']}" if summary.get("base_file") else "")
        + f" --from {req['base']} --name {name} --players "
        f"{req['players']} --games {req['games']} --search {req['search']}"
        + "".join(f" --set {k}={v}" for k, v in sets.items())
        + f" --duel-games {req['duel_games']} --seed {req['seed']}",
        f"self-play of {req['search']} ({searcher['budget']} rollouts a decision, horizon "
        f"{searcher['horizon']}, {searcher['candidates'] or 'all'} candidates), "
        f"{req['players']} players, {req['games']:,} games a round on seed {req['seed']}",
        f"rules: {'as shipped' if not sets else ', '.join(f'{k}={v}' for k, v in sets.items())}"
        f"{'' if not req['data'] else ', data ' + str(req['data'])}",
    ]
    for h in summary["rounds"]:
        lines.append(
            f"round {h['round']}: rollouts by {h['rollout_bot']}, {h['decisions']:,} decisions "
            f"({h['candidates']:,} moves weighed); {_fit_name(h['alpha'])} on all rounds' "
            f"(the best of {len(h['tried'])} by play on seed "
            f"{req['seed'] + SELECT_SEED_OFFSET}); head to head against {h['rollout_bot']}, "
            f"{h['duel_games']:,} games at {h['duel_players']} players on seed "
            f"{req['seed'] + DUEL_SEED_OFFSET}, seats swapped: {100 * h['duel_share']:.1f}% "
            f"[{100 * h['duel_low']:.1f}, {100 * h['duel_high']:.1f}]"
            f" -> {'climbed' if h['climbed'] else 'did not climb'}")
    lines.append(f"kept: round {summary['kept_round']}"
                 + ("" if summary["climbed"] else " (no round beat the bot before it)"))
    search_spec = {k: v for k, v in searcher.items() if k != "rollout"}
    search_spec |= {"rollout": name, "description": f"{req['search']} over {name}"}
    return (bots_toml(name, table, lines) + "\n"
            + bots_toml(f"search_{name}", search_spec, []).lstrip("\n"))
