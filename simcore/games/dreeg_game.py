"""A whole game of Dreeg: eight phases of slates, elimination or first-out-loses, dealer rotation,
and the runner job that simulates many games.

Rules: shared/rules/dreeg.md §2 (phases, slates, dealer), §3.4.6 (Kamerun erasing and several
losers), §4 (3-player Dreeg), §3.5 (the optional sub-games Kamerun bei Nacht, Schweige-Maß and
Weglöscher, which the rule options put in place of a phase or after phase 8: `dreeg_rules.phase_plan`).
`play_game` plays one game; `GameJob` is the runner job (one game per unit) behind ``cardsim stats
dreeg`` and ``cardsim match dreeg``.

Seats are 0 .. n-1 clockwise; seat 0 deals the first hand of phase 1 (the spec draws the first
dealer at random; fixing it names seats by their place relative to him). Every shuffle and every
policy decision reads the numpy Generators handed in, so a game depends only on them (chance that
is no player's choice, see `dreeg_play`, reads a third one).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcore import checks
from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_play import play_hand
from simcore.games.dreeg_policies import POLICIES, make_policy
from simcore.rng import block_stream, block_substream

PHASES = 8
"""Phases of the standard game (§2.1); the §3.5 options may add up to three (`dreeg_rules.phase_plan`)."""
MAX_HANDS = 60
"""Hands per phase above which the histogram's last bin collects (phases take about 4-20 hands)."""
EVENTS = ("hands", "out", "closed", "surrender", "durchmarsch", "durchmarsch_won", "penalty", "spoke", "wrong_out")
"""Per sub-game event counts of `GameJob` ("penalty": a hidden heart ace detected; "spoke": Schweige-Maß;
"wrong_out": a side went out below 66, e.g. after a miscount, §5 A24)."""
SUBGAMES = tuple(r.SUBGAME_NAMES)


@dataclass
class PhaseRecord:
    """One phase: its losers (seats) and its hands, each (dealer, seats in play order from FH,
    `HandResult`); subgame: its code (`dreeg_rules.SUBGAME_NAMES`)."""

    phase: int
    losers: list[int]
    hands: list = field(default_factory=list)
    subgame: str = ""


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


def hand_seats(subgame: str, dealer: int, active: list[int], n: int, opts: dict) -> list[int]:
    """Seats in play order from FH of the next hand: every active seat, or in Weglöscher the two
    the dealer deals to (the second leads under ``wegloescher_c_leads``, §5 A18)."""
    if subgame != "WL":
        return r.seat_order(dealer, active, n)
    pair = r.wegloescher_pair(dealer, active, n)
    return pair[::-1] if opts.get("wegloescher_c_leads") else pair


def play_phase(phase: int, dealer: int, policies, opts: dict, cards: np.random.Generator, subgame: str | None = None,
               chance: np.random.Generator | None = None) -> PhaseRecord:
    """Hands of ``phase`` (sub-game ``subgame``, by default the phase's of §2.1) until its loser(s)
    are known (§2.1, §2.6, §3.5); policies: one per seat."""
    subgame = subgame or r.SUBGAME[phase]
    n = len(policies)
    strokes = [opts["strokes_per_phase"]] * n
    active = list(range(n))
    record = PhaseRecord(phase, [], subgame=subgame)
    while True:
        order = hand_seats(subgame, dealer, active, n, opts)
        result = play_hand(subgame, phase, cards.permutation(24), [policies[s] for s in order], opts, chance)
        record.hands.append((dealer, order, result))
        if result.speaker >= 0:
            record.losers = [order[result.speaker]]  # Schweige-Maß: who speaks loses (§3.5)
            return record
        erase = [0] * n
        for pos, seat in enumerate(order):
            erase[seat] = result.erase[pos]
        took_part = active
        strokes, active, record.losers = settle(subgame, strokes, active, erase, order)
        if record.losers:
            return record
        dealer = r.next_dealer(dealer, took_part, n)


def settle(subgame: str, strokes: list[int], active: list[int], erase: list[int], played=None):
    """Apply one hand's erase counts (per seat): (strokes, active seats, losers; [] while the phase
    goes on). Kamerun (§3.4.6): first out loses; elsewhere (§2.1) players at 0 drop out and the last
    one holding strokes loses; Weglöscher (§3.5): the seats not ``played`` erase too (never their
    last stroke)."""
    if subgame in r.FIRST_OUT_SUBGAMES:
        strokes, losers = r.apply_kamerun(strokes, erase)
        return strokes, active, losers
    if subgame == "WL":
        strokes = r.wegloescher_erase(strokes, played, erase)
    else:
        strokes = r.apply_elimination(strokes, erase)
    active = [s for s in active if strokes[s] > 0]
    return strokes, active, active if len(active) == 1 else []


def play_game(policies, opts: dict, cards: np.random.Generator, dealer: int = 0,
              chance: np.random.Generator | None = None) -> list[PhaseRecord]:
    """The phases of `dreeg_rules.phase_plan` (§2.6, §3.5); Bolln per seat = the number of phases
    it lost. ``chance`` (default ``cards``): the Generator of chance no player chooses."""
    n = len(policies)
    if n not in (3, 4):
        raise CardsimError(f"Dreeg is played by 3 or 4 players, got {n}")
    chance = cards if chance is None else chance
    phases = []
    for phase, subgame in enumerate(r.phase_plan(opts), start=1):
        record = play_phase(phase, dealer, policies, opts, cards, subgame, chance)
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
    """``n`` as an int when it is 3 or 4 players; CardsimError otherwise."""
    n = checks.whole(n, "--players")
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
            checks.one_of(name, "policy", POLICIES)
        self.plan()

    @property
    def n(self) -> int:
        return len(self.lineup)

    def plan(self) -> tuple[str, ...]:
        """Sub-game of every phase (`dreeg_rules.phase_plan` of the options)."""
        return r.phase_plan(rule_options(**dict(self.options)))

    def key(self) -> str:
        return f"dreeg-games|lineup={','.join(self.lineup)}|rotate={self.rotate}|opts={self.options}|stages|no_stage"

    @property
    def n_counts(self) -> int:
        return sum(int(np.prod(shape)) for shape in counts_layout(self.n, len(self.plan())).values())

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        cards, decisions = block_stream(seed, block), block_substream(seed, block, 1)
        chance = block_substream(seed, block, 2)
        opts = rule_options(**dict(self.options))
        layout = counts_layout(self.n, len(self.plan()))
        parts = {name: np.zeros(shape, dtype=np.int64) for name, shape in layout.items()}
        for i in range(n_games):
            shift = (block * self.block_size + i) % self.n if self.rotate else 0
            slot_of = [(seat - shift) % self.n for seat in range(self.n)]
            policies = [make_policy(self.lineup[slot_of[s]], decisions) for s in range(self.n)]
            _count_game(play_game(policies, opts, cards, chance=chance), slot_of, parts)
        return np.concatenate([p.ravel() for p in parts.values()])


def counts_layout(n: int, phases: int = PHASES) -> dict[str, tuple[int, ...]]:
    """Shapes of `GameJob` counts of ``n`` players and ``phases`` phases, in order: games; phase
    losers by seat and by lineup slot (phases, n); hands per phase histogram (phases, MAX_HANDS +
    1); Bolln histograms by seat and by slot (n, phases + 1); the game's loser (alone with the most
    Bolln) by seat and by slot, last bin a tie (n + 1); events per sub-game (7, 9): hands and the
    `EVENTS` after it; per phase and number k of players in a hand (phases, n + 1): the games whose phase played a
    hand with k players (a stage), and the sum and the sum of squares over games of its hands with k players; per
    phase the games whose phase played no hand with 2 to n - 1 players (every stage skipped)."""
    return {"games": (1,), "loser_seat": (phases, n), "loser_slot": (phases, n), "hands": (phases, MAX_HANDS + 1),
            "bolln_seat": (n, phases + 1), "bolln_slot": (n, phases + 1), "most_bolln": (n + 1,), "most_slot": (n + 1,),
            "events": (len(SUBGAMES), len(EVENTS)), "stages": (phases, n + 1), "stage_hands": (phases, n + 1),
            "stage_hands_sq": (phases, n + 1), "no_stage": (phases,)}


def split_counts(counts: np.ndarray, n: int, phases: int = PHASES) -> dict[str, np.ndarray]:
    """The `counts_layout` parts of a count vector."""
    out, i = {}, 0
    for name, shape in counts_layout(n, phases).items():
        size = int(np.prod(shape))
        out[name] = counts[i:i + size].reshape(shape)
        i += size
    return out


def wrong_out(res) -> bool:
    """Whether the hand ``res`` (`dreeg_play.HandResult`) ended with a side going out below 66 as its points are
    compared with 66 (`HandResult.scores`: without the marriages under ``thresholds_include_marriages=False``)."""
    return res.kind == "out" and res.scores[res.sides.index(res.out_side)] < r.TARGET


def _count_game(phases: list[PhaseRecord], slot_of: list[int], parts: dict) -> None:
    n = len(slot_of)
    parts["games"][0] += 1
    for record in phases:
        p = record.phase - 1
        for seat in record.losers:
            parts["loser_seat"][p, seat] += 1
            parts["loser_slot"][p, slot_of[seat]] += 1
        parts["hands"][p, min(len(record.hands), MAX_HANDS)] += 1
        sub = SUBGAMES.index(record.subgame or r.SUBGAME[record.phase])
        at = np.bincount([len(order) for _, order, _ in record.hands], minlength=n + 1)
        parts["stages"][p] += at > 0
        parts["stage_hands"][p] += at
        parts["stage_hands_sq"][p] += at * at
        parts["no_stage"][p] += not at[2:n].any()
        for _, _, res in record.hands:
            events = parts["events"][sub]
            events[0] += 1
            events[1] += res.kind == "out"
            events[2] += res.closer >= 0
            events[3] += res.kind == "surrender"
            events[4] += res.kind == "durchmarsch"
            events[5] += res.declarer_won
            events[6] += res.kind == "penalty"
            events[7] += res.kind == "spoke"
            events[8] += wrong_out(res)
    counts = bolln(phases, n)
    for seat, b in enumerate(counts):
        parts["bolln_seat"][seat, b] += 1
        parts["bolln_slot"][slot_of[seat], b] += 1
    top = max(counts)
    worst = [s for s in range(n) if counts[s] == top]
    parts["most_bolln"][worst[0] if len(worst) == 1 else n] += 1
    parts["most_slot"][slot_of[worst[0]] if len(worst) == 1 else n] += 1
