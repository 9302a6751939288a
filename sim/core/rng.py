"""Counter-based per-game random streams.

Game ``i`` of master seed ``s`` owns its own xoshiro256** generator, seeded from four
splitmix64 outputs of a key derived from ``(s, i)``. A game's stream therefore depends on
nothing but its seed and index: chunk size, thread count, backend and machine cannot change it.

A generator state is a ``uint64[4]`` array that the kernels advance in place.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_U11 = np.uint64(11)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_TWO_POW_M53 = 1.0 / 9007199254740992.0


@njit
def splitmix64_mix(z: np.uint64) -> np.uint64:
    """The splitmix64 finaliser (Stafford variant 13)."""
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit
def splitmix64_next(state: np.ndarray) -> np.uint64:
    """One splitmix64 output; ``state`` is a ``uint64[1]`` counter advanced in place."""
    state[0] = state[0] + _GOLDEN
    return splitmix64_mix(state[0])


@njit
def _rotl(x: np.uint64, k: np.uint64) -> np.uint64:
    return (x << k) | (x >> (np.uint64(64) - k))


@njit
def next_u64(s: np.ndarray) -> np.uint64:
    """One xoshiro256** output (Blackman and Vigna's reference algorithm)."""
    result = _rotl(s[1] * _U5, np.uint64(7)) * _U9
    t = s[1] << _U17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], _U45)
    return result


@njit(cache=True)  # called from Python: an entry point
def seed_game(s: np.ndarray, master_seed: np.int64, game_index: np.int64) -> None:
    """Seed ``s`` (uint64[4]) with the stream of game ``game_index`` of ``master_seed``.

    The splitmix64 counter starts at mix(seed) ^ mix(index + golden), so neighbouring seeds
    and neighbouring games give unrelated streams.
    """
    counter = splitmix64_mix(np.uint64(master_seed)) ^ splitmix64_mix(
        np.uint64(game_index) + _GOLDEN
    )
    for k in range(4):
        counter = counter + _GOLDEN
        s[k] = splitmix64_mix(counter)


@njit
def randint(s: np.ndarray, n: np.int64) -> np.int64:
    """Uniform integer in [0, n) from the top 53 bits (bias below n / 2**53)."""
    u = np.float64(next_u64(s) >> _U11) * _TWO_POW_M53
    return np.int64(u * n)


@njit
def uniform(s: np.ndarray) -> np.float64:
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(s) >> _U11) * _TWO_POW_M53


@njit
def shuffle(s: np.ndarray, a: np.ndarray, start: np.int64, n: np.int64) -> None:
    """Fisher-Yates shuffle of ``a[start:start + n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(s, i + 1)
        tmp = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = tmp


@njit
def redraw(s: np.ndarray, a: np.ndarray, start: np.int64, n: np.int64) -> None:
    """Put ``a[start:start + n]`` in a random order that depends on its contents and ``s``
    only, never on its order before: sorted, then shuffled. A search bot's determinization
    redraws a hidden order with it, so no decision can read the real one."""
    for i in range(start + 1, start + n):  # insertion sort: a dozen cards, no allocation
        x = a[i]
        j = i - 1
        while j >= start and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x
    shuffle(s, a, start, n)


def game_stream(master_seed: int, game_index: int) -> np.ndarray:
    """A fresh generator state for one game (for Python callers and tests)."""
    s = np.empty(4, dtype=np.uint64)
    seed_game(s, np.int64(master_seed), np.int64(game_index))
    return s
