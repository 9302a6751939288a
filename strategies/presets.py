"""Named bots: presets are data (``strategies/presets/<game>.toml``), never code.

A preset names a selector, its parameter and, per decision kind, weights over the game's
move features by name. The engine maps names to its feature columns, so an unknown feature
or decision kind is refused there with the preset named.
"""

from __future__ import annotations

import tomllib
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
    if selector in ("random", "search") and any(isinstance(v, dict) for v in spec.values()):
        raise PresetError(f"{path}: bot '{name}': a {selector} bot weighs no features (its "
                          "weight tables would go unused)")


def load_presets(game: str, path: Path | None = None) -> dict[str, Preset]:
    """All presets of ``game`` by name."""
    path = path or PRESET_DIR / f"{game}.toml"
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise PresetError(f"cannot read bot presets {path}: {e}") from None
    presets = {}
    for name, spec in raw.items():
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
        )
    for preset in presets.values():
        if preset.search:
            rollout = presets.get(preset.search[1])
            if rollout is None or rollout.search:
                raise PresetError(f"{path}: bot '{preset.name}': rollout '{preset.search[1]}' "
                                  "must name a bot of the file that is not a search bot")
    return presets


def game_presets(game: str) -> dict[str, Preset]:
    """The presets of ``game``, or none for a game without a preset file."""
    return load_presets(game) if (PRESET_DIR / f"{game}.toml").exists() else {}


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
    if preset.search is None or not budget.isdigit() or \
            not 1 <= int(budget) <= MAX_BUDGET:
        raise PresetError(f"bot '{name}': only a search bot takes a budget, as NAME:ROLLOUTS "
                          f"with 1 to {MAX_BUDGET} rollouts (for example search:256)")
    return replace(preset, name=name, search=(int(budget), *preset.search[1:]))


def bot_arrays(game: str, title: str, names: list[str], kinds: tuple[str, ...],
               features: tuple[str, ...] | dict[str, tuple[str, ...]]):
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots of
    ``game`` (``title`` names it in errors); ``params`` has the columns of
    strategies/selectors.py. ``features``: the move features, or each decision kind's own.
    A preset's ``[NAME.all]`` table weighs every decision kind; a kind's own table adds to
    it. A search bot's rollout bot gets a slot after the line-up's."""
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
                raise PresetError(f"bot '{preset.name}': unknown decision kind '{kind}' "
                                  f"({title}: all, {', '.join(kinds)})")
            for k in range(len(kinds)) if kind == "all" else [kinds.index(kind)]:
                names_k = by_kind[kinds[k]]
                for feature, w in row.items():
                    if feature not in names_k:
                        raise PresetError(f"bot '{preset.name}': unknown {kinds[k]} feature "
                                          f"'{feature}' ({', '.join(names_k)})")
                    weights[i, k, names_k.index(feature)] += w
    return selectors, params, weights
