"""Odds of one Dreeg hand: the rest of the pack dealt at random, the hand played out by a policy.

`HandQuestion` states what is known (phase, players, the hero's position and cards, optionally the
turned trump card, a Rufen call or a Rot Assen trump) and checks it (CardsimError names what is
wrong: a phase outside 1-8, a player count other than 3 or 4, a wrong hand size, an illegal call or
trump). `OddsJob` is the runner job: every unit deals the unknown cards uniformly (exact
conditional sampling: the hero's cards, and the turn-up, sit in their dealing slots; the rest is a
uniform permutation of the other slots) and plays the hand with the policy at every seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcore import checks
from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_phase import erase_code
from simcore.games.dreeg_play import PLAYED_AS, check_call, deal_for, play_hand
from simcore.games.dreeg_policies import (SURE_TRICK_BONUS, POLICIES, Committed, GreedyPolicy, SlyPolicy, make_policy,
                                          sure_cards)
from simcore.games.dreeg_reads import check_reads, hand_reads
from simcore.rng import block_stream, block_substream

COUNTS = ("deals", "reach66", "points", "points_sq", "erase0", "erase1", "erase2", "erase3", "trick1", "sweep",
          "opp0", "opp1", "opp2", "opp3", "schneider", "schwarz", "opp66", "none66", "no_trick")
"""`OddsJob` counts: deals; hero's side reached 66 (two-sided hands, `HandResult.scores`); sum and sum of
squares of the hero's card points; hero erased 0..3; Kamerun: hero won trick 1; hero's Durchmarsch
(declared after winning trick 1) succeeded; the most an opponent erased, 0..3; two-sided hands: the
hero's side lost Schneider (a trick but < 33), lost Schwarz (no trick); the other side has 66 at the end;
neither side has; the hero took no trick."""
COUNT = {name: i for i, name in enumerate(COUNTS)}
SURRENDER = -1


PACKET = 3
"""Cards of forehand's first packet: all a Rufen forehand has seen when he calls (§3.3.1) or names trump (§3.3.2);
a Rufen forehand's hand may list these alone, the rest then dealt at random."""


@dataclass(frozen=True)
class HandQuestion:
    """phase 1-8; players 3 or 4; position 0 (FH) .. players - 1 (the dealer); hand: the hero's
    cards in dealing order (in Rufen FH's first three are his first packet, and may be all he gives: `PACKET`);
    turnup: the turned trump card of phases 1/8 or -1; call: FH's Rufen call or -1 (the policy's); trump: the
    heart-ace holder's trump suit, `SURRENDER`, or None (the policy's)."""

    phase: int
    players: int
    hand: tuple[int, ...]
    position: int = 0
    turnup: int = -1
    call: int = -1
    trump: int | None = None
    policy: str = "greedy"
    options: tuple = ()

    def __post_init__(self):
        self.check()

    @property
    def subgame(self) -> str:
        """The sub-game of ``phase`` under the options (a §3.5 sub-game may take its place,
        `dreeg_rules.phase_plan`)."""
        return r.phase_plan(rule_options(**dict(self.options)))[self.phase - 1]

    def check(self) -> None:
        if self.phase not in r.SUBGAME:
            raise CardsimError(f"--phase must be 1-8, got {self.phase}")
        if self.subgame == "WL":
            raise CardsimError(f"phase {self.phase} is Weglöscher under the options, a 66 of two players at a time "
                               "with its own deal; odds asks about a hand of 3 or 4 players: ask about another phase")
        if self.players not in (3, 4):
            raise CardsimError(f"--players must be 3 or 4, got {self.players}")
        checks.one_of(self.policy, "policy", POLICIES)
        size = r.HAND_SIZES[self.players]
        packet_only = len(self.hand) == PACKET and self.subgame == "RU" and self.position == 0
        if len(self.hand) != size and not packet_only:
            raise CardsimError(f"--hand must list {size} cards with {self.players} players, got {len(self.hand)}"
                               + (" (or the 3 of forehand's first packet)" if self.subgame == "RU" and
                                  self.position == 0 else ""))
        if not 0 <= self.position < self.players:
            raise CardsimError(f"--position must be 0 (forehand) to {self.players - 1} (dealer), got {self.position}")
        self._check_turnup()
        self._check_choices()
        self._check_options_read()

    def _check_options_read(self) -> None:
        """CardsimError for an option this hand does not read (`dreeg_reads.check_reads`)."""
        check_reads(self.options, hand_reads(self.subgame, self.players, self.phase, dict(self.options)),
                    f"one hand of phase {self.phase} ({r.SUBGAME_NAMES[self.subgame]}) with {self.players} players")

    def _check_turnup(self) -> None:
        if self.turnup < 0:
            return
        if PLAYED_AS.get(self.subgame, self.subgame) != "66":
            raise CardsimError("--turnup exists only in phases 1 and 8 (Sechsundsechzig)")
        dealer = self.position == self.players - 1
        if dealer != (self.turnup in self.hand):
            raise CardsimError("the turned card belongs to the dealer: it must be in --hand exactly when "
                               f"--position is {self.players - 1} (the dealer)")

    def _check_choices(self) -> None:
        opts = rule_options(**dict(self.options))
        here = f"phase {self.phase} is {r.SUBGAME_NAMES[self.subgame]}"
        if self.call >= 0:
            if self.subgame != "RU":
                raise CardsimError(f"--call exists only in Rufen (phases 3 and 6), and {here}: drop --call")
            if self.position != 0:
                raise CardsimError("illegal call: only forehand calls a card in Rufen; give --position 0 or drop "
                                   "--call")
            check_call(sum(1 << c for c in self.hand[:3]), self.call)
        if self.trump is not None:
            if self.subgame != "RA":
                raise CardsimError(f"--trump exists only in Rot Assen (phases 2 and 7; with --players 2 also in "
                                   f"Rufen), and {here}: drop --trump")
            if r.HEART_ACE not in self.hand:
                raise CardsimError("illegal trump choice: only the holder of the heart ace (HA) names trump in Rot "
                                   "Assen: add HA to --hand or drop --trump")
            if opts["rot_assen_trump"] == "hearts" and self.trump not in (r.HEART, SURRENDER):
                raise CardsimError("illegal trump choice: option rot_assen_trump=hearts allows only H (or surrender)")

    def pack(self, rng: np.random.Generator) -> list[int]:
        """A shuffled pack (top first) dealing the hero's cards (and the turn-up) to their places."""
        mine = [i for i, pos in enumerate(r.deal_order(self.players)) if pos == self.position]
        hand, fixed = list(self.hand), {}
        if self.turnup >= 0:  # the last card dealt, the dealer's (position players - 1)
            fixed[23] = self.turnup
            hand = [c for c in hand if c != self.turnup]
            mine = [i for i in mine if i != 23]
        fixed.update(zip(mine, hand))
        return fill_pack(fixed, rng)


def fill_pack(fixed: dict[int, int], rng: np.random.Generator) -> list[int]:
    """A pack of the 24 cards (top first, list of card ids): ``fixed`` {pack slot: card} in place, the other
    cards shuffled by ``rng`` (one permutation) into the free slots in slot order."""
    free = [i for i in range(24) if i not in fixed]
    others = np.array([c for c in range(24) if c not in fixed.values()])
    perm = [0] * 24
    for i, c in fixed.items():
        perm[i] = c
    for i, c in zip(free, rng.permutation(others)):
        perm[i] = int(c)
    return perm


@dataclass(frozen=True)
class OddsJob:
    """Runner job for a `HandQuestion`: one unit = one deal played out; counts `COUNTS`."""

    question: HandQuestion
    block_size: int = 1024

    def key(self) -> str:
        return f"dreeg-odds|{self.question}|sides66|no_trick"

    @property
    def n_counts(self) -> int:
        return len(COUNTS)

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        q = self.question
        cards, decisions = block_stream(seed, block), block_substream(seed, block, 1)
        chance = block_substream(seed, block, 2)
        opts = rule_options(**dict(q.options))
        subgame = q.subgame
        counts = np.zeros(self.n_counts, dtype=np.int64)
        for _ in range(n):
            perm = q.pack(cards)
            players, seen = self._players(decisions)
            res = play_hand(subgame, q.phase, perm, players, opts, chance)
            _count(counts, res, q.position, opts)
            self._count_more(counts, res, seen)
            if subgame == "KA":
                forced = self._policies(decisions, durchmarsch=True)
                dm = play_hand(subgame, q.phase, perm, forced, opts, chance)
                counts[COUNT["trick1"]] += dm.declarer == q.position
                counts[COUNT["sweep"]] += dm.declarer == q.position and dm.declarer_won
        return counts

    def _players(self, rng) -> tuple[list, object]:
        """The players of one deal (`_policies`) and what a subclass has them note while playing (None
        here), handed to `_count_more` after the deal."""
        return self._policies(rng), None

    def _count_more(self, counts: np.ndarray, res, seen) -> None:
        """Counts beyond `COUNTS` of one played deal ``res`` (none here): a subclass's hook."""

    def _policies(self, rng, **extra):
        q = self.question
        players = [make_policy(q.policy, rng) for _ in range(q.players)]
        fixed = dict(extra)
        if q.call >= 0:
            fixed["call"] = q.call
        if q.trump is not None:
            fixed["ra_trump"] = q.trump
        if fixed:
            players[q.position] = Committed(players[q.position], **fixed)
        return players


def _count(counts: np.ndarray, res, hero: int, opts: dict) -> None:
    counts[COUNT["deals"]] += 1
    pts = res.card_points[hero] if res.card_points else 0
    counts[COUNT["points"]] += pts
    counts[COUNT["points_sq"]] += pts * pts
    counts[COUNT[f"erase{res.erase[hero]}"]] += 1
    best = opponents_best(res, hero)
    counts[COUNT[f"opp{best}"]] += 1
    counts[COUNT["no_trick"]] += bool(res.tricks) and res.tricks[hero] == 0
    if res.scores:
        made = res.scores[hero] >= r.TARGET
        other = any(score >= r.TARGET for score, side in zip(res.scores, res.sides) if side != res.sides[hero])
        counts[COUNT["reach66"]] += made
        counts[COUNT["opp66"]] += other
        counts[COUNT["none66"]] += not made and not other
        tricks = sum(t for t, side in zip(res.tricks, res.sides) if side == res.sides[hero])
        if side_lost(res, hero, opts):
            counts[COUNT["schwarz"]] += tricks == 0
            counts[COUNT["schneider"]] += tricks > 0 and res.scores[hero] < r.SCHNEIDER


def side_lost(res, pos: int, opts: dict) -> bool:
    """Whether ``pos``'s side lost the two-sided hand ``res``: the other side erases (the winner's reward),
    except in a hand played out unclosed with exactly one side at 66 under ``two_sided_eraser=loser`` (§5 A2,
    `dreeg_rules.resolve_open`: the loser erases there), lost by the side short of 66."""
    made = [score >= r.TARGET for score in res.scores]
    if opts.get("two_sided_eraser") == "loser" and res.closer < 0 and res.out_side < 0 and any(made) \
            and not all(made):
        return not made[pos]
    return opponents_best(res, pos) > 0


def opponents_best(res, pos: int) -> int:
    """The most a player not on ``pos``'s side erases in hand result ``res`` (0 without opponents)."""
    sides = res.sides or list(range(len(res.erase)))
    return max((e for i, e in enumerate(res.erase) if sides[i] != sides[pos]), default=0)


STRENGTH_BINS = 8
"""Hand-strength classes of `StrengthJob`: card points + marriages of the dealt hand, by 10 (70+ last)."""


def hand_strength(hand: int, trump: int) -> int:
    """Card points of a dealt hand plus the marriages it holds (40 in trump, else 20)."""
    return r.points_of(hand) + sum(r.marriage_value(s, trump) for s in r.marriage_suits(hand))


@dataclass(frozen=True)
class StrengthJob:
    """P(reach 66) and the erase counts by the strength of the dealt hand (`hand_strength`), for
    every position of uniform deals of ``phase`` with ``players`` active (2-4), ``policy`` at every
    seat. Counts (players, STRENGTH_BINS, 6): deals, reached 66, erased 0..3."""

    phase: int
    players: int
    policy: str = "greedy"
    options: tuple = ()
    block_size: int = 1024

    def key(self) -> str:
        return f"dreeg-strength|{self}"

    @property
    def n_counts(self) -> int:
        return self.players * STRENGTH_BINS * 6

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        cards, decisions = block_stream(seed, block), block_substream(seed, block, 1)
        chance = block_substream(seed, block, 2)
        opts = rule_options(**dict(self.options))
        sub = r.SUBGAME[self.phase]
        counts = np.zeros((self.players, STRENGTH_BINS, 6), dtype=np.int64)
        for _ in range(n):
            perm = cards.permutation(24)
            hands, _ = deal_for(sub, perm, self.players, opts)
            res = play_hand(sub, self.phase, perm, [make_policy(self.policy, decisions) for _ in range(self.players)],
                            opts, chance)
            for pos in range(self.players):
                b = min(hand_strength(hands[pos], res.trump) // 10, STRENGTH_BINS - 1)
                row = counts[pos, b]
                row[0] += 1
                row[1] += bool(res.scores) and res.scores[pos] >= r.TARGET
                row[2 + res.erase[pos]] += 1
        return counts.ravel()


# --- decision thresholds (spec §6.2) -----------------------------------------------------------
THRESHOLD_CLASSES = 8
"""Classes of the fixed-alternative decisions ("close", "call", "durchmarsch")."""
MOMENT_POINTS = (20, 33, 45, 55, 66)
"""Upper bounds of the own-points classes of the "moment" decision: 0-19, 20-32, 33-44, 45-54,
55-65 and 66+ (side total: cards plus announced marriages, §3.0.5)."""
MOMENT_TRICKS, MOMENT_TRUMPS = 6, 4
"""Classes of the "moment" decision: tricks played 0-5 (closing needs 4 talon cards, so none after
trick 5) and trumps held 0-1, 2, 3, 4+."""
MOMENT_CLASSES = MOMENT_TRICKS * (len(MOMENT_POINTS) + 1) * MOMENT_TRUMPS
THRESHOLD_COUNTS = 9
"""Counts per class of `ThresholdJob`: decisions; wins with option A, with option B; sums of the
decider's net strokes with A, with B; sum and sum of squares of the paired difference A - B; losses
Schwarz (`lost_schwarz`) with A, with B."""
SURRENDER_TOP = 5
"""Highest class of the "surrender" decision: trumps plus side Aces 5 or more (with 4 players about 12% of the
soloists' hands, 6 alone about 0.6%, too few for a class at n = 2,000; with 3 players, 8 cards, about 42%, where
playing is clearly better)."""
INDICATOR_RANKS = (r.ACE, r.TEN, r.KING, r.OBER, r.UNTER)
"""Classes of the "exchange" decision: the indicator's rank, A first (a trump-9 indicator allows no exchange)."""
DECISIONS = {
    "close": "2-player 66, forehand before trick 1: close at once (A) or never close (B); class: the "
             "greedy closing estimate (points + marriages + sure cards) by 10",
    "call": "Rufen with 4 players (or 3), forehand: call the highest missing card of the longest packet suit (A) or "
            "play alone by calling its own highest card of that suit (B); class: cards of that suit in the packet",
    "durchmarsch": "Kamerun with 4 players (or 3), winner of trick 1: declare Durchmarsch (A) or not (B); class: cards "
                   "in hand that are not sure winners",
    "hide": "2-player Rot Assen, the player dealt the heart ace: announce it at once (A) or keep it hidden until "
            "after trick 3 (B, the sly policy; a breach, §3.2.2, detected if the talon is closed first or the "
            "ace played); class: cards of his longest suit",
    "moment": "2-player 66, one moment drawn at random among those of the hand where the player to lead may "
              "close (before trick 1 or after a trick, before or after drawing): close now (A) or not now "
              "(B, greedy later); class: tricks played, own points (cards + marriages), trumps held",
    "surrender": "Rot Assen with 4 players (or 3), the heart-ace holder: play alone with the greedy best trump (A) "
                 "or surrender, each opponent erasing 2 (B, §3.2.1); class: his trumps plus side Aces (the greedy "
                 "surrender score: greedy surrenders below half his cards, 3 of 6, 4 of 8)",
    "exchange": "2-player 66, the holder of the trump 9 at his first chance to exchange it for the indicator "
                "(§3.1.2, as leader after winning a trick; or by the §3.5 variants when on): exchange (A) or never "
                "exchange (B); class: the indicator's rank",
}


DECISION_STAGES = {"close": ("66", 2), "call": ("RU", 4), "durchmarsch": ("KA", 4), "hide": ("RA", 2),
                   "moment": ("66", 2), "surrender": ("RA", 4), "exchange": ("66", 2)}
"""Sub-game and number of active players of each decision's hand in 4-player Dreeg: the stage of the phase it is
played in (`decision_stage`)."""
TABLE_DECISIONS = ("call", "durchmarsch", "surrender")
"""Decisions of a hand of the whole table, 4 or 3 players as the game has; the others are 2-player hands."""


def decision_stage(decision: str, players: int = 4) -> tuple[str, int]:
    """Sub-game and number of active players of ``decision``'s hand in ``players``-player Dreeg."""
    subgame, active = DECISION_STAGES[decision]
    return subgame, players if decision in TABLE_DECISIONS else active
FOREHAND_DECIDES = ("close", "call")
"""Decisions always taken by forehand (position 0)."""
VALUE_SCALE = 1 << 20
"""Phase values enter the counts as whole numbers, V * VALUE_SCALE rounded, so that sums are exact."""
VALUE_COUNTS = 4
"""Extra counts per class of `ThresholdJob` with `DeciderValues`: sums of the decider's scaled V with A, with B,
and of the paired difference A - B and its square; then one sum of A - B per bootstrap replicate of V."""


@dataclass(frozen=True)
class DeciderValues:
    """The phase value of the decider after the hand, for `ThresholdJob`: ``table`` (1 + replicates, k, 4**k) int64:
    V * VALUE_SCALE of the player at position p from forehand after a hand with erase code c (`erase_code`, by
    position), from the value tables as played (entry 0) and from each bootstrap replicate of them; only deals
    decided at ``position`` count (-1: any); ``tag`` names every input of the table (the stroke state, and phase,
    players, policy, n, seed and replicates of the value tables) for the job key."""

    tag: str
    position: int = -1
    table: np.ndarray = field(default=None, repr=False, compare=False)

    def takes(self, pos: int) -> bool:
        """Whether a deal decided at position ``pos`` counts."""
        return self.position < 0 or pos == self.position

    @property
    def replicates(self) -> int:
        """Bootstrap replicates of the value tables behind ``table`` (its entries after the first)."""
        return self.table.shape[0] - 1

    def lookup(self, pos: int, erase) -> np.ndarray:
        """(1 + replicates,) int64: the scaled V of the decider at position ``pos`` after the erase vector ``erase``
        (by position), as played and in each replicate."""
        return self.table[:, pos, erase_code(erase)]


INFORMATION_OPTIONS = ("information", "counting_error_percent")
"""The counting-error model's options: the thresholds compare decisions under perfect recall only."""


def decision_reads(decision: str) -> tuple[str, ...]:
    """The rule options a decision's paired hands read (`dreeg_reads.hand_reads` of its stage, played apart from the
    phases), but `INFORMATION_OPTIONS`."""
    return tuple(name for name in hand_reads(*DECISION_STAGES[decision]) if name not in INFORMATION_OPTIONS)


def threshold_classes(decision: str) -> int:
    """Number of situation classes of a decision of `DECISIONS`."""
    return MOMENT_CLASSES if decision == "moment" else THRESHOLD_CLASSES


def moment_class(tricks: int, points: int, trumps: int) -> int:
    """Class index of a closing moment: (tricks played, own-points class, trumps class) in C order
    of shape (MOMENT_TRICKS, len(MOMENT_POINTS) + 1, MOMENT_TRUMPS)."""
    p = sum(points >= bound for bound in MOMENT_POINTS)
    t = min(max(trumps - 1, 0), MOMENT_TRUMPS - 1)
    return (min(tricks, MOMENT_TRICKS - 1) * (len(MOMENT_POINTS) + 1) + p) * MOMENT_TRUMPS + t


def moment_label(cls: int) -> tuple[int, str, str]:
    """(tricks played, own-points class, trumps class) of a `moment_class` index, as labels."""
    rest, t = divmod(cls, MOMENT_TRUMPS)
    tricks, p = divmod(rest, len(MOMENT_POINTS) + 1)
    lows = (0,) + MOMENT_POINTS
    points = f"{lows[p]}+" if p == len(MOMENT_POINTS) else f"{lows[p]}-{MOMENT_POINTS[p] - 1}"
    trumps = ("0-1", "2", "3", "4+")[t]
    return tricks, points, trumps


class _Moments(GreedyPolicy):
    """Greedy, numbering every closing question of a hand in the shared ``log`` ((position, class)
    each) and answering ``answer`` to question number ``at`` (-1: none)."""

    def __init__(self, log: list, at: int = -1, answer: bool = False):
        super().__init__()
        self.log, self.at, self.answer = log, at, answer

    def close(self, play, pos):
        trumps = r.bit_count(play.hands[pos] & r.SUIT_MASKS[play.trump])
        self.log.append((pos, moment_class(sum(play.tricks), play.side_score(play.sides[pos]), trumps)))
        if len(self.log) - 1 == self.at:
            return self.answer
        return super().close(play, pos)


class _Asked(GreedyPolicy):
    """Greedy, recording its Durchmarsch question (the number of non-sure cards) and answering
    ``declare``."""

    def __init__(self, declare: bool, seen: list):
        super().__init__()
        self.declare, self.seen = declare, seen

    def durchmarsch(self, play, pos):
        hand = play.hands[pos]
        self.seen.append((pos, r.bit_count(hand & ~sure_cards(hand, play.gone, -1))))
        return self.declare


class _Soloist(GreedyPolicy):
    """Greedy, with the Rot Assen trump answer fixed: the greedy best trump, never surrendering (``surrender``
    False), or surrender (True)."""

    def __init__(self, surrender: bool):
        super().__init__()
        self.surrender = surrender

    def ra_trump(self, play, pos, suits, allow_surrender):
        return SURRENDER if self.surrender else super().ra_trump(play, pos, suits, False)


def surrender_score(hand: int, trump: int) -> int:
    """A Rot Assen soloist's trumps plus his Aces of the other suits: the score `GreedyPolicy.ra_trump`
    surrenders with when it is below half the hand's cards."""
    aces = sum((hand >> (r.N_RANKS * s + r.ACE)) & 1 for s in range(r.N_SUITS) if s != trump)
    return r.bit_count(hand & r.SUIT_MASKS[trump]) + aces


class _Exchanger(GreedyPolicy):
    """Greedy, except for the trump-9 exchange: ``take`` swaps at every chance (the leader's question,
    §3.1.2; the closer's opponent's and the follower's, playing the indicator at once, under the §3.5
    variants), else never; records the first chance of the hand in the shared ``seen``: (position, rank of
    the indicator)."""

    def __init__(self, take: bool, seen: list):
        super().__init__()
        self.take, self.seen = take, seen

    def _chance(self, play, pos) -> None:
        if not self.seen:
            self.seen.append((pos, r.card_rank(play.talon[-1])))

    def exchange(self, play, pos):
        self._chance(play, pos)
        return self.take

    def card(self, play, pos, legal):
        swap = legal & ~play.hands[pos]  # the indicator offered to the follower (duel66_exchange_by_follower)
        if not swap:
            return super().card(play, pos, legal)
        self._chance(play, pos)
        return swap.bit_length() - 1 if self.take else super().card(play, pos, legal & ~swap)


def lost_schwarz(res, pos: int, opts: dict) -> bool:
    """Whether ``pos``'s side lost the two-sided hand ``res`` (`side_lost`) without a trick; False for a hand
    that was not played (surrendered, ended by a penalty) and in Kamerun."""
    tricks = sum(t for t, side in zip(res.tricks, res.sides) if side == res.sides[pos])
    return bool(res.scores) and side_lost(res, pos, opts) and tricks == 0


class Outcome(tuple):
    """The decider's outcome of one branch: (won, net strokes, lost Schwarz), with ``pos`` (his position from
    forehand) and ``erase`` (the hand's erase vector by position) for the phase value (`DeciderValues`)."""

    def __new__(cls, won: bool, net: int, schwarz: bool, pos: int, erase):
        self = super().__new__(cls, (won, net, schwarz))
        self.pos, self.erase = pos, tuple(erase)
        return self


def _outcome(res, pos: int, opts: dict) -> Outcome:
    """The decider's outcome in the two-sided hand ``res``: won: his side erases, net strokes (`_net`), lost
    Schwarz (`lost_schwarz`)."""
    return Outcome(res.erase[pos] > 0, _net(res, pos, False), lost_schwarz(res, pos, opts), pos, res.erase)


def _net(res, pos: int, kamerun: bool) -> int:
    """The decider's net strokes: what his side erases minus the most another player erases
    (Kamerun: minus his own, as erasing is bad there)."""
    return -res.erase[pos] if kamerun else res.erase[pos] - opponents_best(res, pos)


@dataclass(frozen=True)
class ThresholdJob:
    """Paired play-outs of one decision (`DECISIONS`) on the same deals, every other choice greedy.
    Counts (classes, THRESHOLD_COUNTS), with ``value`` (`DeciderValues`) (classes, THRESHOLD_COUNTS +
    VALUE_COUNTS + its replicates) over the deals it takes."""

    decision: str
    options: tuple = ()
    block_size: int = 512
    value: DeciderValues | None = field(default=None, repr=False)
    players: int = 4

    def __post_init__(self):
        checks.one_of(self.decision, "decision", DECISIONS)
        if self.players not in (3, 4):
            raise CardsimError(f"--players must be 3 or 4, got {self.players}")
        if self.players != 4 and self.decision not in TABLE_DECISIONS:
            raise CardsimError(f"the {self.decision} decision is a 2-player hand, the same in 3- and 4-player Dreeg; "
                               "--players 3 changes it only through --strokes (the phase value)")
        if rule_options(**dict(self.options))["information"] != "perfect_recall":
            raise CardsimError("thresholds compare decisions under perfect recall; drop --option information=...")
        if self.value is None:  # with a phase value, its whole phases read more (`PhaseHandsJob` checks them)
            subgame, players = decision_stage(self.decision, self.players)
            check_reads(self.options, decision_reads(self.decision),
                        f"the {self.decision} decision's hand ({r.SUBGAME_NAMES[subgame]} of {players} players)")

    def key(self) -> str:
        value = "" if self.value is None else f"|value={self.value}"
        return f"dreeg-threshold|v3|{self}{value}"

    @property
    def n_counts(self) -> int:
        return threshold_classes(self.decision) * self.width

    @property
    def width(self) -> int:
        """Counts per class."""
        return THRESHOLD_COUNTS + (0 if self.value is None else VALUE_COUNTS + self.value.replicates)

    def run_block(self, seed: int, block: int, n: int) -> np.ndarray:
        cards, picks = block_stream(seed, block), block_substream(seed, block, 3)
        opts = rule_options(**dict(self.options))
        classes = threshold_classes(self.decision)
        counts = np.zeros((classes, self.width), dtype=np.int64)
        for _ in range(n):
            perm = cards.permutation(24)
            found = self._moment(perm, opts, picks) if self.decision == "moment" else \
                getattr(self, f"_{self.decision}")(perm, opts)
            if found is not None and (self.value is None or self.value.takes(found[1][0].pos)):
                self._tally(counts[min(found[0], classes - 1)], found[1])
        return counts.ravel()

    def _tally(self, row: np.ndarray, outcomes) -> None:
        """Add one deal's outcomes with A and B (`Outcome`) to its class's counts."""
        (won_a, net_a, schwarz_a), (won_b, net_b, schwarz_b) = outcomes
        row[:THRESHOLD_COUNTS] += (1, won_a, won_b, net_a, net_b, net_a - net_b, (net_a - net_b) ** 2, schwarz_a,
                                   schwarz_b)
        if self.value is not None:
            v_a, v_b = (self.value.lookup(o.pos, o.erase) for o in outcomes)
            d = v_a - v_b
            row[THRESHOLD_COUNTS:THRESHOLD_COUNTS + VALUE_COUNTS] += (v_a[0], v_b[0], d[0], d[0] * d[0])
            row[THRESHOLD_COUNTS + VALUE_COUNTS:] += d[1:]

    @staticmethod
    def _close(perm, opts):
        hands, _ = deal_for("66", perm, 2, opts)
        trump = r.card_suit(r.deal_duel66(perm, opts["duel66_indicator"])[1][-1])
        hand = hands[0]
        sure = sure_cards(hand, 0, trump)
        estimate = (sum(r.marriage_value(s, trump) for s in r.marriage_suits(hand)) + r.points_of(sure)
                    + SURE_TRICK_BONUS * r.bit_count(sure))
        outcomes = []
        for close in (True, False):
            res = play_hand("66", 1, perm, [Committed(GreedyPolicy(), close=close), GreedyPolicy()], opts)
            outcomes.append(_outcome(res, 0, opts))
        return estimate // 10, outcomes

    def _call(self, perm, opts):
        packet = r.first_packet(perm)
        greedy = GreedyPolicy()
        call = greedy.call(None, 0, packet)
        suit = r.card_suit(call)
        own = (packet & r.SUIT_MASKS[suit]).bit_length() - 1
        outcomes = []
        for card in (call, own):
            players = [Committed(GreedyPolicy(), call=card)] + [GreedyPolicy() for _ in range(self.players - 1)]
            res = play_hand("RU", 3, perm, players, opts)
            outcomes.append(_outcome(res, 0, opts))
        return r.bit_count(packet & r.SUIT_MASKS[suit]), outcomes

    @staticmethod
    def _moment(perm, opts, picks: np.random.Generator):
        """One closing moment of a greedy 2-player 66 hand, drawn uniformly among the hand's
        closing questions, played both ways; the rest of the hand is identical up to it."""
        log: list = []
        play_hand("66", 1, perm, [_Moments(log), _Moments(log)], opts)
        at = int(picks.random() * len(log))
        pos, cls = log[at]
        outcomes = []
        for close in (True, False):
            shared: list = []
            res = play_hand("66", 1, perm, [_Moments(shared, at, close), _Moments(shared, at, close)], opts)
            outcomes.append(_outcome(res, pos, opts))
        return cls, outcomes

    @staticmethod
    def _hide(perm, opts):
        hands, _ = deal_for("RA", perm, 2, opts)
        holder = next((p for p in (0, 1) if (hands[p] >> r.HEART_ACE) & 1), -1)
        if holder < 0:
            return None
        outcomes = []
        for policy in (GreedyPolicy(), SlyPolicy()):
            players = [GreedyPolicy(), GreedyPolicy()]
            players[holder] = policy
            res = play_hand("RA", 2, perm, players, opts)
            outcomes.append(_outcome(res, holder, opts))
        return max(r.bit_count(hands[holder] & m) for m in r.SUIT_MASKS), outcomes

    def _durchmarsch(self, perm, opts):
        outcomes, seen = [], []
        for declare in (True, False):
            res = play_hand("KA", 4, perm, [_Asked(declare, seen) for _ in range(self.players)], opts)
            pos = seen[0][0]
            outcomes.append(Outcome(res.erase[pos] == 0, _net(res, pos, True), False, pos, res.erase))
        return seen[0][1], outcomes

    def _surrender(self, perm, opts):
        """Rot Assen with 4 or 3 players (§3.2.1): the heart-ace holder plays with the greedy best trump or
        surrenders; class `surrender_score` of his hand and that trump, SURRENDER_TOP and more in one."""
        hands, _ = deal_for("RA", perm, self.players, opts)
        holder = next(p for p in range(self.players) if (hands[p] >> r.HEART_ACE) & 1)
        results = []
        for surrender in (False, True):
            players = [GreedyPolicy() for _ in range(self.players)]
            players[holder] = _Soloist(surrender)
            results.append(play_hand("RA", 2, perm, players, opts))
        cls = min(surrender_score(hands[holder], results[0].trump), SURRENDER_TOP)
        return cls, [_outcome(res, holder, opts) for res in results]

    @staticmethod
    def _exchange(perm, opts):
        """2-player 66: the trump 9's holder at his first chance to exchange (None when the hand gives
        none) exchanges then (A) or never (B); both branches are greedy and identical up to that chance."""
        outcomes, chances = [], []
        for take in (True, False):
            seen: list = []
            res = play_hand("66", 1, perm, [_Exchanger(take, seen), _Exchanger(take, seen)], opts)
            if not seen:
                return None
            chances.append(seen[0])
            outcomes.append(_outcome(res, chances[0][0], opts))
        return INDICATOR_RANKS.index(chances[0][1]), outcomes
