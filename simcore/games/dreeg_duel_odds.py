"""Odds of one 2-player Dreeg hand (the duel, spec §3.1.2, §3.2.2, §3.3.2; §6.2 "66 duel", "Rot Assen duel",
"Rufen duel"): the hero's cards known, the rest of the pack dealt at random, the hand played out by the
engine (`dreeg_play.play_hand` with two policies: talon, drawing, closing, the trump-9 exchange, the Rot
Assen heart-ace windows and talon flip, the Rufen trump naming) exactly as the ``stats`` and ``strength``
commands play their 2-player hands.

`DuelQuestion` is `HandQuestion` for 2 players: position 0 (forehand, the non-dealer) or 1 (the dealer);
6 cards (spec §2.4; in Rufen forehand may give only his first packet of 3, the cards he names trump from,
§3.3.2); ``turnup``: the 66 indicator (it lies under the talon, in nobody's hand); ``trump``: the Rot
Assen trump of the heart-ace holder or the suit forehand names in Rufen. `DuelOddsJob` is its runner job:
the hero's cards (and the indicator) sit in the slots the duel deal (`dreeg_play.deal_for`) gives them,
the rest is a uniform permutation of the other slots.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore import checks
from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_odds import COUNTS, PACKET, SURRENDER, HandQuestion, OddsJob, fill_pack
from simcore.games.dreeg_play import PLAYED_AS, deal_for
from simcore.games.dreeg_policies import POLICIES, Committed, make_policy
from simcore.games.dreeg_reads import check_reads, hand_reads

DUEL_SUBGAMES = ("66", "RA", "RU")
"""Sub-games (as played, `PLAYED_AS`) that have a 2-player hand; Kamerun has none (spec §2.1)."""
DUEL_COUNTS = COUNTS + ("first66", "opp_first66", "strokes", "strokes_sq", "net", "net_sq")
"""`DuelOddsJob` counts: `COUNTS`, then: the hero's side reached 66 (`Play.side_score`) before the opponent's,
the opponent's before the hero's; sum and sum of squares of the strokes the hero erases, and of his net strokes
(his erase minus the opponent's)."""
DUEL_COUNT = {name: i for i, name in enumerate(DUEL_COUNTS)}


def duel_slots(subgame: str, opts: dict) -> tuple[list[list[int]], int]:
    """Pack slots (indices into the shuffled pack, top first) of each position's cards in dealing order, and the
    slot of the 66 indicator (-1 elsewhere), as the duel deal `deal_for` of ``subgame`` (as played) reads them."""
    hands, talon = deal_for(subgame, list(range(24)), 2, opts)
    return [r.cards_of(h) for h in hands], (talon[-1] if subgame == "66" else -1)


@dataclass(frozen=True)
class DuelQuestion(HandQuestion):
    """A `HandQuestion` with 2 players: position 0 (forehand) or 1 (dealer); hand: 6 cards in dealing order (a
    Rufen forehand: or his first packet of 3 only); turnup: the 66 indicator or -1; trump: the Rot Assen trump of
    the heart-ace holder (or `SURRENDER` with duel_rot_assen_surrender) or the Rufen trump forehand names, None:
    the policy's. No call (the duel has none)."""

    @property
    def played_as(self) -> str:
        return PLAYED_AS.get(self.subgame, self.subgame)

    def check(self) -> None:
        if self.phase not in r.SUBGAME:
            raise CardsimError(f"--phase must be 1-8, got {self.phase}")
        if self.players != 2:
            raise CardsimError(f"a duel has 2 players, got {self.players}")
        sub = self.subgame
        if self.played_as not in DUEL_SUBGAMES:
            raise CardsimError(f"phase {self.phase} is {r.SUBGAME_NAMES[sub]}, which has no 2-player hand (spec "
                               "§2.1): ask about phase 1/8 (66), 2/7 (Rot Assen) or 3/6 (Rufen), or use --players 3/4")
        checks.one_of(self.policy, "policy", POLICIES)
        if self.position not in (0, 1):
            raise CardsimError(f"--position must be 0 (forehand) or 1 (dealer) with 2 players, got {self.position}")
        size = r.HAND_SIZES[2]
        packet_only = self.played_as == "RU" and self.position == 0 and len(self.hand) == PACKET
        if len(self.hand) != size and not packet_only:
            more = " (a Rufen forehand may give his first packet of 3 only)" if self.played_as == "RU" else ""
            raise CardsimError(f"--hand must list {size} cards with 2 players{more}, got {len(self.hand)}")
        self._check_duel_options()
        self._check_duel_choices()

    def _check_duel_options(self) -> None:
        """CardsimError for an option this duel hand does not read (`dreeg_reads.check_reads`)."""
        check_reads(self.options, hand_reads(self.subgame, 2, self.phase, dict(self.options)),
                    f"one 2-player hand of phase {self.phase} ({r.SUBGAME_NAMES[self.subgame]})")

    def _check_duel_choices(self) -> None:
        sub = self.played_as
        if self.call >= 0:
            raise CardsimError("--call does not exist with 2 players (2-player Rufen has no call, §3.3.2): drop it; "
                               "forehand names the trump with --trump")
        if self.turnup >= 0:
            if sub != "66":
                raise CardsimError("--turnup (the trump indicator) exists only in the 66 duel (phases 1 and 8): "
                                   "drop it")
            if self.turnup in self.hand:
                raise CardsimError("the 2-player indicator lies under the talon, in nobody's hand: --turnup must "
                                   "not be one of --hand")
        if self.trump is None:
            return
        if sub == "66":
            raise CardsimError("--trump does not exist in the 66 duel (the indicator sets trump): drop it, or give "
                               "the indicator with --turnup")
        opts = rule_options(**dict(self.options))
        if sub == "RA":
            if r.HEART_ACE not in self.hand:
                raise CardsimError("illegal trump choice: only the holder of the heart ace (HA) names trump in Rot "
                                   "Assen: add HA to --hand or drop --trump")
            if self.trump == SURRENDER and not opts["duel_rot_assen_surrender"]:
                raise CardsimError("2-player Rot Assen has no surrender (spec §5 A15): drop --trump surrender or add "
                                   "--option duel_rot_assen_surrender=true")
            if opts["rot_assen_trump"] == "hearts" and self.trump not in (r.HEART, SURRENDER):
                raise CardsimError("illegal trump choice: option rot_assen_trump=hearts allows only H (or surrender)")
            return
        if self.position != 0:
            raise CardsimError("in 2-player Rufen only forehand (--position 0) names the trump: drop --trump")
        if self.trump == SURRENDER:
            raise CardsimError("Rufen has no surrender: --trump takes E, L, H or S there")
        packet = sum(1 << c for c in self.hand[:PACKET])
        if opts["duel_rufen_suit_in_packet"] and not packet & r.SUIT_MASKS[self.trump]:
            raise CardsimError(f"illegal trump {r.DECK.suits[self.trump]}: with duel_rufen_suit_in_packet=true "
                               "forehand names a suit of his first 3 cards (the first 3 of --hand)")

    def pack(self, rng: np.random.Generator) -> list[int]:
        """A shuffled pack (top first) dealing the hero's cards, and the indicator, to their duel slots."""
        slots, indicator = duel_slots(self.played_as, rule_options(**dict(self.options)))
        fixed = dict(zip(slots[self.position], self.hand))
        if self.turnup >= 0:
            fixed[indicator] = self.turnup
        return fill_pack(fixed, rng)


class _Watch:
    """A policy that, before every answer, notes in ``log`` the first side seen with >= 66 (`Play.side_score`).
    Every change of a side's score (a trick won, a marriage announced) is followed by a question to a policy
    before the other side can score, except after the last trick: `first_to_66` completes it from the result."""

    def __init__(self, inner, log: list):
        self.inner, self.log = inner, log

    def __getattr__(self, name):
        answer = getattr(self.inner, name)
        if not callable(answer):
            return answer

        def ask(play, pos, *args):
            if not self.log and play.two_sided:
                self.log.extend(s for s in (0, 1) if play.side_score(s) >= r.TARGET)
            return answer(play, pos, *args)
        return ask


def first_to_66(log: list, res) -> int:
    """The side that reached 66 first (-1: none): the watched one, else the one side >= 66 at the end."""
    if log:
        return log[0]
    made = [s for s in (0, 1) if res.scores and res.scores[res.sides.index(s)] >= r.TARGET]
    return made[0] if len(made) == 1 else -1


@dataclass(frozen=True)
class DuelOddsJob(OddsJob):
    """Runner job for a `DuelQuestion`: one unit = one duel deal played out; counts `DUEL_COUNTS`. Runs
    `OddsJob.run_block` (its Kamerun pass never applies: no Kamerun duel) through the hooks `_players` and
    `_count_more`."""

    question: DuelQuestion

    def key(self) -> str:
        return f"dreeg-duel-odds|{self.question}|sides66|no_trick"

    @property
    def n_counts(self) -> int:
        return len(DUEL_COUNTS)

    def _players(self, rng) -> tuple[list, list]:
        """The duel's players, each `_Watch`-ed into one log: who reached 66 first."""
        log: list = []
        return [_Watch(p, log) for p in self._policies(rng)], log

    def _count_more(self, counts: np.ndarray, res, seen: list) -> None:
        count_duel(counts, res, self.question.position, first_to_66(seen, res))

    def _policies(self, rng, **extra):
        q = self.question
        if q.played_as == "RU" and q.trump is not None:
            players = [make_policy(q.policy, rng) for _ in range(2)]
            players[0] = Committed(players[0], name_trump=q.trump)
            return players
        return super()._policies(rng, **extra)


def count_duel(counts: np.ndarray, res, hero: int, first: int) -> None:
    """Add the duel counts (after `COUNTS`) of hand ``res`` for position ``hero``; ``first``: `first_to_66`."""
    sides = res.sides or [0, 1]
    if first >= 0:
        counts[DUEL_COUNT["first66" if first == sides[hero] else "opp_first66"]] += 1
    mine, net = res.erase[hero], res.erase[hero] - res.erase[1 - hero]
    counts[DUEL_COUNT["strokes"]] += mine
    counts[DUEL_COUNT["strokes_sq"]] += mine * mine
    counts[DUEL_COUNT["net"]] += net
    counts[DUEL_COUNT["net_sq"]] += net * net
