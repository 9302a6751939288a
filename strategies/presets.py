"""Named bots: presets are data (``strategies/presets/<game>.toml``), never code.

A preset names a selector, its parameter and, per decision kind, weights over the game's
move features by name. The engine maps names to its feature columns, so an unknown feature
or decision kind is refused there with the preset named.

A user's own bots come from files of the same format (``--bots-file``): ``added_bots``
adds their tables beside the shipped ones for the command in progress, and a run records
the tables of the bots it played (``used_specs``), so that it replays without the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from strategies.selectors import BUDGET, CANDIDATES, HORIZON, N_PARAMS, NAMES, PARAM, ROLLOUT

PRESET_DIR = Path(__file__).resolve().parent / "presets"


class PresetError(ValueError):
    """A bot name or preset file that cannot be used."""


@dataclass(frozen=True)
class Preset:
    name: str
    selector: int
    param: float
    description: str
    weights: dict[str, dict[str, float]] = field(default_factory=dict)  # kind -> feature -> w
    search: tuple[int, str, int, int] | None = None  # budget, rollout bot, horizon, candidates
    source: str = ""  # the file of a bot added from one (--bots-file), for its errors

    def label(self) -> str:
        return f"bot '{self.name}'" + (f" of {self.source}" if self.source else "")


MAX_BUDGET = 1_000_000  # a search bot's rollouts per decision
SEARCH_KEYS = {"budget": (1, MAX_BUDGET), "horizon": (0, 100_000), "candidates": (0, 10_000)}


def _search(path, name: str, spec: dict) -> tuple[int, str, int, int]:
    """A search preset's (budget, rollout bot, horizon, candidates), each checked."""
    got = {}
    for key, (lo, hi) in SEARCH_KEYS.items():
        v = spec.get(key, {"budget": 64}.get(key, 0))
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise PresetError(f"{path}: bot '{name}': {key} must be a whole number from {lo} "
                              f"to {hi}, got {v!r}")
        got[key] = v
    rollout = spec.get("rollout", "greedy")
    if not isinstance(rollout, str):
        raise PresetError(f"{path}: bot '{name}': rollout must name a bot, got {rollout!r}")
    return got["budget"], rollout, got["horizon"], got["candidates"]


def _check_keys(path, name: str, selector: str, spec: dict) -> None:
    """Refuse a key the bot would not use: one of another selector, a parameter that is not
    a number, weights for a bot that weighs nothing itself (random; search, whose rollout
    bot's weights choose its candidates)."""
    keys = {"selector", "description"} | {
        "epsilon": {"param"}, "softmax": {"param"}, "search": {*SEARCH_KEYS, "rollout"},
    }.get(selector, set())
    extra = sorted(k for k, v in spec.items() if not isinstance(v, dict) and k not in keys)
    if extra:
        raise PresetError(f"{path}: bot '{name}': a {selector} bot has no {', '.join(extra)} "
                          f"(its keys: {', '.join(sorted(keys))})")
    param = spec.get("param", 0.0)
    if isinstance(param, bool) or not isinstance(param, int | float):
        raise PresetError(f"{path}: bot '{name}': param must be a number, got {param!r}")
    if selector in PARAM_RANGES:
        low, high, what = PARAM_RANGES[selector]
        if "param" not in spec or not low <= param <= high:  # NaN fails both comparisons
            raise PresetError(f"{path}: bot '{name}': param must be {what}, from {low:g} to "
                              f"{high:g}, got {spec.get('param', 'none')!r}")
    if selector in ("random", "search") and any(isinstance(v, dict) for v in spec.values()):
        raise PresetError(f"{path}: bot '{name}': a {selector} bot weighs no features (its "
                          "weight tables would go unused)")
    _check_weights(path, name, spec)


# a selector's param: epsilon's share of random moves, softmax's temperature (scores are
# divided by it, so it is bounded away from 0 where exp() of every move's score underflows)
PARAM_RANGES = {"epsilon": (0.0, 1.0, "the share of random moves"),
                "softmax": (1e-3, 1e6, "the temperature")}
# a weight's magnitude, when not 0, and the most one bot's largest may exceed its smallest:
# scores are float64 sums compared within 1e-9 (selectors._greedy), so a weight below the
# floor ties every move on its own, and a spread past the ratio loses the small weights'
# contributions in the rounding of the large ones'
WEIGHT_RANGE = (1e-6, 1e6)
WEIGHT_SPREAD = 1e9


def _check_weights(path, name: str, spec: dict) -> None:
    """Refuse a weight that is not a finite number within WEIGHT_RANGE (0 allowed), naming
    the key, and a bot whose weights spread wider than WEIGHT_SPREAD."""
    sizes = []
    for kind, table in spec.items():
        if not isinstance(table, dict):
            continue
        for feature, w in table.items():
            key = f"[{name}.{kind}] {feature}"
            if isinstance(w, bool) or not isinstance(w, int | float):
                raise PresetError(f"{path}: bot '{name}': {key} must be a number, got {w!r}")
            low, high = WEIGHT_RANGE
            if w != 0 and not low <= abs(w) <= high:  # NaN and inf fail here too
                raise PresetError(f"{path}: bot '{name}': {key} = {w!r}: a weight is 0 or "
                                  f"of magnitude {low:g} to {high:g}")
            if w != 0:
                sizes.append((abs(w), key))
    if sizes and max(sizes)[0] > WEIGHT_SPREAD * min(sizes)[0]:
        (big, big_key), (small, small_key) = max(sizes), min(sizes)
        raise PresetError(f"{path}: bot '{name}': {big_key} = {big:g} is more than "
                          f"{WEIGHT_SPREAD:g} times {small_key} = {small:g}: the small "
                          "weight would be lost in the scores' rounding")


def bots_toml(name: str, table: dict, comment: list[str]) -> str:
    """A bots file holding one bot, in the presets' format, ``comment`` above it."""
    def value(v):
        return f'"{v}"' if isinstance(v, str) else repr(v)

    lines = [f"# {c}" for c in comment] + ["", f"[{name}]"]
    lines += [f"{k} = {value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    for kind, row in table.items():
        if isinstance(row, dict):
            lines += ["", f"[{name}.{kind}]"] + [f"{f} = {value(w)}" for f, w in row.items()]
    return "\n".join(lines) + "\n"


def read_toml_bots(path: Path | str) -> dict:
    """A presets file's tables by bot name; one line for a file that cannot be read."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise PresetError(f"cannot read bot presets {path}: {e}") from None


# Bots added for the command in progress, by game: {game: {name: (where, table)}}.
_ADDED: dict[str, dict[str, tuple[str, dict]]] = {}


@contextmanager
def added_bots(game: str, bots: dict[str, tuple[str, dict]]) -> Iterator[None]:
    """The bots ``bots`` ({name: (where it is from, preset table)}, as bots_files or
    recorded give them) known beside ``game``'s shipped ones while the block runs, each
    checked as a shipped preset is; a name that is shipped, or added already with another
    table, is refused."""
    shipped = _shipped(game)
    known = _ADDED.setdefault(game, {})
    before = dict(known)
    try:
        for name, (where, spec) in bots.items():
            if name in shipped:
                raise PresetError(f"{where}: bot '{name}' is a shipped bot of {game}; give "
                                  "yours another name")
            if name in known and known[name][1] != spec:
                raise PresetError(f"{where}: bot '{name}' is defined twice, differently "
                                  f"(also in {known[name][0]})")
            if ":" in name or "," in name or "=" in name or not name.strip():
                raise PresetError(f"{where}: '{name}' cannot name a bot (no ':', ',' or '=')")
            known[name] = (where, spec)
        load_presets(game)  # every added table checked now, in one line
        yield
    finally:
        _ADDED[game] = before


def recorded(specs: dict[str, dict] | None, where: str) -> dict[str, tuple[str, dict]]:
    """Bot tables a run recorded ({name: table}), for added_bots; refused in one line when
    they are not tables of bots (a damaged record)."""
    if specs is not None and not (isinstance(specs, dict) and all(
            isinstance(k, str) and isinstance(v, dict) for k, v in specs.items())):
        raise PresetError(f"{where}: bot_presets is not a table of bots (a damaged record)")
    return {name: (where, spec) for name, spec in (specs or {}).items()}


def bot_table(game: str, name: str) -> dict | None:
    """A bot's table as its file holds it (shipped, or added from a bots file)."""
    return _shipped(game).get(name) or _ADDED.get(game, {}).get(name, ("", None))[1]


def run_presets(game: str, request: dict) -> dict[str, Preset]:
    """The presets a run's request could name: the shipped ones and the tables it recorded
    of its own bots."""
    with added_bots(game, recorded(request.get("bot_presets"), "the run's run.json")):
        return load_presets(game)


def bots_files(paths: list[str] | None) -> dict[str, tuple[str, dict]]:
    """The bots of ``--bots-file`` files: {name: (file, table)}."""
    out: dict[str, tuple[str, dict]] = {}
    for path in paths or []:
        for name, spec in read_toml_bots(path).items():
            if name in out:
                raise PresetError(f"{path}: bot '{name}' is also in {out[name][0]}")
            out[name] = (str(path), spec)
    return out


def used_specs(game: str, names: list[str]) -> dict[str, dict]:
    """The added tables of the bots ``names`` play (and of their rollout bots), by name:
    what a run records to be replayed without the file. Shipped bots are not recorded."""
    added = _ADDED.get(game, {})
    out: dict[str, dict] = {}
    todo = [n.partition(":")[0] for n in names]
    while todo:
        name = todo.pop()
        if name in added and name not in out:
            out[name] = added[name][1]
            if isinstance(out[name], dict) and isinstance(out[name].get("rollout"), str):
                todo.append(out[name]["rollout"])
    return dict(sorted(out.items()))


def _shipped(game: str) -> dict:
    """The shipped presets file's tables (none for a game without one)."""
    path = PRESET_DIR / f"{game}.toml"
    return read_toml_bots(path) if path.exists() else {}


def load_presets(game: str, path: Path | None = None) -> dict[str, Preset]:
    """All presets of ``game`` by name: the shipped file's (or ``path``'s; none for a game
    without a preset file), then the bots added for the command in progress (added_bots)."""
    raw = _shipped(game) if path is None else read_toml_bots(path)
    path = path or PRESET_DIR / f"{game}.toml"
    where = dict.fromkeys(raw, str(path))
    for name, (source, spec) in _ADDED.get(game, {}).items():
        raw[name], where[name] = spec, source
    presets = {}
    for name, spec in raw.items():
        path = where[name]
        if not isinstance(spec, dict):
            raise PresetError(f"{path}: '{name}' is not a bot's table")
        selector = spec.get("selector", "greedy")
        if selector not in NAMES:
            raise PresetError(f"{path}: bot '{name}': unknown selector '{selector}'")
        _check_keys(path, name, selector, spec)
        weights = {k: dict(v) for k, v in spec.items() if isinstance(v, dict)}
        presets[name] = Preset(
            name=name,
            selector=NAMES.index(selector),
            param=float(spec.get("param", 0.0)),
            description=str(spec.get("description", "")),
            weights=weights,
            search=_search(path, name, spec) if selector == "search" else None,
            source=path if name in _ADDED.get(game, {}) else "",
        )
    for preset in presets.values():
        if preset.search:
            rollout = presets.get(preset.search[1])
            if rollout is None or rollout.search:
                raise PresetError(f"{where[preset.name]}: bot '{preset.name}': rollout "
                                  f"'{preset.search[1]}' must name a bot of the game that is "
                                  "not a search bot")
    return presets


def random_choosers(presets: dict[str, Preset]) -> set[str]:
    """The bots that choose uniformly among legal moves: their choices are randomised."""
    return {name for name, p in presets.items() if p.selector == NAMES.index("random")}


def resolve(known: dict[str, Preset], name: str, title: str) -> Preset:
    """The preset a line-up's bot name stands for: a preset's name, or a search preset's
    name with another budget (``search:256``)."""
    base, colon, budget = name.partition(":")
    preset = known.get(base)
    if preset is None:
        raise PresetError(f"unknown bot '{name}' ({title} bots: {', '.join(known)})")
    if not colon:
        return preset
    if preset.search is None:
        searchers = ", ".join(n for n, p in known.items() if p.search) or "none"
        raise PresetError(f"bot '{name}': only a search bot takes a budget, as NAME:ROLLOUTS "
                          f"(the search bots of {title}: {searchers}; for example search:256)")
    digits = budget.strip()
    if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= MAX_BUDGET:
        raise PresetError(f"bot '{name}': a search bot's budget is a whole number of rollouts "
                          f"from 1 to {MAX_BUDGET:,}, got '{budget}'")
    return replace(preset, name=name, search=(int(budget), *preset.search[1:]))


def bot_arrays(game: str, title: str, names: list[str], kinds: tuple[str, ...],
               features: tuple[str, ...] | dict[str, tuple[str, ...]],
               fills: dict[str, tuple[str, ...]] | None = None):
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots of
    ``game`` (``title`` names it in errors); ``params`` has the columns of
    strategies/selectors.py. ``features``: the move features, or each decision kind's own.
    A preset's ``[NAME.all]`` table weighs every decision kind that has the feature (one
    that none has is refused); a kind's own table adds to it. A search bot's rollout bot
    gets a slot after the line-up's. ``fills``: the features each kind's rows can be nonzero
    in, where the engine says: a kind's own table may weigh no other (refused), and
    ``[NAME.all]``'s weights on the others are left out (0), which the scores skip."""
    known = load_presets(game)
    lineup = [resolve(known, name, title) for name in names]
    rollouts = []
    for preset in lineup:
        if preset.search and preset.search[1] not in rollouts:
            rollouts.append(preset.search[1])
    rows = lineup + [known[name] for name in rollouts]
    by_kind = features if isinstance(features, dict) else dict.fromkeys(kinds, features)
    width = max(len(f) for f in by_kind.values())
    selectors = np.zeros(len(rows), dtype=np.int64)
    params = np.zeros((len(rows), N_PARAMS))
    weights = np.zeros((len(rows), len(kinds), width))
    for i, preset in enumerate(rows):
        selectors[i] = preset.selector
        params[i, PARAM] = preset.param
        if preset.search:
            budget, rollout, horizon, candidates = preset.search
            params[i, BUDGET], params[i, HORIZON] = budget, horizon
            params[i, ROLLOUT] = len(lineup) + rollouts.index(rollout)
            params[i, CANDIDATES] = candidates
        for kind, row in preset.weights.items():
            if kind != "all" and kind not in kinds:
                raise PresetError(f"{preset.label()}: unknown decision kind '{kind}' "
                                  f"({title}: all, {', '.join(kinds)})")
            for feature in row if kind == "all" else ():
                if not any(feature in names_k for names_k in by_kind.values()):
                    every = sorted({f for names_k in by_kind.values() for f in names_k})
                    raise PresetError(f"{preset.label()}: no decision kind has the feature "
                                      f"'{feature}' ({', '.join(every)})")
            for k in range(len(kinds)) if kind == "all" else [kinds.index(kind)]:
                names_k = by_kind[kinds[k]]
                for feature, w in row.items():
                    if kind == "all" and feature not in names_k:
                        continue  # [NAME.all] weighs the kinds that have the feature
                    if feature not in names_k:
                        raise PresetError(f"{preset.label()}: unknown {kinds[k]} feature "
                                          f"'{feature}' ({', '.join(names_k)})")
                    if kind != "all" and fills is not None and feature not in fills[kind]:
                        raise PresetError(f"{preset.label()}: a {kind} move's '{feature}' is "
                                          f"always 0, so its weight changes nothing (a {kind} "
                                          f"move has {', '.join(fills[kind])})")
                    weights[i, k, names_k.index(feature)] += w
    if fills is not None:
        for k, kind in enumerate(kinds):
            names_k = by_kind[kind]
            weights[:, k, [f for f, name in enumerate(names_k) if name not in fills[kind]]] = 0
    return selectors, params, weights
