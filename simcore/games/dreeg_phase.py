"""Self-play hands of one Dreeg phase, for its phase value V (spec §6.2, §6.4): the erase vectors of single hands.

`PhaseHandsJob` is the runner job behind ``cardsim thresholds dreeg --decision value``: every unit deals and plays
one hand for each number of active players the phase meets (4, 3 and 2 in 4-player Dreeg, 3 and 2 in 3-player
Dreeg; Kamerun only its players, §2.1, §4), with one policy at every seat, and counts the erase vector by position
(0 = forehand, the dealer's packets last) as a code (`erase_code`). The dynamic programming over stroke vectors is
`analysis.games.dreeg_phase`.

Why one table per number of active players is enough: a hand depends on the players only through their positions
from forehand (`dreeg_play.play_hand`), whoever deals, even a dealer who is out (§2.3, §5 A8, A9), and the built-in
policies do not read the strokes, so a hand's erase vector is independent of the score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore import checks
from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_play import play_hand
from simcore.games.dreeg_policies import POLICIES, make_policy
from simcore.games.dreeg_reads import check_reads, hand_reads
from simcore.rng import block_stream, block_substream

ERASE_BASE = 4
"""Erase counts are 0-3, so a code has one base-4 digit per position."""


def erase_code(erase) -> int:
    """Code of an erase vector by position (counts 0-3): sum of erase[p] * 4**p."""
    return sum(int(e) * ERASE_BASE ** p for p, e in enumerate(erase))


def erase_vector(code: int, active: int) -> tuple[int, ...]:
    """The erase vector by position (``active`` counts 0-3) of a code of `erase_code`."""
    return tuple((code // ERASE_BASE ** p) % ERASE_BASE for p in range(active))


def first_out(subgame: str) -> bool:
    """Whether a phase of ``subgame`` ends at the first player out (§2.1 FIRST-OUT-LOSES: Kamerun) rather than by
    ELIMINATION."""
    return subgame in r.FIRST_OUT_SUBGAMES


def active_counts(players: int, subgame: str) -> tuple[int, ...]:
    """Numbers of active players a phase of ``subgame`` meets in ``players``-player Dreeg, most first: every
    number down to 2 (ELIMINATION), or only ``players`` (Kamerun ends at the first player out, §2.5)."""
    return (players,) if first_out(subgame) else tuple(range(players, 1, -1))


NEXT_PHASE_OPTIONS = ("first_dealer", "kamerun_losers_dealer")
"""Options that act only between phases (the next phase's first dealer): no phase value reads them."""


@dataclass(frozen=True)
class PhaseHandsJob:
    """Runner job: one unit = one hand of phase ``phase`` for each of `active_counts`, uniform deals, ``policy``
    at every seat; options: `rule_options` as sorted (name, value) pairs. Cards come from ``block_stream(seed,
    block)``, decisions from ``block_substream(seed, block, 1)``, chance no player chooses from substream 2.
    Counts: per active count m (in `active_counts` order) a histogram of the 4**m erase codes (`unpack`)."""

    phase: int
    players: int = 4
    policy: str = "greedy"
    options: tuple = ()
    block_size: int = 512

    def __post_init__(self):
        if self.phase not in r.SUBGAME:
            raise CardsimError(f"--phase must be 1-8, got {self.phase}")
        if self.players not in (3, 4):
            raise CardsimError(f"--players must be 3 or 4, got {self.players}")
        checks.one_of(self.policy, "policy", POLICIES)
        if self.subgame in ("SM", "WL"):
            raise CardsimError(f"phase {self.phase} is {r.SUBGAME_NAMES[self.subgame]} under the options, whose "
                               "phase the strokes alone do not decide (§3.5); ask about another phase")
        defaults = rule_options()
        idle = [name for name, value in self.options if name in NEXT_PHASE_OPTIONS and value != defaults[name]]
        if idle:
            raise CardsimError(f"option {', '.join(idle)} only chooses who deals first in the next phase (§2.3), so "
                               "it cannot change the value of a phase; drop it")
        check_reads(self.options, self.reads(), f"a hand of phase {self.phase} ({r.SUBGAME_NAMES[self.subgame]}) "
                                                f"of {self.players}-player Dreeg")

    @property
    def subgame(self) -> str:
        """The sub-game of the phase under the options (`dreeg_rules.phase_plan`)."""
        return r.phase_plan(rule_options(**dict(self.options)))[self.phase - 1]

    def reads(self, most: int | None = None) -> tuple[str, ...]:
        """The options the phase's hands of at most ``most`` active players (default: all) read
        (`dreeg_reads.hand_reads`) and ``strokes_per_phase`` (the phase value's states)."""
        chosen = dict(self.options)
        return ("strokes_per_phase",) + tuple(name for m in self.actives if most is None or m <= most
                                              for name in hand_reads(self.subgame, m, self.phase, chosen))

    @property
    def actives(self) -> tuple[int, ...]:
        return active_counts(self.players, self.subgame)

    def key(self) -> str:
        return f"dreeg-phase-hands|{self}"

    @property
    def n_counts(self) -> int:
        return sum(ERASE_BASE ** m for m in self.actives)

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        cards, decisions = block_stream(seed, block), block_substream(seed, block, 1)
        chance = block_substream(seed, block, 2)
        opts = rule_options(**dict(self.options))
        subgame = self.subgame
        hists = [np.zeros(ERASE_BASE ** m, dtype=np.int64) for m in self.actives]
        for _ in range(n):
            for hist, m in zip(hists, self.actives):
                policies = [make_policy(self.policy, decisions) for _ in range(m)]
                res = play_hand(subgame, self.phase, cards.permutation(24), policies, opts, chance)
                hist[erase_code(res.erase)] += 1
        return np.concatenate(hists)

    def unpack(self, counts: np.ndarray) -> dict[int, np.ndarray]:
        """{active count m: (4**m,) histogram of erase codes} of the job's counts."""
        out, i = {}, 0
        for m in self.actives:
            out[m] = np.asarray(counts[i:i + ERASE_BASE ** m])
            i += ERASE_BASE ** m
        return out
