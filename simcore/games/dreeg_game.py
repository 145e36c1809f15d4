"""A whole game of Dreeg: eight phases of slates, elimination or first-out-loses, dealer rotation,
and the runner job that simulates many games.

Rules: shared/rules/dreeg.md §2 (phases, slates, dealer), §3.4.6 (Kamerun erasing and several
losers), §4 (3-player Dreeg). `play_game` plays one game; `GameJob` is the runner job (one game
per unit) behind ``cardsim stats dreeg`` and ``cardsim match dreeg``.

Seats are 0 .. n-1 clockwise; seat 0 deals the first hand of phase 1 (the spec draws the first
dealer at random; fixing it names seats by their place relative to him). Every shuffle and every
policy decision reads the numpy Generators handed in, so a game depends only on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_play import play_hand
from simcore.games.dreeg_policies import POLICIES, make_policy
from simcore.rng import block_stream, block_substream

PHASES = 8
MAX_HANDS = 60
"""Hands per phase above which the histogram's last bin collects (phases take about 4-20 hands)."""
EVENTS = ("hands", "out", "closed", "surrender", "durchmarsch", "durchmarsch_won")
"""Per sub-game event counts of `GameJob`."""
SUBGAMES = ("66", "RA", "RU", "KA")


@dataclass
class PhaseRecord:
    """One phase: its losers (seats) and its hands, each (dealer, seats in play order from FH,
    `HandResult`)."""

    phase: int
    losers: list[int]
    hands: list = field(default_factory=list)


def _draw_chooser(losers: list[int], rng: np.random.Generator) -> int:
    """§3.4.6 / §5 A19: each loser draws a card; the highest rank chooses; equal ranks redraw."""
    while True:
        ranks = [r.card_rank(int(c)) for c in rng.permutation(24)[: len(losers)]]
        top = max(ranks)
        if ranks.count(top) == 1:
            return losers[ranks.index(top)]


def first_dealer(losers: list[int], n: int, opts: dict, rng: np.random.Generator) -> int:
    """Dealer of a phase's first hand, chosen by the previous phase's loser (§2.3, §5 A23): the
    player on his right (he is FH) or himself. Several Kamerun losers: the drawn chooser (§5 A19),
    or with ``kamerun_losers_dealer = agree`` the loser first in seat order."""
    chooser = losers[0] if len(losers) == 1 or opts["kamerun_losers_dealer"] == "agree" else _draw_chooser(losers, rng)
    return (chooser - 1) % n if opts["first_dealer"] == "loser_right" else chooser


def play_phase(phase: int, dealer: int, policies, opts: dict, cards: np.random.Generator) -> PhaseRecord:
    """Hands of ``phase`` until its loser(s) are known (§2.1, §2.6); policies: one per seat."""
    n = len(policies)
    strokes = [opts["strokes_per_phase"]] * n
    active = list(range(n))
    record = PhaseRecord(phase, [])
    while True:
        order = r.seat_order(dealer, active, n)
        result = play_hand(r.SUBGAME[phase], phase, cards.permutation(24), [policies[s] for s in order], opts)
        record.hands.append((dealer, order, result))
        erase = [0] * n
        for pos, seat in enumerate(order):
            erase[seat] = result.erase[pos]
        took_part = active
        strokes, active, record.losers = settle(phase, strokes, active, erase)
        if record.losers:
            return record
        dealer = r.next_dealer(dealer, took_part, n)


def settle(phase: int, strokes: list[int], active: list[int], erase: list[int]):
    """Apply one hand's erase counts (per seat): (strokes, active seats, losers; [] while the phase
    goes on). Kamerun (§3.4.6): first out loses; elsewhere (§2.1) players at 0 drop out and the last
    one holding strokes loses."""
    if phase in r.FIRST_OUT_LOSES:
        strokes, losers = r.apply_kamerun(strokes, erase)
        return strokes, active, losers
    strokes = r.apply_elimination(strokes, erase)
    active = [s for s in active if strokes[s] > 0]
    return strokes, active, active if len(active) == 1 else []


def play_game(policies, opts: dict, cards: np.random.Generator, dealer: int = 0) -> list[PhaseRecord]:
    """The eight phases (§2.6); Bolln per seat = the number of phases it lost."""
    n = len(policies)
    if n not in (3, 4):
        raise CardsimError(f"Dreeg is played by 3 or 4 players, got {n}")
    phases = []
    for phase in range(1, PHASES + 1):
        record = play_phase(phase, dealer, policies, opts, cards)
        phases.append(record)
        dealer = first_dealer(record.losers, n, opts, cards)
    return phases


def bolln(phases: list[PhaseRecord], n: int) -> list[int]:
    """Bolln per seat: phases lost (§2.2)."""
    out = [0] * n
    for record in phases:
        for seat in record.losers:
            out[seat] += 1
    return out


# --- the runner job -----------------------------------------------------------------------------
def check_players(n: int) -> int:
    if n not in (3, 4):
        raise CardsimError(f"--players must be 3 or 4, got {n}")
    return n


@dataclass(frozen=True)
class GameJob:
    """Whole games for `simcore.runner`: one unit = one game of ``len(lineup)`` players.

    lineup: policy names; with ``rotate`` game g seats lineup slot k at seat (k + g) % n, so every
    slot plays every seat equally often (a match); opts: `rule_options` as sorted (name, value)
    pairs. Cards come from ``block_stream(seed, block)``, decisions from ``block_substream(seed,
    block, 1)``. Count layout: see `counts_layout`.
    """

    lineup: tuple[str, ...]
    options: tuple = ()
    rotate: bool = False
    block_size: int = 32

    def __post_init__(self):
        check_players(len(self.lineup))
        for name in self.lineup:
            if name not in POLICIES:
                raise CardsimError(f"unknown policy '{name}'; choose one of: {', '.join(POLICIES)}")

    @property
    def n(self) -> int:
        return len(self.lineup)

    def key(self) -> str:
        return f"dreeg-games|lineup={','.join(self.lineup)}|rotate={self.rotate}|opts={self.options}"

    @property
    def n_counts(self) -> int:
        return sum(int(np.prod(shape)) for shape in counts_layout(self.n).values())

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        cards, decisions = block_stream(seed, block), block_substream(seed, block, 1)
        opts = rule_options(**dict(self.options))
        parts = {name: np.zeros(shape, dtype=np.int64) for name, shape in counts_layout(self.n).items()}
        for i in range(n_games):
            shift = (block * self.block_size + i) % self.n if self.rotate else 0
            slot_of = [(seat - shift) % self.n for seat in range(self.n)]
            policies = [make_policy(self.lineup[slot_of[s]], decisions) for s in range(self.n)]
            _count_game(play_game(policies, opts, cards), slot_of, parts)
        return np.concatenate([p.ravel() for p in parts.values()])


def counts_layout(n: int) -> dict[str, tuple[int, ...]]:
    """Shapes of `GameJob` counts, in order: games; phase losers by seat and by lineup slot (8, n);
    hands per phase histogram (8, MAX_HANDS + 1); Bolln histograms by seat and by slot (n, 9);
    the game's loser (alone with the most Bolln) by seat and by slot, last bin a tie (n + 1); events
    per sub-game (4, 6): hands and the `EVENTS` after it."""
    return {"games": (1,), "loser_seat": (PHASES, n), "loser_slot": (PHASES, n), "hands": (PHASES, MAX_HANDS + 1),
            "bolln_seat": (n, PHASES + 1), "bolln_slot": (n, PHASES + 1), "most_bolln": (n + 1,), "most_slot": (n + 1,),
            "events": (len(SUBGAMES), len(EVENTS))}


def split_counts(counts: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """The `counts_layout` parts of a count vector."""
    out, i = {}, 0
    for name, shape in counts_layout(n).items():
        size = int(np.prod(shape))
        out[name] = counts[i:i + size].reshape(shape)
        i += size
    return out


def _count_game(phases: list[PhaseRecord], slot_of: list[int], parts: dict) -> None:
    n = len(slot_of)
    parts["games"][0] += 1
    for record in phases:
        p = record.phase - 1
        for seat in record.losers:
            parts["loser_seat"][p, seat] += 1
            parts["loser_slot"][p, slot_of[seat]] += 1
        parts["hands"][p, min(len(record.hands), MAX_HANDS)] += 1
        sub = SUBGAMES.index(r.SUBGAME[record.phase])
        for _, _, res in record.hands:
            events = parts["events"][sub]
            events[0] += 1
            events[1] += res.kind == "out"
            events[2] += res.closer >= 0
            events[3] += res.kind == "surrender"
            events[4] += res.kind == "durchmarsch"
            events[5] += res.declarer_won
    counts = bolln(phases, n)
    for seat, b in enumerate(counts):
        parts["bolln_seat"][seat, b] += 1
        parts["bolln_slot"][slot_of[seat], b] += 1
    top = max(counts)
    worst = [s for s in range(n) if counts[s] == top]
    parts["most_bolln"][worst[0] if len(worst) == 1 else n] += 1
    parts["most_slot"][slot_of[worst[0]] if len(worst) == 1 else n] += 1
