"""Perlaggen betting (4 players, Innsbruck or Eichel): the rules engine of `simcore.betting` with the
Perlaggen rules of perlaggen.md §8, the wild cards (baptism), figure estimates and whole games.

Differences from Giltspiel, all `BettingRules` flags or adapter methods here:

* §8.2 / A-16: during trick play at most one unanswered bet at a time;
* §8.9: a team failing the example duty gets -2 **and scores nothing in the deal**; the opponents
  score the failed figure once if they hold an example (A-37);
* A-11: an unbet Gleich/Hanger conceded scores only if the receiving team holds an example;
* §8.5: a Perlagg as the fifth card always qualifies for the fifth-trick Spiel bet;
* §8.13: both gestrichen: the best >= 3-card figure wins (Innsbruck: more cards, then Gleich over
  Hanger, then the higher one; equal -> play), Eichel: >= 4 cards and length only (A-26);
* §8.14: blind bets (``Deal(..., blind=[(seat, figure), ...])``), no example duty, no penalty.

Cards are `simcore.games.perlaggen` ints (the Weli is 32). Figure codes are the spec's (§5.2, §6.2)
with "none" as -1. A wild card shown in the showing or played to a trick carries its baptism
(``deal.baptised[seat]``); figures are evaluated with the remaining Perlaggen free (level L0).
Trick play uses `simcore.games.perlaggen_play` (legal plays with baptism, the trick winner, the greedy
G1 policy of §11.7). The target is 18 (South Tyrol; the spec's range 11-24).

Three players (§9.4) and Strafperlaggen (§9.5): `ThreeFigure` is the answering protocol of one figure
(gut / accept / free ride / raise to 3) and its Strafperlaggen settlement; whole 3-player deals and
games (7 cards, 4 tricks for the Spiel, the clockwise showing) are not implemented.
"""

from __future__ import annotations

import sys
from functools import lru_cache

import numpy as np

from simcore import betting
from simcore.betting import G, BettingRules, Deal, GameRecord, Policy
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as PD
from simcore.games import perlaggen_play as PP
from simcore.rng import block_substream

SEATS = 4
DEFAULT_TARGET = next(o.default for o in P.OPTIONS if o.name == "target")
"""The registered ``target`` option's default (§8.10)."""
TABLE_SEED = 20240531
TABLE_DEALS = 1 << 17
SPIEL_DEALS = 1500
CODE_BINS = 16 * 6
"""Index code + 1 of a Gleich or Hanger code (-1 none, else 16 * size + strength <= 88)."""
BOTH_GESTRICHEN_SIZE = {"innsbruck": 3, "eichel": 4}


def rules_from_options(target: int | None = None, strict_examples: bool = True) -> BettingRules:
    """The Perlaggen betting rules (§8): target 18 unless given."""
    return BettingRules(target=DEFAULT_TARGET if target is None else target, strict_examples=strict_examples,
                        one_pending_in_play=True, penalty_voids_deal=True, concede_needs_example=True,
                        blind_bets=True)


class PerlaggenCards:
    """`simcore.betting.GameAdapter` of the 33-card pack for one style and trump suit (an int)."""

    def __init__(self, style: str, trump: int):
        self.style, self.trump_suit = style, trump
        self.letter = P.DECK.suits[trump]
        self.wild = P.perlaggen(style, self.letter)

    def codes(self, cards, baptised=None) -> tuple[int, int]:
        fixed = tuple(sorted((baptised or {}).items()))
        return _codes(self.style, self.letter, P.DECK.mask(cards), fixed)

    def legal(self, hand, trick, trump: int) -> set[tuple[int, int]]:
        return PP.legal_plays(P.DECK.mask(hand), trick, trump, self.style)

    def trick_winner(self, trick, leader: int, trump: int) -> int:
        return PP.trick_winner_of(trick, leader, trump, self.style)

    def fifth_card_ok(self, card: int, led: int, trump: int) -> bool:
        return card in self.wild or card // 8 in (led // 8, trump)

    def both_gestrichen_winner(self, hands) -> int | None:
        """§8.13: the best figure of at least 3 cards (Eichel 4) wins the game; equal -> None (play)."""
        least = BOTH_GESTRICHEN_SIZE[self.style]
        best = []
        for team in (0, 1):
            keys = [(-1,)]
            for seat in (team, team + 2):
                g, h = self.codes(hands[seat])
                for code, is_gleich in ((g, 1), (h, 0)):
                    if code // 16 >= least:
                        keys.append((code // 16,) if self.style == "eichel" else (code // 16, is_gleich, code))
            best.append(max(keys))
        if best[0] == best[1]:
            return None
        return 0 if best[0] > best[1] else 1

    def example_cards(self, cards, figure: int, baptised=None) -> tuple[list[int], dict]:
        """The cards of the best example of ``figure`` among ``cards`` and the baptisms of its free
        Perlaggen ({} where none are needed); ([], {}) without an example."""
        baptised = dict(baptised or {})
        target = self.codes(cards, baptised)[figure]
        if target < 0:
            return [], {}
        size, strength = divmod(target, 16)
        free = [c for c in cards if c in self.wild and c not in baptised]
        for faces in _example_faces(figure, size, strength):
            natural = [c for c in cards if (c not in self.wild or c in baptised) and baptised.get(c, c) in faces]
            present = [baptised.get(c, c) for c in natural]
            wanted = [f for f in faces if f not in present]
            if figure == G:  # any faces of the rank, the missing suits first
                wanted = (wanted + faces * size)[:max(0, size - len(natural))]
            if len(wanted) <= len(free):
                chosen = dict(zip(free, wanted))
                example = natural + list(chosen)
                if self.codes(example, {**baptised, **chosen})[figure] == target:
                    return example, chosen
        return list(cards), {}

    def choose_card(self, deal: Deal, seat: int) -> tuple[int, int]:
        """The §11.7 G1 greedy play."""
        return PP.choose("greedy", P.DECK.mask(deal.in_hand[seat]), deal.trick, deal.trump, style=self.style)


def _example_faces(figure: int, size: int, strength: int):
    """Candidate face lists of a Gleich (size cards of one strength) or a run (one suit) of the code."""
    if figure == G:
        rank = strength - 1  # strength 1..8 = ranks 7..A; strength 0 is the Weli (6)
        yield [P.WELI] if rank < 0 else [suit * 8 + rank for suit in range(4)]
        return
    for suit in range(4):
        faces = []
        for s in range(strength - size + 1, strength + 1):
            faces.append(P.WELI if s == 0 else suit * 8 + s - 1)
        if all(f == P.WELI or f // 8 == suit for f in faces):
            yield faces


@lru_cache(maxsize=1 << 16)
def _codes(style: str, letter: str, mask: int, fixed: tuple) -> tuple[int, int]:
    wild = P.perlaggen(style, letter)
    row = np.full((1, len(wild)), -1, dtype=np.int8)
    for card, identity in fixed:
        if card in wild and (mask >> card) & 1:
            row[0, wild.index(card)] = identity
    g, h = P.figure_codes(np.array([mask], dtype=np.uint64), style, letter, row)[0]
    return int(g) if g else -1, int(h) if h else -1


@lru_cache(maxsize=8)
def cards_for(style: str, trump: int) -> PerlaggenCards:
    return PerlaggenCards(style, trump)


STYLE = "innsbruck"


def cards(trump: int) -> PerlaggenCards:
    """The engine's view of the pack for this deal's trump (Innsbruck style)."""
    return cards_for(STYLE, trump)


def new_deal(hands, trump: int, dealer: int = 0, scores=(0, 0), rules: BettingRules | None = None,
             style: str = STYLE, blind=()) -> Deal:
    """A `Deal` of Perlaggen; hands: four sequences of five cards; trump: suit index (E L H S = 0..3)."""
    if P.DECK.suits[trump] not in P.trump_suits(style):
        raise CardsimError(f"trump {P.DECK.suits[trump]} is not possible in the {style} style")
    return Deal(cards_for(style, trump), rules or rules_from_options(), hands, trump, dealer, scores, blind)


# --- deals and estimates --------------------------------------------------------------------------
def draw_deal(rng: np.random.Generator, dealer: int = 0) -> tuple[list[tuple[int, ...]], int]:
    """A deal as played (§3: cut, deal, turn-up, exchanges; `perlaggen_deal`) with ``dealer`` dealing:
    four hands (engine seats 0-3) and the trump suit."""
    words = rng.integers(0, 1 << 32, size=(1, PD.WORDS_PER_DEAL), dtype=np.uint64).astype(np.uint32)
    row = PD.deal_block(words, PD.DealRules(style=STYLE))[0]
    hands = [()] * SEATS
    for i in range(SEATS):
        hands[(dealer + i) % SEATS] = tuple(P.DECK.cards_of(int(row[PD.SEAT0 + i])))
    return hands, int(row[PD.TRUMP])


def _team_power(deal_cards, trump: int, wild) -> int:
    return sum(c in wild or c // 8 == trump for c in deal_cards)


@lru_cache(maxsize=1)
def figure_counts() -> np.ndarray:
    """(2, CODE_BINS, 4) int64: team-deals by the team's best code + 1 and outcome, deals as played."""
    return betting.disk_cached(f"perlaggen-{STYLE}-figures-{TABLE_DEALS}-seed{TABLE_SEED}", _figure_counts)


def _figure_counts() -> np.ndarray:
    rng = block_substream(TABLE_SEED, 0, 1)
    words = rng.integers(0, 1 << 32, size=(TABLE_DEALS, PD.WORDS_PER_DEAL), dtype=np.uint64).astype(np.uint32)
    rows = PD.deal_block(words, PD.DealRules(style=STYLE))
    codes = np.empty((TABLE_DEALS, SEATS, 2), dtype=np.int64)
    trumps = rows[:, PD.TRUMP].astype(np.int64)
    for trump in np.unique(trumps):
        chosen = trumps == trump
        for seat in range(SEATS):
            found = P.figure_codes(rows[chosen, PD.SEAT0 + seat], STYLE, P.DECK.suits[trump]).astype(np.int64)
            codes[chosen, seat] = np.where(found > 0, found, -1)
    return betting.figure_counts(codes, CODE_BINS)


@lru_cache(maxsize=1)
def spiel_table() -> np.ndarray:
    """(3, 3, 9) P(team wins the Spiel | tricks, opponents' tricks, trumps and Perlaggen it holds), G1 play."""
    return betting.disk_cached(f"perlaggen-{STYLE}-spiel-{SPIEL_DEALS}-seed{TABLE_SEED}",
                               lambda: betting.spiel_table(_spiel_games()))


def _spiel_games():
    rng = block_substream(TABLE_SEED, 0, 2)
    for _ in range(SPIEL_DEALS):
        hands, trump = draw_deal(rng)
        wild = cards(trump).wild
        line = PP.play_line("greedy", np.array([P.DECK.mask(h) for h in hands], dtype=np.uint64), trump, style=STYLE)
        left = [list(h) for h in hands]
        winners, power = [], []
        for start in range(0, len(line), SEATS):
            power.append([_team_power(left[t] + left[t + 2], trump, wild) for t in (0, 1)])
            trick = line[start:start + SEATS]
            for seat, card, _ in trick:
                left[seat].remove(card)
            winners.append(PP.trick_winner_of([(c, b) for _, c, b in trick], trick[0][0], trump, STYLE))
        yield winners, power


def figure_table() -> np.ndarray:
    return betting.outcome_rates(figure_counts())


def class_shares() -> np.ndarray:
    return betting.class_shares(figure_counts())


def class_name(figure: int, code: int) -> str:
    return (P.gleich_name if figure == G else P.hanger_name)(code)


def _power(deal: Deal, team: int) -> int:
    return _team_power(deal.in_hand[team] | deal.in_hand[team + 2], deal.trump, deal.game.wild)


def make_estimator() -> betting.TableEstimator:
    """Perlaggen estimates under full partner information (spec A-30, shared-information mode)."""
    return betting.TableEstimator(figure_table(), spiel_table(), _power)


def play_game(policies: tuple[Policy, Policy], deal_rng, bluff_rng, rules: BettingRules, estimator=None) -> GameRecord:
    """A whole Perlaggen game (`simcore.betting.play_game`)."""
    return betting.play_game(sys.modules[__name__], policies, deal_rng, bluff_rng, rules, estimator or make_estimator())


def match_job(a: Policy, b: Policy, rules: BettingRules) -> betting.MatchJob:
    """The runner job of a Perlaggen match between policies a and b."""
    return betting.MatchJob(__name__, a, b, rules)



# --- three players, each for himself (§9.4) and Strafperlaggen settlements (§9.5) -----------------
GUT3, ACCEPT3, RAISE3 = "gut", "accept", "raise"


class ThreeFigure:
    """One figure bet in the 3-player game (§9.4): players 0, 1, 2 clockwise, ``bettor`` bets 2.

    The others answer clockwise from the bettor's left: gut (out of the figure), accept, or raise (accept
    and bet 3, at most 3). If the first answerer accepts, the second rides free (no duty, may still win).
    A player who accepted or rides free may raise to 3, at once or later (the bettor may not, A-29); the
    raiser's opponents still in answer clockwise from his left; if the first accepts, the other counts as
    accepting (free ride at 3). Acting out of turn costs 2 penalty points and the deal's score (Straf).

    ``level[p]``: the highest value p actively committed to (bet 2, accept 2, raise 3, accept a raise 3).
    """

    def __init__(self, bettor: int, scores=(9, 9, 9), straf: bool = True):
        if straf and scores[bettor] <= 1:
            raise CardsimError(f"§9.5: player {bettor} is on 1 and may not bet")
        self.bettor, self.scores, self.straf = bettor, tuple(scores), straf
        self.value = 2
        self.level = [0, 0, 0]
        self.level[bettor] = 2
        self.out: set[int] = set()  # players who said gut (cannot win the figure)
        self.free: set[int] = set()
        self.queue = [(bettor + 1) % 3, (bettor + 2) % 3]  # who answers next, in order
        self.raiser: int | None = None
        self.penalised: set[int] = set()

    @property
    def settled_bet(self) -> bool:
        return not self.queue

    def eligible(self) -> set[int]:
        """Players who may still win the figure."""
        return {0, 1, 2} - self.out

    def answer(self, player: int, kind: str) -> None:
        """gut / accept / raise by ``player``; out of turn: +2 and nothing this deal (§9.5), no effect."""
        if not self.queue or player != self.queue[0]:
            self.penalised.add(player)
            return
        if kind not in (GUT3, ACCEPT3, RAISE3):
            raise CardsimError(f"§9.4: an answer is gut, accept or raise, got {kind!r}")
        self.queue.pop(0)
        if kind == GUT3:
            self.out.add(player)
        elif kind == RAISE3:  # accept and bet 3 at once: the raise is answered from the raiser's left
            self.level[player] = max(self.level[player], self.value)
            self.queue = []
            self.raise_(player)
        else:
            self.level[player] = self.value
            if self.queue:  # the first to answer accepted: the other one rides free (counts as accepting)
                self.free.add(self.queue.pop(0))

    def raise_(self, player: int) -> None:
        """Raise to 3 by a player who accepted or rides free (§9.4)."""
        if self.value >= 3:
            raise CardsimError("§9.4: a raise beyond 3 is not allowed")
        if player == self.bettor:
            raise CardsimError("A-29: the original bettor may not raise")
        if player in self.out or (self.level[player] == 0 and player not in self.free):
            raise CardsimError(f"§9.4: player {player} neither accepted nor rides free, so may not raise")
        if self.queue:
            raise CardsimError("§9.4: the bet must be answered first")
        if self.straf and self.scores[player] <= 1:
            raise CardsimError(f"§9.5: player {player} is on 1 and may not raise")
        self.value, self.raiser = 3, player
        self.level[player] = 3
        self.free.discard(player)
        self.queue = [p for p in ((player + 1) % 3, (player + 2) % 3) if p not in self.out]

    def straf_changes(self, winner: int | None, spiel: bool = False) -> list[int]:
        """Strafperlaggen point changes (subtracting is good) once the figure is decided.

        winner: the player who wins it by the cards (best Gleich/Hanger, or 4 tricks), or None (it
        stands, or nobody took 4 tricks); a winner who is out of the figure cannot win it.
        """
        changes = [0, 0, 0]
        if self.eligible() == {self.bettor} and self.raiser is None:
            changes[self.bettor] -= 1  # everyone conceded the original bet
            return self._void_penalised(changes)
        if self.raiser is not None and self.eligible() == {self.raiser}:
            changes[self.raiser] -= 2
            for p in range(3):
                if p != self.raiser:
                    changes[p] += self.level[p]
            return self._void_penalised(changes)
        if winner is not None and winner in self.eligible():
            changes[winner] -= self.value
            for p in range(3):
                if p != winner:
                    changes[p] += self.level[p]
        elif winner is None and not spiel:
            pass  # a Gleich or Hanger that stands
        else:
            for p in range(3):
                changes[p] += self.level[p]
        return self._void_penalised(changes)

    def _void_penalised(self, changes: list[int]) -> list[int]:
        for p in self.penalised:
            changes[p] = 2
        return changes
