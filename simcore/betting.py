"""Betting, showing and scoring of one deal and of a whole game, for the Gilten family (Giltspiel, Perlaggen).

Rules: shared/rules/giltspiel.md §7 and perlaggen.md §8 (the two agree on the state machine; the
differences are `BettingRules` flags). The core never names a game: a game supplies a `GameAdapter`
(figure codes of a set of cards, legal cards, the trick winner, the both-gestrichen comparison).

Seats 0..n-1 clockwise (n = 2, 4 or 6 players; perlaggen.md §9.2-§9.3), team = seat % 2 (partners
sit opposite or, with six, every other seat), forehand = dealer + 1 leads. With k cards each there
are k tricks and the Spiel needs k // 2 + 1 of them; with an even k (six players with four cards) it
can end 2-2 with nobody winning it ("das Spiel ist hin", §9.3). Figures are ``G, H, SP`` (Gleich,
Hanger, Spiel). A figure's value runs 1..7 and then `AUS` ("Spiel aus"). A decided figure's
``winner`` is a team (0, 1), `STAND` (a tie), `VOID` (nobody holds one) or `NOBODY` (no score for
another reason: a failed verification, the both-gestrichen rule).

The `Deal` methods are the actions of the spec's state machine (§7.15): `Deal.bet`, `Deal.answer`
(gut / hold / raise), `Deal.concede`, `Deal.play`, and in the showing `Deal.reveal` and
`Deal.end_turn`. An action the rules forbid raises `CardsimError` naming the rule; the state is then
unchanged. When the deal is over ``deal.result`` holds the score sheet line (`DealResult`).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from simcore import checks
from simcore.errors import CardsimError, is_whole_int, unknown_name

G, H, SP = 0, 1, 2
FIGURES = (G, H, SP)
FIGURE_NAMES = ("Gleich", "Hanger", "Spiel")
AUS = 8
"""The value after 7: "Spiel aus" (a held AUS figure wins the game; conceded it scores 7)."""
STAND, VOID, NOBODY = 2, 3, 4
GUT, HOLD, RAISE = "gut", "hold", "raise"
PLAY, SHOWDOWN, DONE = "play", "showdown", "done"
PENALTY = 2
SPEECH_ORDERS = ("clockwise_from_next", "random_priority")
"""`BettingRules.speech_order` (Giltspiel A-12)."""
AUS_SCORINGS = ("ends_game", "category_2")
"""`BettingRules.spiel_aus_held` (Giltspiel A-14)."""
MAX_TARGET = 100
"""Largest target (Strafperlaggen: starting count): the rules play to 11-24 (Strafperlaggen from 9), a game
takes about one deal per point and the match-equity tables of the thresholds grow as the target squared."""


def bet_allowed(score: int, value: int, target: int) -> bool:
    """The betting limit near the end (giltspiel.md §7.11, perlaggen.md §8.6): a side on ``score`` (its points plus
    those secured in the deal) may bet or raise a figure from ``value`` only if conceding it to that side stays below
    ``target``, so that the others can concede without losing the game."""
    return score + value < target


def deal_arguments(hands, trump, dealer, scores, target: int | None, cards: int, hand: int = 5,
                   players: int = 4) -> tuple[list[tuple[int, ...]], int, int, tuple[int, ...]]:
    """(hands, trump, dealer, scores) of a new deal, checked: ``players`` hands of ``hand`` card numbers from 0 to
    ``cards`` - 1, no card twice; trump a suit 0-3; dealer a seat; scores two (three players: three) whole numbers
    below ``target`` (a side on the target has won; None: no target; penalties can make them negative). CardsimError
    naming the argument otherwise."""
    how = f"hands must be {players} hands of {hand} card numbers each (0-{cards - 1})"
    rows = list(hands) if isinstance(hands, (list, tuple, np.ndarray)) else ()
    if len(rows) != players or not all(isinstance(row, (list, tuple, np.ndarray)) and len(row) == hand
                                       and all(is_whole_int(c) and 0 <= c < cards for c in row) for row in rows):
        raise CardsimError(f"{how}, got {' '.join(repr(hands).split())}")
    rows = [tuple(int(c) for c in row) for row in rows]
    held = [c for row in rows for c in row]
    if len(set(held)) != len(held):
        twice = next(c for c in held if held.count(c) > 1)
        raise CardsimError(f"hands: card {twice} is held twice; each card can be in one hand only")
    scores = checks.wholes(scores, "scores", 3 if players == 3 else 2, None, None if target is None else target - 1,
                           "" if target is None else f" (the points, below the target {target})")
    return rows, checks.whole(trump, "trump", 0, 3), checks.whole(dealer, "dealer", 0, players - 1), scores


def check_target(target, typed: str | None = None) -> None:
    """A `CardsimError` unless ``target`` is a whole number of points from 2 to `MAX_TARGET`; the error quotes
    ``typed``, the target as the user typed it, when given."""
    if not isinstance(target, int) or not 2 <= target <= MAX_TARGET:
        shown = repr(target) if typed is None else f"'{typed}'"
        raise CardsimError(f"the target must be a whole number of at least 2 and at most {MAX_TARGET} points (the "
                           f"rules play to 11-24; a game takes about one deal per point), got {shown}")


def check_rules(rules) -> None:
    """A `CardsimError` unless ``rules`` is a `BettingRules` or None (a game's `rules_from_options` defaults)."""
    if rules is not None and not isinstance(rules, BettingRules):
        raise CardsimError(f"rules must be a BettingRules (rules_from_options gives one) or None, got "
                           f"{checks.shown(rules)}")


class GameAdapter(Protocol):
    """What the engine needs to know about a game's cards (all cards are ints)."""

    def codes(self, cards, baptised=None) -> tuple[int, int]:
        """(Gleich code, Hanger code) of a set of one player's cards; -1 = none; higher wins.
        baptised: {wild card: identity} fixed so far (games with wild cards); other wild cards are free."""

    def legal(self, hand, trick: list[tuple[int, int]], trump: int) -> set[tuple[int, int]]:
        """(card, identity) plays of ``hand`` allowed on ``trick`` ((card, identity) plays in order);
        a natural card's identity is the card itself, a wild card's the card it is baptised as."""

    def trick_winner(self, trick: list[tuple[int, int]], leader: int, trump: int) -> int:
        """Seat that wins a complete trick of (card, identity) plays led by ``leader``."""

    def fifth_card_ok(self, card: int, led: int, trump: int) -> bool:
        """Whether a fifth card lets its player bet the Spiel in trick 5 (§7.6): it follows the suit of
        the card ``led`` or is a trump (or, with wild cards, is a wild card)."""

    def both_gestrichen_winner(self, hands, baptised=None) -> int | None:
        """Team that wins the game by a >= 3-card figure when both teams are gestrichen, else None; ``baptised``:
        per seat {wild card: identity} fixed so far in the deal (games with wild cards)."""


@dataclass(frozen=True)
class BettingRules:
    """Rule choices of the betting engine (defaults: Giltspiel)."""

    target: int = 11
    strict_examples: bool = True
    """B5/A-19: refuse G/H bets, holds and raises by a seat without an example (else penalise later)."""
    fifth_trick_bet: str = "fifth_card_rule"
    """A-9: "fifth_card_rule" or "unplayed_only" (only seats that have not played to trick 5)."""
    one_pending_in_play: bool = False
    """Perlaggen A-16: during trick play at most one unanswered bet at a time."""
    penalty_voids_deal: bool = False
    """Perlaggen §8.9: a team failing verification scores nothing at all in the deal."""
    concede_needs_example: bool = False
    """Perlaggen A-11: an unbet G/H conceded scores only if the receiving team holds an example."""
    blind_bets: bool = False
    """Perlaggen §8.14: bets made before the cut, without example duty."""
    void_to_second_shower: bool = False
    """Giltspiel A-1 alternative: a figure nobody holds is conceded by the first team to show it to the second."""
    speech_order: str = "clockwise_from_next"
    """Giltspiel A-12: a §7.5 window polls the seats clockwise from the one to play, or ("random_priority") every
    round of polling takes them in a fresh random order, so that of the seats wanting to speak at once a random
    one speaks first (`betting_window`)."""
    spiel_aus_held: str = "ends_game"
    """Giltspiel A-14: a held Spiel aus, once decided, wins the game for its winner at once, before any other
    award ("ends_game"), or at its place in the §7.10 scoring order ("category_2": a team reaching the target
    earlier in that order wins)."""
    stop_on_target: bool = False
    """Giltspiel A-18: the deal ends at once when the game's winner is certain (`Deal.game_decided`): with the
    §7.9 verification as it stands, a team's score plus the penalties and the points conceded (which score first)
    reach the target, or a held Spiel aus is decided under "ends_game". The rest of the deal is not played; the
    figures decided so far score, after the verification."""

    def __post_init__(self):
        check_target(self.target)
        for name, choices in (("fifth_trick_bet", ("fifth_card_rule", "unplayed_only")),
                              ("speech_order", SPEECH_ORDERS), ("spiel_aus_held", AUS_SCORINGS),
                              ("stop_on_target", (False, True))):
            if not any(getattr(self, name) == c and type(getattr(self, name)) is type(c) for c in choices):
                raise CardsimError(f"{name} must be {' or '.join(map(str, choices))}, got {getattr(self, name)!r}")


@dataclass
class Figure:
    """One figure's state (spec §7.1). pending: (team, proposed value, seat, made in the showing)."""

    value: int = 1
    winner: int | None = None
    points: int = 0
    pending: tuple | None = None
    bet_right: int | None = None
    ever_bet: bool = False
    first_bet_seq: int | None = None
    concede_seq: int | None = None
    decided_seq: int | None = None
    """When the figure was decided (the deal's action counter): the first held Spiel aus decided ends the game."""
    decided_by: str | None = None
    aus_held: bool = False
    duty: set = field(default_factory=set)

    @property
    def open(self) -> bool:
        return self.winner is None


@dataclass
class DealResult:
    """The score sheet line of a deal.

    points: (2,) points each team scored (penalties included, in the scoring order up to the end);
    awards: [(category, figure, team, points)] in the §7.10 order (category 0 = penalty);
    game_winner: team that won the game in this deal or None; redeal: both gestrichen, nobody scored.
    """

    points: list
    awards: list
    game_winner: int | None
    winners: tuple
    redeal: bool = False


def other(team: int) -> int:
    return 1 - team


def _name(figure: int) -> str:
    return FIGURE_NAMES[figure]


class Deal:
    """State of one deal from the end of dealing to the score sheet.

    hands: n sequences of k cards (seat order; n = 2, 4, 6); trump: trump suit; dealer: seat;
    scores: (2,) the teams' totals before the deal.
    """

    def __init__(self, game: GameAdapter, rules: BettingRules, hands, trump: int, dealer: int = 0, scores=(0, 0),
                 blind=()):
        self.game, self.rules = game, rules
        self.hands = [tuple(h) for h in hands]
        self.players, self.tricks = len(self.hands), len(self.hands[0])
        self.need = self.tricks // 2 + 1
        """Tricks that win the Spiel."""
        self.trump, self.dealer = trump, dealer
        self.scores = list(scores)
        self._full_codes: list = [None] * self.players  # (G, H) code of each whole hand, when first needed
        self.in_hand = [set(h) for h in self.hands]
        self.shown = [[] for _ in range(self.players)]  # cards played or revealed, per seat
        self.baptised = [{} for _ in range(self.players)]  # wild card -> identity it was shown or played as, per seat
        self.n_shown = 0  # cards played or revealed so far (changes whenever the public cards do)
        self.blind: dict[int, int] = {}  # figure -> team that bet it blind (§8.14)
        self.figures = [Figure() for _ in FIGURES]
        self.secured = [0, 0]
        self.seq = 0
        self.phase = PLAY
        self.leader = (dealer + 1) % self.players
        self.trick: list[tuple[int, int]] = []  # (card, identity) plays of the current trick
        self.won = [0, 0]
        self.spiel_winner: int | None = None
        self.showing: int | None = None
        self.frozen = [False, False]
        self.void_passes = [0, 0]
        self.game_winner: int | None = None
        self.result: DealResult | None = None
        self.log: list[tuple] = []
        self.gestrichen_checked = False
        self.target = rules.target
        if self._both_gestrichen():
            self._both_gestrichen_resolution(at_start=True)
        if not isinstance(blind, (list, tuple)) or not all(
                isinstance(b, (list, tuple)) and len(b) == 2 and all(is_whole_int(x) for x in b) for b in blind):
            raise CardsimError(f"blind must be (seat, figure) pairs of blind bets, got {checks.shown(blind)}")
        for seat, figure in blind:
            self.blind_bet(seat, figure)

    # --- queries ----------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """Seat to play the next card."""
        return (self.leader + len(self.trick)) % self.players

    def members(self, team: int) -> tuple[int, ...]:
        """The team's seats."""
        return tuple(range(team, self.players, 2))

    def pending(self) -> list[tuple[int, tuple]]:
        """[(figure, (team, proposed, seat, in_showing))] of the unanswered bets."""
        return [(f, fig.pending) for f, fig in enumerate(self.figures) if fig.pending is not None]

    def best_code(self, seat: int, figure: int) -> int:
        """Best code of the seat's cards (wild cards already played or shown keep their identity)."""
        if self.baptised[seat]:
            return self.game.codes(self.hands[seat], self.baptised[seat])[figure]
        return self.full_codes(seat)[figure]

    def full_codes(self, seat: int) -> tuple[int, int]:
        """(Gleich, Hanger) codes of the seat's whole hand with every wild card free."""
        if self._full_codes[seat] is None:
            self._full_codes[seat] = self.game.codes(self.hands[seat])
        return self._full_codes[seat]

    def team_best(self, team: int, figure: int) -> int:
        return max(self.best_code(s, figure) for s in self.members(team))

    def has_example(self, seat: int, figure: int) -> bool:
        return self.best_code(seat, figure) >= 0

    def team_has_example(self, team: int, figure: int) -> bool:
        return any(self.has_example(s, figure) for s in self.members(team))

    def shown_code(self, team: int, figure: int) -> int:
        """Best code of ``figure`` the team has on view (played and revealed cards, each player alone)."""
        return max(self.game.codes(self.shown[s], self.baptised[s])[figure] for s in self.members(team))

    def bet_error(self, seat: int, figure: int, counter: bool = False) -> str | None:
        """Why ``seat`` may not bet ``figure`` now (None: it may). counter: a raise made in answer."""
        fig, team = self.figures[figure], seat % 2
        if self.phase == DONE:
            return "the deal is over"
        if not fig.open:
            return f"B1/B3: the {_name(figure)} is already decided"
        if fig.value == AUS:
            return f"§7.3: no raise over Spiel aus on the {_name(figure)}"
        if not counter and fig.pending is not None:
            return f"B1: a bet on the {_name(figure)} is still unanswered"
        if fig.bet_right is not None and fig.bet_right != team:
            return f"B2: team {team}'s bet on the {_name(figure)} was held; the other team bets next"
        if not bet_allowed(self.scores[team] + self.secured[team], min(fig.value, 7), self.target):
            return (f"B6/§7.11: team {team} could reach the target {self.target} by a concession "
                    f"({self.scores[team]} + {self.secured[team]} secured + {fig.value})")
        if not counter:
            waiting = [p for _, p in self.pending() if p[0] != team]
            if waiting:
                return "A-20: answer the pending bets first"
            if self.phase == PLAY and self.rules.one_pending_in_play and self.pending():
                return "A-16: one unanswered bet at a time during trick play"
            if self.phase == SHOWDOWN and team != self.showing:
                return "§7.8: only the showing team may bet in the showing (the other team may only raise)"
        if figure != SP and self.rules.strict_examples and not self.has_example(seat, figure):
            return f"B5/A-19: seat {seat} holds no example of the {_name(figure)}"
        if figure == SP:
            return self._fifth_trick_error(seat)
        return None

    def can_bet(self, seat: int, figure: int, counter: bool = False) -> bool:
        return self.bet_error(seat, figure, counter) is None

    def _fifth_trick_error(self, seat: int) -> str | None:
        """B8/§7.6: at 2-2 with a card led to trick 5, only a seat whose fifth card follows suit or trumps
        (generally: each team one trick short of the Spiel, a card led to the deciding last trick)."""
        if self.won != [self.need - 1] * 2 or not self.trick:
            return None
        slot = (seat - self.leader) % self.players
        if slot < len(self.trick):
            if self.rules.fifth_trick_bet == "unplayed_only":
                return f"A-9: seat {seat} has already played to the fifth trick"
            card = self.trick[slot][0]
        else:
            (card,) = self.in_hand[seat]
        if not self.game.fifth_card_ok(card, self.trick[0][1], self.trump):
            return f"§7.6: seat {seat}'s fifth card neither follows the suit led nor is a trump"
        return None

    # --- actions ----------------------------------------------------------------------------
    def _fail(self, message: str):
        raise CardsimError(message)

    def _tick(self) -> int:
        self.seq += 1
        return self.seq

    def bet(self, seat: int, figure: int, counter: bool = False) -> None:
        """BET (§7.2): the seat's team proposes the figure's next value."""
        error = self.bet_error(seat, figure, counter)
        if error:
            self._fail(error)
        self._place_bet(seat, figure)

    def _place_bet(self, seat: int, figure: int) -> None:
        fig = self.figures[figure]
        fig.pending = (seat % 2, fig.value + 1, seat, self.phase == SHOWDOWN)
        if not fig.ever_bet:
            fig.ever_bet, fig.first_bet_seq = True, self._tick()
        if figure != SP:
            fig.duty.add(seat)
        self.log.append((seat, figure, "bet"))

    def answer(self, seat: int, figure: int, kind: str) -> None:
        """Answer a pending bet (§7.3): GUT (concede at the old value), HOLD, or RAISE (hold and bet again)."""
        fig = self.figures[figure]
        if self.phase == DONE:
            self._fail("the deal is over")
        if fig.pending is None:
            self._fail(f"§7.3: there is no bet on the {_name(figure)} to answer")
        team, proposed, _, in_showing = fig.pending
        if seat % 2 == team:
            self._fail(f"§7.3: seat {seat} cannot answer its own team's bet")
        if kind not in (GUT, HOLD, RAISE):
            self._fail(f"§7.3: an answer is gut, hold or raise, got {kind!r}")
        if in_showing and team == self.showing:
            self._check_other_handled(figure, team)
        if kind == GUT:
            self._decide(figure, team, fig.value, "concession")
            self.log.append((seat, figure, GUT))
            return
        if figure != SP and self.rules.strict_examples and not self.has_example(seat, figure):
            self._fail(f"B5/A-11/A-19: seat {seat} holds no example of the {_name(figure)} and cannot hold it")
        if kind == RAISE:
            error = self.raise_error(seat, figure)
            if error:
                self._fail(error)
        fig.value, fig.pending, fig.bet_right = proposed, None, seat % 2
        fig.aus_held = proposed == AUS
        if figure != SP:
            fig.duty.add(seat)
        self.log.append((seat, figure, HOLD))
        if kind == RAISE:
            self.bet(seat, figure, counter=True)
            self.log[-1] = (seat, figure, RAISE)

    def raise_error(self, seat: int, figure: int) -> str | None:
        """Why ``seat`` may not answer the pending bet on ``figure`` with a raise (None: it may):
        a raise is a hold followed by a bet (§7.3), judged after the hold."""
        fig = self.figures[figure]
        saved = (fig.value, fig.pending, fig.bet_right)
        fig.value, fig.pending, fig.bet_right = fig.pending[1], None, seat % 2
        try:
            return self.bet_error(seat, figure, counter=True)
        finally:
            fig.value, fig.pending, fig.bet_right = saved

    def _check_other_handled(self, figure: int, team: int) -> None:
        """C-9/§7.8: before the opponents answer a showing bet, the showing team has dealt with the other figure."""
        for f in (G, H):
            fig = self.figures[f]
            if f != figure and fig.open and fig.pending is None and not self._contesting(team, f):
                self._fail(f"§7.8: team {team} must concede, contest or bet on the {_name(f)} "
                           "before its bet is answered")

    def _contesting(self, team: int, figure: int) -> bool:
        mine, theirs = self.shown_code(team, figure), self.shown_code(other(team), figure)
        return mine >= theirs and (mine >= 0 or not self.team_has_example(team, figure))

    def concede(self, team: int, figure: int) -> None:
        """Spontaneous concession (§7.4); on a figure the opponents bet it is their "gut". In the showing,
        conceding a figure the team is beaten on counts as decided by the cards (`_beaten`)."""
        fig = self.figures[figure]
        if self.phase == DONE or not fig.open:
            self._fail(f"§7.4: the {_name(figure)} is not open")
        if fig.pending is not None:
            if fig.pending[0] == team:
                self._fail(f"A-13: team {team} cannot concede the {_name(figure)} while its own bet on it is pending")
            self.answer(team, figure, GUT)  # seat ``team`` is a member of the team
            return
        if any(p[0] != team for _, p in self.pending()):
            self._fail("A-20: answer the pending bets first")
        by = "shown" if self.phase == SHOWDOWN and self.beaten(team, figure) else "concession"
        self._decide(figure, other(team), fig.value, by)
        self.log.append((team, figure, "concede"))

    def beaten(self, team: int, figure: int) -> bool:
        """The team cannot (or, frozen, may not) reach the opponents' displayed best: its concession in
        the showing is a decision by the cards (scoring category 2 or 3, §7.10 and example T24), not a
        voluntary "gut" (category 1)."""
        theirs = self.shown_code(other(team), figure)
        best = self.team_best(team, figure)
        return best < theirs or (self.is_frozen(team, figure) and self.shown_code(team, figure) < theirs)

    def play(self, seat: int, card: int, identity: int | None = None) -> None:
        """Play a card to the current trick (§6.1), a wild card as ``identity`` (baptism; None: named as
        itself, with its precedence, not A-06's unnamed play at precedence 0); the Spiel is decided at a team's
        third trick."""
        if self.phase != PLAY:
            self._fail("§7.15: cards are played only before the Spiel is decided")
        if self.pending():
            self._fail("§7.3: play is suspended while a bet is unanswered")
        if seat != self.to_move:
            self._fail(f"§6.1: seat {self.to_move} is to play, not seat {seat}")
        identity = card if identity is None else identity
        if (card, identity) not in self.game.legal(self.in_hand[seat], self.trick, self.trump):
            self._fail(f"§6.1: card {card} (as {identity}) is not a legal play for seat {seat}")
        self.in_hand[seat].discard(card)
        self.shown[seat].append(card)
        self.n_shown += 1
        if identity != card:
            self.baptised[seat][card] = identity
        self.trick.append((card, identity))
        if len(self.trick) == self.players:
            self.leader = self.game.trick_winner(self.trick, self.leader, self.trump)
            self.trick = []
            self.won[self.leader % 2] += 1
            if self.won[self.leader % 2] == self.need:
                self._decide(SP, self.leader % 2, self.figures[SP].value, "cards")
            elif sum(self.won) == self.tricks:  # §9.3: "das Spiel ist hin"
                self._decide(SP, NOBODY, 0, "cards")

    def blind_bet(self, seat: int, figure: int) -> None:
        """A bet before the cut, unseen (§8.14): only where the rules allow it, before any card is
        played; the B6 limit applies, the example duty does not."""
        if not self.rules.blind_bets:
            self._fail("§8.14: blind bets are not part of these rules")
        if any(self.shown) or self.phase != PLAY:
            self._fail("§8.14: a blind bet is made before the cut, before any card is played")
        fig = self.figures[figure]
        error = "B1: already bet blind" if fig.pending else self.bet_error(seat, figure, counter=True)
        if error and "B5" not in error:
            self._fail(error)
        self._place_bet(seat, figure)  # several blind bets may wait together (A-16)
        fig.duty.discard(seat)
        self.blind[figure] = seat % 2

    def reveal(self, seat: int, cards, baptised=None) -> None:
        """Show cards from hand in the showing team's turn (§7.8); the freeze rule forbids improving a
        figure the Spiel winners left tied. baptised: {wild card: identity} for wild cards shown."""
        if self.phase != SHOWDOWN or seat % 2 != self.showing:
            self._fail("§7.8: only the showing team reveals cards, in its turn")
        cards = list(cards)
        if not set(cards) <= self.in_hand[seat] or len(set(cards)) != len(cards):
            self._fail(f"§7.8: seat {seat} does not hold all of {cards} unrevealed")
        before = [self.shown_code(seat % 2, f) for f in (G, H)]
        saved = dict(self.baptised[seat])
        self.shown[seat].extend(cards)
        self.baptised[seat].update(baptised or {})
        for f in (G, H):
            if self.figures[f].open and self.is_frozen(seat % 2, f) and self.shown_code(seat % 2, f) > before[f]:
                del self.shown[seat][len(self.shown[seat]) - len(cards):]
                self.baptised[seat] = saved
                self._fail(f"§7.8 freeze rule: the Spiel winners left the {_name(f)} tied and may not improve it")
        self.in_hand[seat] -= set(cards)
        self.n_shown += len(cards)
        for f in (G, H):
            if self.shown_code(seat % 2, f) > before[f]:
                self.void_passes[f] = 0

    def is_frozen(self, team: int, figure: int) -> bool:
        return team == self.spiel_winner and self.frozen[figure]

    def end_turn(self, team: int) -> None:
        """End the showing team's turn: every open figure must be contested (shown >= the opponents) or
        passed without an example; ties freeze the Spiel winners, final stands and voids are settled."""
        if self.phase != SHOWDOWN or team != self.showing:
            self._fail(f"§7.8: it is not team {team}'s showing turn")
        if self.pending():
            self._fail("§7.8: answer the pending bets before the turn ends")
        for f in (G, H):
            fig = self.figures[f]
            if not fig.open:
                continue
            mine, theirs = self.shown_code(team, f), self.shown_code(other(team), f)
            if mine < theirs:
                self._fail(f"§7.8/A-7: team {team} is behind on the {_name(f)}; reveal, bet or concede")
            if mine < 0 and self.team_has_example(team, f):
                self._fail(f"§7.8: team {team} must display an example of the {_name(f)} or concede it")
        for f in (G, H):
            fig = self.figures[f]
            if not fig.open or self.phase == DONE:  # a decision may end the deal (A-18, §7.12)
                continue
            mine, theirs = self.shown_code(team, f), self.shown_code(other(team), f)
            if mine < 0:
                self.void_passes[f] += 1
                if self.void_passes[f] >= 2 and self.rules.void_to_second_shower:
                    self._decide(f, team, fig.value, "concession")
                elif self.void_passes[f] >= 2:
                    self._decide(f, VOID, 0, "cards")
            elif mine == theirs:
                if team == self.spiel_winner or (self.spiel_winner == NOBODY and not self.frozen[f]):
                    self.frozen[f] = True  # with the Spiel "hin" every card is on the table: the next tie stands
                elif self.frozen[f]:
                    self._decide(f, STAND, 0, "cards")
        if self.phase == SHOWDOWN:
            self.showing = other(team)

    # --- deciding and scoring ---------------------------------------------------------------
    def _decide(self, figure: int, winner: int, points: int, by: str) -> None:
        fig = self.figures[figure]
        fig.winner, fig.points, fig.decided_by, fig.pending = winner, min(points, 7), by, None
        fig.decided_seq = self._tick()
        if by == "concession":
            fig.concede_seq = fig.decided_seq
        if winner in (0, 1):
            self.secured[winner] += fig.points
        if self.rules.stop_on_target and self.game_decided():
            self._finish()
            return
        if figure == SP and self.phase == PLAY:
            self.spiel_winner = winner
            self.trick = []
            self.phase = SHOWDOWN
            self.showing = winner if winner in (0, 1) else (self.dealer + 1) % self.players % 2
        if self._both_gestrichen() and not self.gestrichen_checked:
            self._both_gestrichen_resolution(at_start=False)
        if self.phase != DONE and not any(fig.open for fig in self.figures):
            self._finish()

    def _both_gestrichen(self) -> bool:
        return all(self.scores[t] + self.secured[t] == self.target - 1 for t in (0, 1))

    def _both_gestrichen_resolution(self, at_start: bool) -> None:
        """§7.12: with G and H open and unbet, the best >= 3-card figure wins the game; without one they
        score for nobody (at the start of a deal the cards are then played for the game)."""
        self.gestrichen_checked = True
        g, h = self.figures[G], self.figures[H]
        if not (g.open and h.open and not g.ever_bet and not h.ever_bet):
            return
        winner = self.game.both_gestrichen_winner(self.hands, self.baptised)
        if winner is not None:
            self.game_winner = winner
            self.phase = DONE
            self.result = DealResult([0, 0], [], winner, self._winners())
            return
        for fig in (g, h):
            fig.winner, fig.decided_by = NOBODY, "gestrichen"

    def _winners(self) -> tuple:
        return tuple(fig.winner for fig in self.figures)

    def _verified(self) -> tuple[list[int], list[Figure]]:
        """§7.9 on copies of the figures: (the teams failing the example duty, per figure; the figures after the
        re-awards of the failed ones). The deal is unchanged; a figure still open stays open."""
        figures = [replace(fig) for fig in self.figures]
        penalised = []
        for f in (G, H):
            fig = figures[f]
            failing = sorted({s % 2 for s in fig.duty if not self.has_example(s, f)})
            penalised += failing
            if fig.winner in failing or (failing and fig.winner == STAND):  # a stand too: the failing team cannot win
                rivals = [t for t in (0, 1) if t not in failing and self.team_has_example(t, f)]
                if rivals:
                    fig.winner, fig.points = rivals[0], min(fig.value, 7)
                else:
                    fig.winner = NOBODY
            if (self.rules.concede_needs_example and fig.winner in (0, 1) and not fig.ever_bet
                    and fig.decided_by == "concession" and not self.team_has_example(fig.winner, f)):
                fig.winner = NOBODY
            if fig.winner in (0, 1) and self.blind.get(f) == fig.winner and not self.team_has_example(fig.winner, f):
                fig.winner = NOBODY  # §8.14: a blind bet on a figure the team lacks scores nothing, no penalty
        return penalised, figures

    def _awards(self, penalised: list[int], figures: list[Figure]) -> list[tuple]:
        """The §7.10 scoring order of ``figures``: penalties, concessions by time, bet-and-held figures by first
        bet, unbet G, H, Sp; [(category, figure, team, points)], category 0 a penalty."""
        void_team = set(penalised) if self.rules.penalty_voids_deal else set()
        awards = [(0, None, t, -PENALTY) for t in penalised]
        conceded = sorted((f for f in FIGURES if figures[f].decided_by == "concession"),
                          key=lambda f: figures[f].concede_seq)
        held = sorted((f for f in FIGURES if figures[f].ever_bet and f not in conceded),
                      key=lambda f: figures[f].first_bet_seq)
        unbet = [f for f in FIGURES if f not in conceded and f not in held]
        for category, group in ((1, conceded), (2, held), (3, unbet)):
            for f in group:
                fig = figures[f]
                if fig.winner in (0, 1) and fig.winner not in void_team:
                    awards.append((category, f, fig.winner, fig.points))
        return awards

    def _winner(self, awards: list[tuple], figures: list[Figure]) -> int | None:
        """The team winning the game by ``awards`` in their order: the first to reach the target, or the winner of a
        held Spiel aus (A-14: the first decided, at once; or at its place in the order); the both-gestrichen
        comparison's winner (§7.12) if it decided; None: nobody."""
        if self.game_winner is not None:
            return self.game_winner
        aus = sorted((figures[f].decided_seq, team) for _, f, team, _ in awards
                     if f is not None and figures[f].aus_held)
        if aus and self.rules.spiel_aus_held == "ends_game":  # §7.13: the first held Spiel aus decided, at once
            return aus[0][1]
        totals = list(self.scores)
        for _, f, team, value in awards:
            totals[team] += value
            if totals[team] >= self.target or (f is not None and figures[f].aus_held):
                return team
        return None

    def game_decided(self) -> bool:
        """The game's winner is certain before the deal ends (A-18): after the §7.9 verification as it stands, the
        penalties and the concessions, which score first (§7.10), bring a team to the target, or a held Spiel aus
        is decided for a team and, under A-14's "ends_game", ends the game."""
        penalised, figures = self._verified()
        awards = self._awards(penalised, figures)
        aus = [f for _, f, _, _ in awards if f is not None and figures[f].aus_held]
        if aus and self.rules.spiel_aus_held == "ends_game":
            return True
        return self._winner([award for award in awards if award[0] <= 1], figures) is not None  # nothing comes before

    def _finish(self) -> None:
        """Verification (§7.9, its re-awards kept), the scoring order (§7.10, `_awards`) and the game's winner
        (`_winner`)."""
        penalised, verified = self._verified()
        for fig, checked in zip(self.figures, verified):
            fig.winner, fig.points = checked.winner, checked.points
        awards = self._awards(penalised, self.figures)
        points = [sum(value for _, _, team, value in awards if team == t) for t in (0, 1)]
        winner = self._winner(awards, self.figures)
        redeal = all(self.figures[f].winner == NOBODY for f in (G, H)) and self.gestrichen_checked and winner is None \
            and self.figures[G].decided_by == "gestrichen"
        self.game_winner = winner
        self.phase = DONE
        self.result = DealResult(points, awards, winner, self._winners(), redeal)


@dataclass
class GameRecord:
    """A whole game: the deals' score sheet lines and the winner."""

    target: int
    deals: list = field(default_factory=list)
    scores: list = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    dealers: list = field(default_factory=list)
    """The dealer's seat of every deal."""

    def add(self, result: DealResult, dealer: int = 0) -> None:
        self.deals.append(result)
        self.dealers.append(dealer)
        self.scores = [self.scores[t] + result.points[t] for t in (0, 1)]
        self.winner = result.game_winner


# --- policies as data ---------------------------------------------------------------------------
READABLE = ("formula", "cautious", "aggressive")
"""The presets a policy may read the opponents' bets by (`Policy.reads`; "never" makes no bet to read)."""


@dataclass(frozen=True)
class Policy:
    """A threshold betting policy on d = P(win) - P(lose) of a figure as the team estimates it.

    bet_margin: bet when d > bet_margin (spec §10.6: a value bet needs d > 0);
    hold_margin: hold a bet from v to v+1 when d > -v/(v+1) + hold_margin (§10.6);
    raise_margin: raise instead of holding when d > raise_margin;
    max_value: the highest value the policy proposes (2..8, 8 = Spiel aus);
    bluff: probability, per figure and deal, of betting once without the strength;
    concede_spiel: concede the Spiel spontaneously when P(win it) < this (makes the opponents show first);
    show_bluff: probability, per Gleich/Hanger and deal, that in its first showing turn the team bets a
    figure it is beaten on (its best is below the opponents' displayed example) instead of conceding it; if the
    opponents hold, it concedes at the new value (§7.8: "bluff-bet and then concede if held");
    reads: "" (answers by d over all deals) or the preset (`READABLE`) the team takes its opponents to play: a bet
    on the Gleich or the Hanger from v <= `MAX_SEEN_VALUE` - 1 that comes before the showing is then answered with d
    of the team's class *given that bet* (``estimate.read_bet``: the opponents' hands weighed by the chance that
    they made it under that preset, as `cardsim thresholds giltspiel --facing` does, a raise told apart from a bet
    after a hold), and the team's own later bets on the figure go by that d until the showing (`Agent.read`);
    elsewhere the plain d.
    """

    name: str
    bet_margin: float = 0.0
    hold_margin: float = 0.0
    raise_margin: float = 0.3
    max_value: int = 7
    bluff: float = 0.0
    concede_spiel: float = 0.0
    show_bluff: float = 0.0
    reads: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip() or not self.name.isprintable():
            raise CardsimError(f"a policy's name must be a text of visible characters on one line, got {self.name!r}; "
                               'write e.g. "name": "bold"')
        object.__setattr__(self, "name", self.name.strip())  # " bold " is bold, as its spec would be
        for key in ("bet_margin", "hold_margin", "raise_margin", "bluff", "concede_spiel", "show_bluff"):
            value = getattr(self, key)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
                raise CardsimError(f"policy {self.name!r}: {key} must be a number, got {value!r}")
        if not all(0 <= getattr(self, key) <= 1 for key in ("bluff", "concede_spiel", "show_bluff")):
            raise CardsimError(f"policy {self.name!r}: bluff, concede_spiel and show_bluff are probabilities in [0, 1]")
        if not isinstance(self.max_value, int) or not 1 <= self.max_value <= AUS:
            raise CardsimError(f"policy {self.name!r}: max_value must be a whole number 1..8 (8 = Spiel aus)")
        if not isinstance(self.reads, str) or self.reads.strip().lower() not in ("",) + READABLE:
            raise CardsimError(f"policy {self.name!r}: reads must name the preset the opponents are taken to play, one "
                               f"of {', '.join(READABLE)} (or be left out), got {checks.shown(self.reads)}")
        object.__setattr__(self, "reads", self.reads.strip().lower())

    def wants_bet(self, d: float, value: int, bluffing: bool) -> bool:
        """Bet from ``value`` to ``value + 1``?"""
        return value + 1 <= self.max_value and (d > self.bet_margin or bluffing)

    def response(self, d: float, value: int, can_raise: bool) -> str:
        """Answer to a bet proposing ``value + 1`` (value = the figure's current value)."""
        if value + 1 == AUS:
            return HOLD if d > self.hold_margin else GUT
        if d <= -value / (value + 1) + self.hold_margin:
            return GUT
        if can_raise and d > self.raise_margin and value + 2 <= self.max_value:
            return RAISE
        return HOLD


NEVER_BETS = float("inf")
PRESETS = {
    "formula": Policy("formula", bet_margin=0.0, hold_margin=0.0, raise_margin=0.3),
    "cautious": Policy("cautious", bet_margin=0.35, hold_margin=0.15, raise_margin=0.6, max_value=4,
                       concede_spiel=0.05),
    "aggressive": Policy("aggressive", bet_margin=-0.05, hold_margin=-0.1, raise_margin=0.1, bluff=0.15),
    "never": Policy("never", bet_margin=NEVER_BETS, hold_margin=0.0, raise_margin=NEVER_BETS, max_value=1),
}
"""Named policies: "formula" = the §10.6 first-order thresholds, "never" never bets (it holds by the formula)."""


def answers_by_margins(policy: Policy, model: str) -> Policy:
    """``policy`` if it answers bets by its margins alone; a CardsimError naming ``model`` (what takes its answers
    as `Policy.response` of d over all deals) when it reads the opponents' bets."""
    if policy.reads:
        raise CardsimError(f"policy {policy.name!r} reads the opponents' bets (\"reads\": \"{policy.reads}\"), and "
                           f"{model} models a policy's answers by its margins alone: give a policy without \"reads\"")
    return policy


def _object_without_repeats(pairs: list) -> dict:
    """A JSON object as a dict; ValueError naming a key the object gives twice (json would keep the last value)."""
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} is given twice; give it once")
        seen[key] = value
    return seen


def load_policy(spec: str | Policy) -> Policy:
    """A preset name (see `PRESETS`, any case) or a JSON file {"name": ..., "bet_margin": ..., ...}, without
    surrounding spaces; a `Policy` as it is."""
    import json
    from pathlib import Path

    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, str):
        raise CardsimError(f"a policy is a preset name ({', '.join(PRESETS)}), a .json file or a Policy, got "
                           f"{checks.shown(spec)}")
    path = spec.strip()
    if path.lower() in PRESETS:
        return PRESETS[path.lower()]
    if not path.endswith(".json"):
        raise unknown_name("policy", spec, PRESETS, or_else="give a .json policy file")
    try:
        data = json.loads(Path(path).read_text(), object_pairs_hook=_object_without_repeats)
    except (OSError, ValueError) as exc:
        raise CardsimError(f"policy file {spec}: cannot read it as JSON ({exc})") from None
    fields = set(Policy.__dataclass_fields__)
    if not isinstance(data, dict) or set(data) - fields:
        unknown = sorted(set(data) - fields) if isinstance(data, dict) else "not an object"
        raise CardsimError(f"policy file {spec}: expected an object with keys from {sorted(fields)}, got {unknown}")
    data.setdefault("name", Path(path).stem)
    try:
        return Policy(**data)
    except TypeError as exc:
        raise CardsimError(f"policy file {spec}: {exc}") from None


# --- playing a deal with policies ---------------------------------------------------------------
@dataclass
class Agent:
    """A team's players: their policy, figure estimates and bluffs of the current deal.

    estimate(deal, seat, figure) -> d = P(win) - P(lose) as ``seat`` sees it (the hands it knows under
    the communication model, the public cards and the showing so far); ``estimate.view(seat)`` names
    who shares that knowledge (the team, or the seat alone). bluffs: per figure (G, H, Sp), bet once
    without the strength; show_bluffs: per G/H, bluff-bet in the showing (`Policy.show_bluff`); read: {(view, figure):
    d} the last d a policy that reads the opponents' bets (`Policy.reads`) read for a figure, which its own later bets
    on it go by until the showing (`_estimate_for_bet`).
    """

    policy: Policy
    estimate: object
    bluffs: tuple = (False, False, False)
    show_bluffs: tuple = (False, False)
    read: dict = field(default_factory=dict)


STRENGTH = {GUT: 0, HOLD: 1, RAISE: 2}


def _answerers(deal: Deal, agent: Agent, team: int, figure: int, bettor: int) -> list[int]:
    """The team's seats that may answer, in the order they speak: with partner information the one
    holding the better example (G/H; the Spiel: either); alone, both, the bettor's left first."""
    if agent.estimate.view(team) == agent.estimate.view(team + 2):
        if figure == SP:
            return [team]
        return [max(deal.members(team), key=lambda s: deal.best_code(s, figure))]
    return [(bettor + k) % deal.players for k in range(1, deal.players, 2)]


def team_answer(deal: Deal, agent: Agent, team: int, figure: int) -> tuple[int, str]:
    """(seat, gut / hold / raise): every answering seat judges by its own estimate and the team gives
    the strongest answer (any member may answer for the team, §7.3); a seat without an example says gut
    (strict rules)."""
    _, _, bettor, _ = deal.figures[figure].pending
    value = deal.figures[figure].value
    best = None
    for seat in _answerers(deal, agent, team, figure, bettor):
        if figure != SP and deal.rules.strict_examples and not deal.has_example(seat, figure):
            kind = GUT
        else:
            d = agent.estimate(deal, seat, figure)
            if agent.policy.reads and figure != SP:
                d = agent.read[agent.estimate.view(seat), figure] = agent.estimate.read_bet(
                    deal, seat, figure, agent.policy.reads, d)
            kind = agent.policy.response(d, value, can_raise=deal.raise_error(seat, figure) is None)
        if best is None or STRENGTH[kind] > STRENGTH[best[1]]:
            best = (seat, kind)
    return best


def answer_first(deal: Deal, agents) -> None:
    """The agents answer the first pending bet."""
    figure, (team, _, _, _) = deal.pending()[0]
    seat, kind = team_answer(deal, agents[other(team)], other(team), figure)
    deal.answer(seat, figure, kind)


def answer_all(deal: Deal, agents) -> None:
    """Let the agents answer every pending bet (raise chains included)."""
    while deal.phase != DONE and deal.pending():
        answer_first(deal, agents)


def _wanted(deal: Deal, agent: Agent, seat: int, figures) -> list[int]:
    """The figures (of ``figures``) the policy would bet now as ``seat`` sees the deal, if a seat may."""
    team, out = seat % 2, []
    for figure in figures:
        fig = deal.figures[figure]
        if (not fig.open or fig.pending is not None or fig.bet_right not in (None, team)
                or fig.value + 1 > agent.policy.max_value):
            continue
        if agent.policy.wants_bet(_estimate_for_bet(deal, agent, seat, figure), fig.value, agent.bluffs[figure]):
            out.append(figure)
    return out


def _estimate_for_bet(deal: Deal, agent: Agent, seat: int, figure: int) -> float:
    """d of ``figure`` as ``seat`` sees it when it thinks of betting: before the showing, the last d its side read
    from the opponents' bet on the figure (`Agent.read`), if any; else its estimate."""
    read = agent.read.get((agent.estimate.view(seat), figure)) if deal.phase == PLAY else None
    return agent.estimate(deal, seat, figure) if read is None else read


def _try_bets(deal: Deal, agents, seat: int, wanted) -> bool:
    """The seat bets the first of the ``wanted`` figures it may bet; True if it did."""
    agent = agents[seat % 2]
    for figure in wanted:
        if deal.can_bet(seat, figure):
            deal.bet(seat, figure)
            agent.bluffs = tuple(False if f == figure else b for f, b in enumerate(agent.bluffs))
            return True
    return False


def betting_window(deal: Deal, agents, speech_rng: np.random.Generator | None = None) -> None:
    """A §7.5 window: seats polled clockwise from the one to play (A-12 "random_priority": each round of polling
    in a fresh random order drawn from ``speech_rng``, a new round after every action); bets answered at once;
    closes when every seat has passed in a row or the Spiel is decided. A view's wishes are judged once per state."""
    passes, seat, polling = 0, deal.to_move, []
    shuffled = deal.rules.speech_order == "random_priority"
    if shuffled and speech_rng is None:
        raise CardsimError("speech_order random_priority (A-12) needs a speech_rng (a numpy Generator) to draw the "
                           "order of speech")
    wishes: dict[int, list[int]] = {}
    while passes < deal.players and deal.phase == PLAY:
        if shuffled:
            polling = polling or [int(s) for s in speech_rng.permutation(deal.players)]
            seat = polling.pop(0)
        team = seat % 2
        agent = agents[team]
        acted = False
        if agent.policy.concede_spiel > 0 and deal.figures[SP].open and deal.figures[SP].pending is None:
            if (1 + agent.estimate(deal, seat, SP)) / 2 < agent.policy.concede_spiel:
                deal.concede(team, SP)
                acted = True
        if not acted and deal.phase == PLAY:
            view = agent.estimate.view(seat)
            if view not in wishes:
                wishes[view] = _wanted(deal, agent, seat, (SP, G, H))
            acted = _try_bets(deal, agents, seat, wishes[view])
            if acted:
                answer_all(deal, agents)
        if acted:
            wishes.clear()
            polling = []
        passes = 0 if acted else passes + 1
        seat = (seat + 1) % deal.players


def _concede_beaten(deal: Deal, team: int) -> None:
    """The showing team concedes every open figure (without its own pending bet) it cannot reach, once it
    has answered the opponents' raises."""
    if any(p[0] != team for _, p in deal.pending()):
        return
    for figure in (G, H):
        fig = deal.figures[figure]
        if deal.phase == SHOWDOWN and fig.open and fig.pending is None and deal.beaten(team, figure):
            deal.concede(team, figure)


def _reveal_best(deal: Deal, team: int, example_cards) -> None:
    """Reveal the team's best example of every open figure it may still improve; a reveal the freeze
    rule refuses (its cards would also improve a frozen figure) is skipped."""
    for figure in (G, H):
        if not deal.figures[figure].open or deal.is_frozen(team, figure):
            continue
        seat = max(deal.members(team), key=lambda s: deal.best_code(s, figure))
        if deal.best_code(seat, figure) > deal.shown_code(team, figure):
            example, baptised = example_cards(deal.hands[seat], figure, deal.baptised[seat])
            cards = [c for c in example if c in deal.in_hand[seat]]
            try:
                deal.reveal(seat, cards, {c: i for c, i in baptised.items() if c in cards})
            except CardsimError:
                pass


def _bluff_bets(deal: Deal, agent: Agent, team: int) -> None:
    """`Policy.show_bluff`: bet a figure the team is beaten on (a seat holding a weaker example bets)."""
    for figure in (G, H):
        fig = deal.figures[figure]
        if agent.show_bluffs[figure] and fig.open and fig.pending is None and deal.beaten(team, figure):
            for seat in deal.members(team):
                if deal.can_bet(seat, figure):
                    deal.bet(seat, figure)
                    break
    agent.show_bluffs = (False, False)


def showing_turn(deal: Deal, agents, example_cards) -> None:
    """One showing turn (§7.8): bluff-bet beaten figures (`Policy.show_bluff`), concede what cannot be
    reached, bet by the policy, reveal the
    best example of every open figure, concede what the reveals gave up (a wild card has one identity),
    let the opponents answer, concede what is behind, end the turn.

    example_cards(cards, figure, baptised) -> (the cards of the best example of ``figure`` among
    ``cards``, {wild card: identity} for its wild cards), keeping the baptisms already made.
    """
    team = deal.showing
    _bluff_bets(deal, agents[team], team)
    _concede_beaten(deal, team)
    if deal.phase != SHOWDOWN:
        return
    for seat in deal.members(team):
        _try_bets(deal, agents, seat, _wanted(deal, agents[team], seat, (G, H)))
    _reveal_best(deal, team, example_cards)
    _concede_beaten(deal, team)
    while deal.phase == SHOWDOWN and deal.pending():  # a held bluff is conceded before the next answer
        answer_first(deal, agents)
        _concede_beaten(deal, team)
    if deal.phase == SHOWDOWN:
        for figure in (G, H):
            fig = deal.figures[figure]
            if fig.open and deal.shown_code(team, figure) < deal.shown_code(other(team), figure):
                deal.concede(team, figure)
    if deal.phase == SHOWDOWN:
        deal.end_turn(team)


def play_deal(deal: Deal, agents, choose_card, example_cards, speech_rng: np.random.Generator | None = None
              ) -> DealResult:
    """Play a deal to its score sheet line: betting windows before every card, plays by
    ``choose_card(deal, seat) -> (card, identity)``, then the showing. agents: (team 0's Agent, team 1's Agent);
    ``speech_rng``: the windows' order of speech under A-12's random priority (`betting_window`). Blind bets
    (§8.14) are answered first, the Gleich's, then the Hanger's, then the Spiel's."""
    answer_all(deal, agents)
    while deal.phase == PLAY:
        betting_window(deal, agents, speech_rng)
        if deal.phase == PLAY:
            seat = deal.to_move
            deal.play(seat, *choose_card(deal, seat))
    guard = 0
    while deal.phase == SHOWDOWN:
        showing_turn(deal, agents, example_cards)
        guard += 1
        if guard > 20:
            raise RuntimeError("the showing did not end within 20 turns")
    return deal.result


# --- estimate tables -----------------------------------------------------------------------------
AUER = "auer_channel"
COMMUNICATION = ("partner", "none", AUER)
"""Communication models (giltspiel.md §7.14, perlaggen.md §7.5/§8): ``partner`` = full partner information
(partners signal openly, so a team's estimates use both its hands), ``none`` = each player sees only
his own hand and the public cards (cards played and shown, the bets), ``auer_channel`` = his own hand
plus what Auer's signals say about the partners' hands (§7.14): the trumps they hold (finger per rank;
Perlaggen: their trumps and Perlaggen), whether they have a Gleich and whether they have a Hanger. Not
modelled: suit hints (the tables do not use suits) and noisy or deceptive signals."""


def check_communication(communication: str) -> str:
    if communication not in COMMUNICATION:
        raise unknown_name("communication model", communication, COMMUNICATION)
    return communication


def spiel_model(communication: str) -> str:
    """The model whose Spiel table a model uses: the Spiel estimate needs the team's trump power only, which
    Auer's trump signals give exactly (``partner``); ``none`` knows its own."""
    return "none" if check_communication(communication) == "none" else "partner"


def figure_counts(codes: np.ndarray, bins: int, communication: str = "partner") -> np.ndarray:
    """(2, bins, 4) int64: G and H counts by the known code + 1 and the team's outcome (win, stand, lose,
    void), both teams of every deal; codes: (n, players, 2) int, -1 = none, team = seat % 2. The known
    code is the team's best (max of its hands) under ``partner``; under ``none`` each seat counts once,
    by its own code; under ``auer_channel`` (2, 2 * bins, 4): each seat by its own code + 1, plus bins
    if a partner has the figure (Auer's signal)."""
    check_communication(communication)
    counts = np.zeros((2, 2 * bins if communication == AUER else bins, 4), dtype=np.int64)
    for figure in (G, H):
        for team in (0, 1):
            mine = codes[:, team::2, figure]
            ours = mine.max(axis=1)
            theirs = codes[:, 1 - team::2, figure].max(axis=1)
            outcome = np.select([ours > theirs, (ours == theirs) & (ours >= 0), ours < theirs], [0, 1, 2], 3)
            if communication == "partner":
                known = [ours + 1]
            elif communication == "none":
                known = list(mine.T + 1)
            else:
                known = [mine[:, k] + 1 + bins * (np.delete(mine, k, axis=1).max(axis=1, initial=-1) >= 0)
                         for k in range(mine.shape[1])]
            for key in known:
                np.add.at(counts[figure], (key, outcome), 1)
    return counts


def outcome_rates(counts: np.ndarray) -> np.ndarray:
    """`figure_counts` as P(outcome | class): (2, bins, 4) float."""
    return counts / np.maximum(counts.sum(axis=2, keepdims=True), 1)


def class_shares(counts: np.ndarray) -> np.ndarray:
    """(2, bins) float: how often a team's best code + 1 is each class."""
    per_class = counts.sum(axis=2)
    return per_class / per_class.sum(axis=1, keepdims=True)


BET_NEVER, BET_BLUFF, BET_WANTED = 0, 1, 2
"""`bet_categories`: a team cannot bet the figure (no member holds an example, or the policy bets no figure), it
bets it only on a bluff (probability `Policy.bluff`), it bets it (a member holding an example wants it);
`hold_categories`: it gives up a bet (BET_NEVER), it holds or raises it (BET_WANTED)."""
SEEN = ("bet", "no_bet", "held")
"""What a player can have seen a team do with a Gleich or Hanger (`seen_likelihood`): bet it in a betting window
(at value 1, or from a higher value after the bets alternated: `chain_categories`), not bet it there at value 1,
hold (or raise) a bet on it."""
MAX_SEEN_VALUE = AUS - 1
"""The highest value a bet seen may start from (a bet from 7 to 8 is the last on a figure)."""


def _member_views(d: np.ndarray, communication: str, i: int, j: int, bins: int) -> list[float]:
    """d of each member of a two-player team holding an example (own codes + 1 ``i``, ``j``; 0: none), read where
    the model lets him see (`_team_table`); ``d`` (bins or 2 * bins,) one figure's P(win) - P(lose)."""
    own = (i, j)
    seen = {"partner": (max(i, j),) * 2, "none": own, AUER: (i + bins * (j > 0), j + bins * (i > 0))}[communication]
    return [float(d[seen[k]]) for k in (0, 1) if own[k] > 0]


def _team_table(figure_table: np.ndarray, communication: str, wants) -> np.ndarray:
    """(2, bins, bins) int8 for G and H by a two-player team's own codes + 1 (i, j) (0: none): `BET_NEVER` when no
    member holds an example, `BET_WANTED` when a member holding one ``wants(d)``, else `BET_BLUFF`; d = P(win) -
    P(lose) of ``figure_table`` (`figure_counts`' rates under ``communication``) read at what the model lets the
    member see: the team's best code (partner), his own (none), his own and whether his partner holds one (Auer)."""
    return _cell_table(figure_table, communication,
                       lambda views: BET_WANTED if any(wants(x) for x in views) else BET_BLUFF)


def _cell_table(figure_table: np.ndarray, communication: str, category) -> np.ndarray:
    """(2, bins, bins) int8: ``category(views)`` of every cell whose team holds an example (`_member_views`), else
    `BET_NEVER`."""
    d = figure_table[:, :, 0] - figure_table[:, :, 2]
    bins = d.shape[1] // 2 if check_communication(communication) == AUER else d.shape[1]
    out = np.zeros((2, bins, bins), dtype=np.int8)
    for figure in (G, H):
        for i in range(bins):
            for j in range(bins):
                views = _member_views(d[figure], communication, i, j, bins)
                if views:
                    out[figure, i, j] = category(views)
    return out


def bet_categories(figure_table: np.ndarray, policy: Policy, communication: str = "partner") -> np.ndarray:
    """(2, bins, bins) int8: for G and H, the `BET_NEVER` / `BET_BLUFF` / `BET_WANTED` category of a two-player team
    by its hands' own codes + 1 (`_team_table`), at a betting window with the figure open at value 1 under ``policy``
    (`_wanted` and `Deal.bet_error`, strict examples): a member may bet only with an example of his own and wants the
    figure when his d is above the policy's bet margin. The bluff of a team is one draw per figure and deal."""
    table = _team_table(figure_table, communication, lambda d: policy.wants_bet(d, 1, False))
    return table if policy.wants_bet(0.0, 1, True) else np.zeros_like(table)


def hold_categories(figure_table: np.ndarray, policy: Policy, communication: str = "partner",
                    value: int = 1) -> np.ndarray:
    """(2, bins, bins) int8 like `bet_categories`: `BET_WANTED` where a team under ``policy`` holds or raises a bet on
    the figure from ``value`` to ``value + 1`` in the play (`team_answer`: the answering members, each by his own d,
    the strongest answer; a member without an example gives it up), `BET_NEVER` where it gives it up."""
    value, policy = _bet_value(value), answers_by_margins(policy, "the model of a team's holds")
    table = _team_table(figure_table, communication, lambda d: policy.response(d, value, False) != GUT)
    return np.where(table == BET_WANTED, BET_WANTED, BET_NEVER).astype(np.int8)


def _team_response(views: list[float], policy: Policy, value: int) -> str:
    """The team's answer to a bet from ``value`` (`team_answer`): the strongest of its members holding an example,
    each by his own d (members without one give it up); a raise is allowed (the target far)."""
    return max((policy.response(x, value, can_raise=True) for x in views), key=STRENGTH.__getitem__)


def last_bet_value(seen: str, value: int) -> int:
    """The value the team's last bet starts from in the history of `chain_categories` (0: it made none): ``value``
    itself when it bet there, one below when it held the other team's bet from ``value``."""
    return value if seen == "bet" else value - 1


def _chain_fits(views: list[float], policy: Policy, seen: str, value: int, bluffing: bool,
                how: str | None = None) -> bool:
    """Whether a team whose members holding an example see ``views`` does its part of a figure's bets from value 1
    as ``seen`` at ``value`` (`chain_categories`, its last bet coming ``how``), with its bluff coin up (``bluffing``)
    or down."""
    last = last_bet_value(seen, value)
    for v in range(2 - last % 2, last + 1, 2):
        answer = HOLD if v == 1 else _team_response(views, policy, v - 1)
        if v == value and how is not None and (answer == RAISE) != (how == RAISE):
            return False
        if answer == RAISE:
            continue
        if answer == GUT or not (any(policy.wants_bet(x, v, False) for x in views)
                                 or (bluffing and v + 1 <= policy.max_value)):
            return False
        bluffing = False  # a bet in a window spends the bluff (`_try_bets`)
    return seen == "bet" or _team_response(views, policy, value) != GUT


BET_HOWS = (None, "after_hold", RAISE)
"""How the last bet of a chain came (`chain_categories`' ``how``): either way, after a hold of ours (a bet of its own
in a window), or as a raise of ours."""


def chain_categories(figure_table: np.ndarray, policy: Policy, communication: str = "partner", seen: str = "bet",
                     value: int = 1, how: str | None = None) -> np.ndarray:
    """(2, bins, bins) int8 like `bet_categories`: for G and H, whether a two-player team under ``policy`` does its
    part of the figure's bets as seen in the betting windows before the showing (its estimates of a figure do not
    change there): "bet", it bets the figure from ``value`` to
    ``value`` + 1; "held", it holds (or raises) the other team's bet from ``value``. The bets before alternated from
    value 1 (B2), the other team holding (or raising) the team's bets and the team each of the other's, by a raise
    (`Policy.response` above the raise margin) or a hold and then a bet of its own in the window (`Policy.wants_bet`).
    `BET_WANTED`: it does so with its bluff coin down; `BET_BLUFF`: only with the coin up (its first bet in a window
    a bluff; the coin is one draw per figure and deal and a window bet spends it); `BET_NEVER`: not at all. Each
    member reads his d as in `_team_table`; the limits near the target (§7.11) are not followed.
    value 1: "bet" is `bet_categories`, "held" `hold_categories`. ``how`` (`BET_HOWS`; "bet" only): the team's bet
    from ``value`` came either way (None), after it held the other team's bet from ``value`` - 1 ("after_hold"; at
    value 1 its first bet), or as its raise of that bet (RAISE; never at value 1)."""
    if seen not in ("bet", "held"):
        raise unknown_name("bet seen in a chain", seen, ("bet", "held"))
    if how not in BET_HOWS or (how is not None and seen != "bet"):
        raise CardsimError(f"how a bet seen came is one of {BET_HOWS[1:]} (or None), for a bet seen only; got {how!r} "
                           f"with {seen!r}")
    value = _bet_value(value)
    if value > MAX_SEEN_VALUE:
        raise CardsimError(f"a bet on a figure starts from a value of at most {MAX_SEEN_VALUE}, got {value}")
    if seen == "held" or value > 1:  # the history holds the team's answers (`_team_response`)
        answers_by_margins(policy, "the model of a team's bets seen")

    def category(views):
        down, up = (_chain_fits(views, policy, seen, value, coin, how) for coin in (False, True))
        if down and not up:
            raise AssertionError("the bluff coin up never removes a bet")
        return BET_WANTED if down else BET_BLUFF if up else BET_NEVER

    return _cell_table(figure_table, communication, category)


def seen_likelihood(seen: str | None, bluff: float) -> np.ndarray:
    """(3,) float: the chance that a team of each category does what was ``seen`` of a figure ("bet" or "held" by
    `chain_categories`, "no_bet" by `bet_categories`; None: nothing seen, 1 for all) when it bluffs with probability
    ``bluff``: `BET_BLUFF` only with its bluff coin up (a hold at value 1 has no such category)."""
    if seen is None:
        return np.ones(3)
    bet = np.array([0.0, bluff, 1.0])
    return 1.0 - bet if seen == "no_bet" else bet


SPIEL_POWER = 9
"""Spiel table cells by the team's trump power (trumps and wild cards it still holds) 0..8."""


def spiel_table(games, need: int = 3) -> np.ndarray:
    """(need, need, SPIEL_POWER) float: d = P(team wins the Spiel) - P(it loses it) given its tricks, the
    opponents' tricks and its power, from play-outs where ``need`` tricks win the Spiel (a play-out where
    nobody gets them, "das Spiel ist hin", is neither); games yields (trick winners (seats), [team power
    (2,) before every trick]). Cells seen fewer than 30 times fall back to the same power at any tricks."""
    score = np.zeros((need, need, SPIEL_POWER), dtype=np.int64)
    seen = np.zeros((need, need, SPIEL_POWER), dtype=np.int64)
    for winners, power in games:
        won = [0, 0]
        states = []
        for seat, (p0, p1) in zip(winners, power):
            states.append((won[0], won[1], p0, p1))
            won[seat % 2] += 1
            if max(won) == need:
                break
        outcome = (int(won[0] == need) - int(won[1] == need), int(won[1] == need) - int(won[0] == need))
        for w0, w1, p0, p1 in states:
            for team, (us, them, p) in enumerate(((w0, w1, p0), (w1, w0, p1))):
                seen[us, them, min(p, SPIEL_POWER - 1)] += 1
                score[us, them, min(p, SPIEL_POWER - 1)] += outcome[team]
    marginal = score.sum(axis=(0, 1)) / np.maximum(seen.sum(axis=(0, 1)), 1)
    return np.where(seen >= 30, score / np.maximum(seen, 1), marginal[None, None, :])


class TableEstimator:
    """d = P(win) - P(lose) of a figure as seen by one seat under a communication model (`COMMUNICATION`).

    ``partner``: the seat knows both its team's hands (partners signal openly, §7.14); ``none``: only its
    own hand; ``auer_channel``: its own hand, its partners' trump power and whether a partner has the
    figure. G/H from ``figure_table`` (P(outcome | the known best code), `figure_counts` of the same
    model; Auer: by own code and the partners' signal), the Spiel from ``spiel`` (`spiel_table`: d by
    tricks and ``power(deal, seats)``, the trump power of the known hands; Auer: the team's). In the
    showing the known code includes the partner's displayed cards; a team behind the opponents'
    displayed best has d = -1 (else the table's d: hidden cards may be better).
    """

    def __init__(self, figure_table: np.ndarray, spiel: np.ndarray, power, communication: str = "partner",
                 facing=None):
        self.figure_d = figure_table[:, :, 0] - figure_table[:, :, 2]
        self.spiel_d = spiel
        self.power = power
        self.communication = check_communication(communication)
        self.facing = facing
        self._last: dict = {}

    def view(self, seat: int) -> int:
        """Who decides with the same knowledge: the team (``partner``) or the seat alone (``none``, Auer)."""
        return seat % 2 if self.communication == "partner" else seat

    def seats(self, deal: Deal, seat: int) -> tuple[int, ...]:
        """The hands ``seat`` knows."""
        return deal.members(seat % 2) if self.communication == "partner" else (seat,)

    def _power(self, deal: Deal, seat: int) -> int:
        """``power(deal, seats)`` of the hands whose trumps the seat knows (Auer: the team's, signalled),
        remembered per team while the cards shown stay the same."""
        seats = self.seats(deal, seat) if self.communication == "none" else deal.members(seat % 2)
        last_deal, last_shown, value = self._last.get(seats, (None, -1, 0))
        if last_deal is not deal or last_shown != deal.n_shown:
            value = self.power(deal, seats)
            self._last[seats] = (deal, deal.n_shown, value)
        return value

    def _signal(self, deal: Deal, seat: int, figure: int) -> int:
        """Auer: the figure_d column offset, bins if a partner signals he has the figure, else 0."""
        if self.communication != AUER:
            return 0
        partners = [s for s in deal.members(seat % 2) if s != seat]
        return self.figure_d.shape[1] // 2 if max((deal.best_code(s, figure) for s in partners), default=-1) >= 0 else 0

    def __call__(self, deal: Deal, seat: int, figure: int) -> float:
        team = seat % 2
        if figure == SP:
            power = min(self._power(deal, seat), SPIEL_POWER - 1)
            last = self.spiel_d.shape[0] - 1
            return float(self.spiel_d[min(deal.won[team], last), min(deal.won[1 - team], last), power])
        mine = self._known_best(deal, seat, figure)
        if deal.phase == SHOWDOWN:
            mine = max(mine, deal.shown_code(team, figure))
            if mine < deal.shown_code(other(team), figure):
                return -1.0
        return float(self.figure_d[figure, self._column(deal, seat, figure, mine)])

    def _known_best(self, deal: Deal, seat: int, figure: int) -> int:
        """The best code of ``figure`` in the hands ``seat`` knows (-1: none)."""
        return max(deal.best_code(s, figure) for s in self.seats(deal, seat))

    def _column(self, deal: Deal, seat: int, figure: int, code: int) -> int:
        """The class column of a known best ``code`` in ``figure_d`` and the reading tables: code + 1, Auer's
        signal added (`_signal`)."""
        return code + 1 + self._signal(deal, seat, figure)

    def read_bet(self, deal: Deal, seat: int, figure: int, reads: str, d: float) -> float:
        """d of ``figure`` as ``seat`` sees it facing the opponents' pending bet on it, taking them to play the preset
        ``reads`` (`Policy.reads`): for the Gleich or the Hanger, before the showing, from a value v of at most
        `MAX_SEEN_VALUE` - 1, ``facing(reads, communication)[raised, v - 1, figure, class]`` (raised: 1 when the bet
        was a raise of the team's bet, 0 when it came after a hold, the deal's log; the class indexed as
        ``figure_d``'s; NaN where no deal met the bet); else, or where NaN, ``d`` (the plain estimate). The model's
        limits (§7.11 near the target, `--permissive` rules) are not followed."""
        if self.facing is None:
            raise CardsimError("this game's estimates have no model of the bets seen: give a policy without \"reads\"")
        value = deal.figures[figure].value
        if figure == SP or deal.phase != PLAY or value >= MAX_SEEN_VALUE:
            return d
        raised = next(kind for _, f, kind in reversed(deal.log) if f == figure) == RAISE
        column = self._column(deal, seat, figure, self._known_best(deal, seat, figure))
        read = self.facing(reads, self.communication)[int(raised), value - 1, figure, column]
        return d if np.isnan(read) else float(read)


def disk_cached(name: str, compute) -> np.ndarray:
    """``compute()`` kept in the cardsim table cache (`simcore.cache.cached_table`); the name must hold
    the table's whole definition (sizes, seed, communication model, style)."""
    from simcore.cache import cached_table

    return cached_table(name, compute)


# --- whole games and matches ------------------------------------------------------------------------
MAX_DEAL_POINTS = 21
"""The most points a team scores in a deal (the Gleich, the Hanger and the Spiel at 7 each); the match equity's deal
model tallies points up to here, its last bin also holding the games won outright (`deal_outcome`)."""
MIN_DEAL_POINTS = -4
"""The fewest points a team scores in a deal: it fails the example duty of both the Gleich and the Hanger (§7.9,
two penalties of `PENALTY`); the match equity's deal model tallies points from here (`deal_outcome`)."""
POINT_BINS = MAX_DEAL_POINTS - MIN_DEAL_POINTS + 1
RACE_SIZE = MAX_DEAL_POINTS + 1
OUTCOME_SIZE = POINT_BINS * POINT_BINS + RACE_SIZE * RACE_SIZE
"""Counts of one group of deals in the match equity's deal model (`add_outcome`): the (POINT_BINS, POINT_BINS)
histogram of the per-deal points (A, B), bin i for i + MIN_DEAL_POINTS points, then the (RACE_SIZE, RACE_SIZE)
`race_order` sums."""
MAX_DEALS_PER_GAME = 400
DEALS_PER_POINT = 20
"""`deal_cap`: a game takes about one deal per point of the target, so one still without a winner after
MAX_DEALS_PER_GAME deals, or DEALS_PER_POINT per point, is one its policies never finish."""
DEALS_STREAM, BLUFF_STREAM = 1, 2


def deal_cap(target: int) -> int:
    """Deals after which a game to ``target`` (Strafperlaggen: from ``target``) is given up as endless."""
    return max(MAX_DEALS_PER_GAME, DEALS_PER_POINT * target)


def play_game(kit, policies: tuple[Policy, Policy], deal_rng, bluff_rng, rules: BettingRules, estimator) -> GameRecord:
    """A whole game to the target: policies[t] bets for team t; the first dealer is drawn (A-17) and the
    deal passes clockwise. kit: the game's betting kit (``players``: seats at the table; ``cards(trump)``
    -> its `GameAdapter` with ``choose_card`` and ``example_cards``; ``draw_deal(rng, dealer) -> (hands,
    trump)``). Under A-12's random priority each deal's order of speech comes from a generator seeded by a draw
    of ``bluff_rng`` (so the two games of a duplicate pair hear the same order). Returns the `GameRecord`."""
    record = GameRecord(rules.target)
    dealer = int(deal_rng.integers(kit.players))
    return play_to_end(record, kit, policies, dealer, deal_rng, bluff_rng, rules, estimator)


def play_to_end(record: GameRecord, kit, policies: tuple[Policy, Policy], dealer: int, deal_rng, bluff_rng,
                rules: BettingRules, estimator) -> GameRecord:
    """``record``'s game played on from its scores, ``dealer`` dealing next (`play_game`), until a team wins."""
    while record.winner is None:
        if len(record.deals) >= deal_cap(rules.target):
            raise CardsimError(f"no team reached {rules.target} points in {len(record.deals)} deals (scores "
                               f"{record.scores[0]}:{record.scores[1]}) with the policies {policies[0].name!r} and "
                               f"{policies[1].name!r}: they never finish a game; change their margins")
        deal = play_one_deal(kit, policies, dealer, record.scores, deal_rng, bluff_rng, rules, estimator)
        record.add(deal.result, dealer)
        dealer = (dealer + 1) % kit.players
    return record


def play_one_deal(kit, policies: tuple[Policy, Policy], dealer: int, scores, deal_rng, bluff_rng, rules: BettingRules,
                  estimator, blind=()) -> Deal:
    """One deal of a game (`play_game`) at ``scores`` with ``dealer`` dealing: its cards from ``deal_rng``, the
    agents' bluff draws (and A-12's order of speech) from ``bluff_rng``, ``blind``: (seat, figure) blind bets made
    before the cut (§8.14). Returns the finished `Deal` (its score sheet line: ``.result``)."""
    hands, trump = kit.draw_deal(deal_rng, dealer)
    draws = bluff_rng.random((2, 5))
    agents = tuple(Agent(policies[t], estimator, tuple(bool(u < policies[t].bluff) for u in draws[t, :3]),
                         tuple(bool(u < policies[t].show_bluff) for u in draws[t, 3:])) for t in (0, 1))
    adapter = kit.cards(trump)
    deal = Deal(adapter, rules, hands, trump, dealer, scores, blind)
    speech_rng = (np.random.default_rng(int(bluff_rng.integers(1 << 62)))
                  if rules.speech_order == "random_priority" else None)
    if deal.phase != DONE:
        play_deal(deal, agents, adapter.choose_card, adapter.example_cards, speech_rng)
    return deal


def race_order(awards, side_a: int) -> np.ndarray:
    """(K, K) int64 with K = MAX_DEAL_POINTS + 1: entry [na, nb] (1..K-1) is 1 when, adding the deal's
    awards in the §7.10 order (`DealResult.awards`), team ``side_a``'s running total reaches na at an
    earlier award than the other team's reaches nb, and both reach them; row and column 0 are 0."""
    size = MAX_DEAL_POINTS + 1
    never = len(awards) + 1
    reach = np.full((2, size), never, dtype=np.int64)  # reach[side, n]: first award with total >= n
    totals = [0, 0]
    for i, (_, _, team, points) in enumerate(awards):
        side = 0 if team == side_a else 1
        totals[side] += points
        for n in range(1, min(totals[side], size - 1) + 1):
            reach[side, n] = min(reach[side, n], i)
    order = (reach[0][:, None] < reach[1][None, :]) & (reach[1] < never)[None, :]
    order[0, :] = order[:, 0] = False
    return order.astype(np.int64)


LIMIT_REACH = 8
"""Distance to the target (target - score) from which the §8.6 / §7.11 limits leave every bet of a deal open at its
start: a bet or raise from value v needs v < distance (`bet_allowed`), the highest being the raise from 7 to Spiel
aus. A team's *limit class* is its distance capped at LIMIT_REACH (`limit_class`); points secured in the deal can still
close a bet from a farther score, which the class does not see (measured: 3,000 Perlaggen deals at 10:10 and at 0:0,
the same cards, P(a team scores >= 7) 0.361 and 0.370)."""
CLASS_STREAMS = 1 << 20
"""`LimitClassJob` draws the deal of class c in unit j of a block from the block's streams CLASS_STREAMS +
2 (j C + c) + 1 (cards) and + 2 (bluffs), C the number of classes: apart from `MatchJob`'s and `PairedDealJob`'s."""


def limit_class(distance: int) -> int:
    """A team's limit class (1..`LIMIT_REACH`) at ``distance`` = target - score >= 1 points from the target."""
    return min(distance, LIMIT_REACH)


def near_classes(target: int) -> tuple[tuple[int, int], ...]:
    """The (A's, B's) limit classes of `LimitClassJob` in a game to ``target``: every pair from 1 to `LIMIT_REACH`
    and at most the target (a score below 0 takes the class of 0, `_score_classes`) but the far one (`LIMIT_REACH`,
    `LIMIT_REACH`), whose deals self-play supplies."""
    top = min(target, LIMIT_REACH)
    return tuple((i, j) for i in range(1, top + 1) for j in range(1, top + 1) if (i, j) != (LIMIT_REACH, LIMIT_REACH))


def deal_outcome(result: DealResult, scores, target: int, side_a: int) -> tuple[int, int, np.ndarray]:
    """(x, y, race) of a deal for the match equity's deal model, team ``side_a`` as A: A's and B's point bins (the
    points clipped to MIN_DEAL_POINTS..MAX_DEAL_POINTS, less MIN_DEAL_POINTS) and the `race_order` table. A game the
    deal wins for a team other than its points and their §7.10 order say from ``scores`` (the deal's start scores,
    engine order) is won *outright* (a held Spiel aus, §7.13, also ahead of the order under A-14's "ends_game"; the
    both-gestrichen comparison, §7.12): the last bin for the winner, none for the other, no race; the model
    (`class_match_equity` with ``top_ends``) ends the game there."""
    winner = result.game_winner
    race = race_order(result.awards, side_a)
    if winner is not None and _points_winner(result.points, race, scores, target, side_a) != winner:
        points = (MAX_DEAL_POINTS, 0) if winner == side_a else (0, MAX_DEAL_POINTS)
        race = np.zeros((RACE_SIZE, RACE_SIZE), dtype=np.int64)
    else:
        points = (result.points[side_a], result.points[1 - side_a])
    x, y = (min(max(p, MIN_DEAL_POINTS), MAX_DEAL_POINTS) - MIN_DEAL_POINTS for p in points)
    return x, y, race


def _points_winner(points, race: np.ndarray, scores, target: int, side_a: int) -> int | None:
    """The team (engine order) that the deal's ``points`` bring to the target from ``scores``, the first by ``race``
    (`race_order` seen from ``side_a``) when both get there; None: neither."""
    need = [target - scores[t] for t in (0, 1)]
    reached = [points[t] >= need[t] for t in (0, 1)]
    if not any(reached):
        return None
    if not all(reached):
        return reached.index(True)
    a_first = bool(race[min(need[side_a], RACE_SIZE - 1), min(need[1 - side_a], RACE_SIZE - 1)])
    return side_a if a_first else 1 - side_a


def add_outcome(into: np.ndarray, result: DealResult, scores, target: int, side_a: int) -> None:
    """Count a deal into ``into`` ((OUTCOME_SIZE,) int64, `OUTCOME_SIZE`'s layout) as `deal_outcome` gives it."""
    x, y, race = deal_outcome(result, scores, target, side_a)
    into[x * POINT_BINS + y] += 1
    into[POINT_BINS * POINT_BINS:] += race.ravel()


def split_outcomes(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points (..., POINT_BINS, POINT_BINS), race (..., RACE_SIZE, RACE_SIZE)) of `OUTCOME_SIZE` counts (...,
    OUTCOME_SIZE)."""
    counts = np.asarray(counts)
    cut = POINT_BINS * POINT_BINS
    lead = counts.shape[:-1]
    return (counts[..., :cut].reshape(lead + (POINT_BINS, POINT_BINS)),
            counts[..., cut:].reshape(lead + (RACE_SIZE, RACE_SIZE)))


def job_kit(job) -> tuple:
    """(kit, estimator) of a runner job of this module, loaded where the job runs: ``job.kit`` names the game's
    betting module (``module.kit(**dict(job.variant))``), ``job.communication`` the estimator's model."""
    import importlib

    kit = importlib.import_module(job.kit).kit(**dict(job.variant))
    return kit, kit.make_estimator(job.communication)


def check_reads(kit: str, *policies: Policy) -> None:
    """A CardsimError when a policy reads the opponents' bets (`Policy.reads`) and the game's betting module ``kit``
    (a module name) has no model of the bets seen (its estimator's ``facing``: a ``READS_BETS`` flag)."""
    import importlib

    readers = [p.name for p in policies if p.reads]
    if readers and not getattr(importlib.import_module(kit), "READS_BETS", False):
        raise CardsimError(f"policy {readers[0]!r} reads the opponents' bets (\"reads\"), and this game has no model "
                           "of the bets seen (only Giltspiel has): give a policy without \"reads\"")


class MatchJob:
    """Runner job: games between policies a and b with duplicate deals. Unit = one game; games 2k and
    2k+1 of a block share their deals (and bluff draws) with the policies' seats swapped.

    kit: module name of the game's betting module; ``module.kit(**dict(variant))`` gives the object with
    ``cards(trump)``, ``draw_deal(rng, dealer)`` and ``make_estimator(communication)`` (see `play_game`).
    Counts: [games, games a won, deals, a points, b points, sum over games of a points², b points²,
    deals², a points x deals, b points x deals], then for all deals and then for the *far* deals alone (both teams
    at least `LIMIT_REACH` points from the target at the deal's start), per dealing side (0: a's team dealt, 1: b's)
    the deals' outcomes (`OUTCOME_SIZE` counts: points (a, b) and race order, `add_outcome`), and last the sum over
    duplicate pairs of (games a won in the pair)².
    """

    block_size = 16
    n_counts = 10 + 4 * OUTCOME_SIZE + 1

    def __init__(self, kit: str, a: Policy, b: Policy, rules: BettingRules, communication: str = "partner",
                 variant: tuple = ()):
        self.kit, self.a, self.b, self.rules = kit, a, b, rules
        self.communication, self.variant = check_communication(communication), tuple(variant)
        check_reads(kit, a, b)

    def key(self) -> str:
        return (f"{self.kit}|match|far {LIMIT_REACH}, outcomes {MIN_DEAL_POINTS}|{self.a!r}|{self.b!r}|{self.rules!r}|"
                f"{self.communication}|{self.variant!r}")

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        from simcore.rng import block_substream

        kit, estimator = job_kit(self)
        counts = np.zeros(self.n_counts, dtype=np.int64)
        outcomes = counts[10:-1].reshape(2, 2, OUTCOME_SIZE)  # [all, far][dealing side]
        pair_wins = 0
        for j in range(n_games):
            pair, a_team = divmod(j, 2)
            policies = (self.b, self.a) if a_team else (self.a, self.b)
            record = play_game(kit, policies, block_substream(seed, block, 2 * pair + DEALS_STREAM),
                               block_substream(seed, block, 2 * pair + BLUFF_STREAM), self.rules, estimator)
            pa, pb = record.scores[a_team], record.scores[1 - a_team]
            deals = len(record.deals)
            counts[:10] += [1, record.winner == a_team, deals, pa, pb, pa * pa, pb * pb, deals * deals,
                            pa * deals, pb * deals]
            pair_wins = (pair_wins if a_team else 0) + (record.winner == a_team)
            if a_team or j == n_games - 1:
                counts[-1] += pair_wins * pair_wins
            start = [0, 0]
            for result, dealer in zip(record.deals, record.dealers):
                side = 0 if dealer % 2 == a_team else 1
                far = min(self.rules.target - score for score in start) >= LIMIT_REACH
                for kept in outcomes[:2 if far else 1]:
                    add_outcome(kept[side], result, start, self.rules.target, a_team)
                start = [start[t] + result.points[t] for t in (0, 1)]
        return counts


def net_points(result: DealResult) -> tuple[int, int, int, int]:
    """Team 0's points minus team 1's in a deal, from the penalties (award category 0) and from the Gleich, the
    Hanger and the Spiel (`NET_PARTS`' order)."""
    net = [0, 0, 0, 0]
    for category, figure, team, points in result.awards:
        net[0 if category == 0 else 1 + figure] += points if team == 0 else -points
    return tuple(net)


NET_PARTS = ("penalty", "gleich", "hanger", "spiel")
"""Where `PairedDealJob`'s net points come from: the -2 penalties (§8.9) and each figure."""
PAIRED_COUNTS = ("deals", "a_game", "b_game", "a_wins", "only_arm", "only_base", "gave_spiel", "a_points",
                 "b_points", "net", "net_sq", "dnet", "dnet_sq") + tuple(
    f"net_{part}{sq}" for part in NET_PARTS for sq in ("", "_sq"))
"""`PairedDealJob`'s counts per score, dealing team and arm (see there)."""
MAX_PAIRED_DEALS = 1_000_000
PAIRED_STREAMS = 1 << 16
"""`PairedDealJob` draws unit j of a block from the block's streams PAIRED_STREAMS + 2j + 1 (cards) and + 2 (bluffs),
apart from those of self-play games (`MatchJob`) on the same seed."""


class PairedDealJob:
    """Runner job: one deal played under several arms, each then played out to the end of the game, so that what an
    arm does in that deal is measured in games won. Unit = one deal: for each start score (a, b) in ``scores`` and
    each dealing team (side 0: a seat of team A deals, side 1: a seat of team B), the deal is played once per arm
    with the same cards and the same bluff (and A-12 speech) draws, and the game goes on from the new scores with
    ``policy`` on both sides, the deals after it also the same for every arm as far as they go alike. Team A is the
    engine's team 0.

    arms: (blind, policy A) pairs, the first the base the others are compared with: in the first deal the first
    seat of team A after the dealer bets the figures of ``blind`` blind before the cut (§8.14) and team A bets by
    ``policy A``, team B by ``policy``.

    Counts (scores, 2, arms, `PAIRED_COUNTS`) flattened: deals, A won the game in the first deal, B won it there, A
    won the game, A won it with this arm but not with the base arm, the other way round, A gave the Spiel up in the
    first deal (conceded it or answered a bet on it with gut, whether or not a penalty voided B's points), A's and B's
    points in the first deal, the sums of A's net points there (A's minus B's) and of their squares, of their change
    from the base arm's same deal and its squares, then per part of `NET_PARTS` the sum of A's net points from it and
    of their squares.
    """

    block_size = 8

    def __init__(self, kit: str, policy: Policy, rules: BettingRules, scores, arms, communication: str = "partner",
                 variant: tuple = ()):
        self.kit, self.policy, self.rules = kit, policy, rules
        self.communication, self.variant = check_communication(communication), tuple(variant)
        check_reads(kit, policy)
        self.scores = tuple((int(a), int(b)) for a, b in scores)
        self.arms = tuple((tuple(int(f) for f in blind), arm_policy) for blind, arm_policy in arms)
        self.n_counts = len(self.scores) * 2 * len(self.arms) * len(PAIRED_COUNTS)

    def key(self) -> str:
        return (f"{self.kit}|paired|{self.policy!r}|{self.rules!r}|{self.communication}|{self.variant!r}|"
                f"{self.scores}|{self.arms!r}")

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        from simcore.rng import block_substream

        kit, estimator = job_kit(self)
        counts = np.zeros((len(self.scores), 2, len(self.arms), len(PAIRED_COUNTS)), dtype=np.int64)
        for j in range(n_deals):
            for side in (0, 1):
                dealer = side  # a seat of team A (side 0) or of team B (side 1) deals
                bettor = next(seat for seat in ((dealer + k) % kit.players for k in range(1, kit.players + 1))
                              if seat % 2 == 0)
                for i, scores in enumerate(self.scores):
                    base, base_net = False, 0
                    for k, (blind, policy_a) in enumerate(self.arms):
                        deal_rng, bluff_rng = (block_substream(seed, block, PAIRED_STREAMS + 2 * j + index)
                                               for index in (DEALS_STREAM, BLUFF_STREAM))
                        deal = play_one_deal(kit, (policy_a, self.policy), dealer, scores, deal_rng, bluff_rng,
                                             self.rules, estimator, [(bettor, figure) for figure in blind])
                        first, spiel = deal.result, deal.figures[SP]
                        record = GameRecord(self.rules.target, scores=list(scores))
                        record.add(first, dealer)
                        play_to_end(record, kit, (self.policy, self.policy), (dealer + 1) % kit.players, deal_rng,
                                    bluff_rng, self.rules, estimator)
                        won, net = record.winner == 0, first.points[0] - first.points[1]
                        base, base_net = (won, net) if k == 0 else (base, base_net)
                        gave = spiel.decided_by == "concession" and spiel.winner == 1
                        counts[i, side, k] += [1, first.game_winner == 0, first.game_winner == 1, won,
                                               won and not base, base and not won, gave, *first.points, net, net * net,
                                               net - base_net, (net - base_net) ** 2,
                                               *(x for part in net_points(first) for x in (part, part * part))]
        return counts.ravel()


class LimitClassJob:
    """Runner job: single deals near the end of the game, one per *near* pair of limit classes (`near_classes`),
    for the match equity's per-class deal model (`class_match_equity`). Unit = one deal per class: team A (the
    engine's team 0, seat 0 deals) starts it on target - i points, team B on target - j, ``policy`` bets for both,
    each class its own cards and bluff draws (`CLASS_STREAMS`).

    Counts (classes, `OUTCOME_SIZE`) flattened: per class the deals' outcomes (`add_outcome`: points of A and B, race
    order, games won outright)."""

    block_size = 4

    def __init__(self, kit: str, policy: Policy, rules: BettingRules, communication: str = "partner",
                 variant: tuple = ()):
        self.kit, self.policy, self.rules = kit, policy, rules
        self.communication, self.variant = check_communication(communication), tuple(variant)
        check_reads(kit, policy)
        self.classes = near_classes(rules.target)
        self.n_counts = len(self.classes) * OUTCOME_SIZE

    def key(self) -> str:
        return (f"{self.kit}|limit-classes|{LIMIT_REACH}|outcomes {MIN_DEAL_POINTS}|{self.policy!r}|{self.rules!r}|"
                f"{self.communication}|{self.variant!r}")

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        from simcore.rng import block_substream

        kit, estimator = job_kit(self)
        counts = np.zeros((len(self.classes), OUTCOME_SIZE), dtype=np.int64)
        target = self.rules.target
        for j in range(n_deals):
            for c, (i, k) in enumerate(self.classes):
                unit = CLASS_STREAMS + 2 * (j * len(self.classes) + c)
                scores = (target - i, target - k)
                deal = play_one_deal(kit, (self.policy, self.policy), 0, scores,
                                     block_substream(seed, block, unit + DEALS_STREAM),
                                     block_substream(seed, block, unit + BLUFF_STREAM), self.rules, estimator)
                add_outcome(counts[c], deal.result, scores, target, 0)
        return counts.ravel()


# --- thresholds ---------------------------------------------------------------------------------
MAX_EQUITY_TARGET = 1_000
"""Largest target of the match-equity tables: (target + 1)^2 scores a dealer, each a Python step."""


def _points_table(table, what: str, size: int | None = None, low: float = 0.0) -> np.ndarray:
    """``table`` as a square (K, K) float array (K = ``size`` when given) of finite numbers of at least ``low``;
    CardsimError naming ``what`` otherwise."""
    try:
        array = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        array = np.empty(0)
    square = array.ndim == 2 and array.shape[0] == array.shape[1] >= 1 and size in (None, array.shape[0])
    if not square or not np.all(np.isfinite(array)) or np.any(array < low):
        shape = f"({size}, {size})" if size else "square (K, K)"
        limits = "" if low == -math.inf else ", non-negative"
        raise CardsimError(f"{what} must be a {shape} table of finite numbers{limits}, got {checks.shown(table)}")
    return array


def _points_tables(tables, what: str, size: int | None = None, scaled: bool = True) -> list[np.ndarray]:
    """A pair of `_points_table` of one size (``size`` when given); ``scaled``: non-negative, each with a
    positive sum, else any finite numbers (self-play's firsts are differences of counted tables, which sampling
    noise leaves a little below 0 here and there)."""
    if isinstance(tables, (str, bytes, dict)) or not hasattr(tables, "__len__") or len(tables) != 2:
        raise CardsimError(f"{what} must be two tables, one per dealer, got {checks.shown(tables)}")
    low = 0.0 if scaled else -math.inf
    first = _points_table(tables[0], what, size, low)
    pair = [first, _points_table(tables[1], what, first.shape[0], low)]
    if scaled and min(t.sum() for t in pair) <= 0:
        raise CardsimError(f"{what}: a table sums to 0; give deal counts or probabilities")
    return pair


def hold_threshold(value: int, stand: float = 0.0) -> tuple[float, float]:
    """First-order hold/concede threshold facing a bet from ``value`` to ``value + 1`` (§10.6):
    hold iff d = P(win) - P(lose) > -v/(v+1); with stand probability ``stand`` that is
    P(win) > (1 - stand - v/(v+1)) / 2. Returns (d threshold, P(win) threshold)."""
    value, stand = _bet_value(value), _stand_rate(stand)
    d = -value / (value + 1)
    return d, max(0.0, (1.0 - stand + d) / 2)


def _bet_value(value) -> int:
    """``value``, the figure's value before the raise (a bet goes from it to value + 1), as an int of at least 1."""
    return checks.whole(value, "value (the figure's value before the bet)", 1)


def _stand_rate(stand) -> float:
    """``stand``, the probability that the figure stands, checked (`checks.probability`)."""
    return checks.probability(stand, "stand (the probability of a stand)")


def bet_threshold(stand: float = 0.0) -> tuple[float, float]:
    """First-order value-bet threshold when the opponents always hold (§10.6): d > 0, i.e.
    P(win) > (1 - stand) / 2. Returns (d threshold, P(win) threshold)."""
    return 0.0, (1.0 - _stand_rate(stand)) / 2


def bluff_break_even(value: int, d: float) -> float:
    """Concession rate c* at which a bet with d < 0 breaks even (§10.6): |d| / (v + (v+1)|d|). ``d`` = P(win) -
    P(lose) of the bet, from -1 to below 0 (a float or an exact `fractions.Fraction`)."""
    value = _bet_value(value)
    if not isinstance(d, numbers.Real) or isinstance(d, (bool, np.bool_)) or not -1 <= d < 0:
        raise CardsimError(f"d (P(win) - P(lose) of a bluff) must be a number from -1 to below 0, got "
                           f"{checks.shown(d)}")
    return abs(d) / (value + (value + 1) * abs(d))


def match_equity(distribution, target: int, first=None) -> np.ndarray:
    """W[a, b] = P(team A wins the game from scores a, b < target), by dynamic programming over a
    per-deal points distribution ``distribution[x, y]`` (A scores x, B scores y; (K, K) summing to 1),
    the same whoever deals (`dealt_match_equity` with one distribution for both dealers).
    Returns (target + 1, target + 1) with W[target, b < target] = 1 and W[a < target, target] = 0."""
    return dealt_match_equity((distribution, distribution), target,
                              None if first is None else (first, first))[0]


def dealt_match_equity(distributions, target: int, firsts=None) -> np.ndarray:
    """W[d, a, b] = P(team A wins the game from scores a, b when team d (0 = A, 1 = B) deals next), by
    dynamic programming; the deal passes to the other team after every deal (clockwise dealing).

    distributions[d]: (K, K) per-deal points (A x, B y) of deals dealt by team d. firsts[d]: (K, K)
    [na, nb] = P(both teams reach na and nb points in the deal and A reaches na first) (the §7.10
    scoring order, `race_order`); None: a deal where both reach the target counts 1/2 each. A deal
    where nobody scores passes the deal on (a 2 x 2 linear system per score, solved exactly).
    The same deal model at every score (`class_match_equity`: one per limit class, points below 0).
    Returns (2, target + 1, target + 1); W[:, target, b < target] = 1, W[:, a < target, target] = 0.
    """
    target = checks.whole(target, "the target", 1, MAX_EQUITY_TARGET)
    dists = _points_tables(distributions, "distributions (per-deal points of A by B, one table per dealer)")
    size = dists[0].shape[0]
    firsts = None if firsts is None else _points_tables(firsts, "firsts (P(both reach na, nb and A first) per "
                                                                "dealer)", size, scaled=False)  # noise: -0.04
    every = (LIMIT_REACH, LIMIT_REACH, size, size)
    return _equity_solve(np.stack([np.broadcast_to(d / d.sum(), every) for d in dists]),
                         None if firsts is None else np.stack([np.broadcast_to(f, every) for f in firsts]), target, 0)


def class_match_equity(distributions, target: int, firsts, low: int = 0, top_ends: bool = False) -> np.ndarray:
    """`dealt_match_equity` with a deal model per pair of limit classes (`limit_class`: the §8.6 / §7.11 limits
    near the end change what a deal can score) and with points below 0 (penalties): distributions[d, i - 1, j - 1]
    (B, B) the per-deal points of deals dealt by team d with A in class i and B in class j, bin k for k + ``low``
    points (``low`` <= 0); firsts[d, i - 1, j - 1] (B + low, B + low) their race order (`race_order` sums, [na, nb]
    for na, nb points). Arrays (2, L, L, ...), L = `LIMIT_REACH`, both counts or both probabilities (each firsts
    table is scaled by its distribution's sum). Each distribution sums to more than 0; classes above the target are
    not read (a score below 0 takes the class of 0). Scores below 2 ``low`` count as 2 ``low``. ``top_ends``: a
    team in the last bin reaches the target from any score (it holds the games won outright, `deal_outcome`).
    Returns (2, target + 1, target + 1) as `dealt_match_equity`."""
    target = checks.whole(target, "the target", 1, MAX_EQUITY_TARGET)
    low = checks.whole(low, "low (the points of the first bin)", None, 0)
    tables, races = (np.asarray(t, dtype=float) for t in (distributions, firsts))
    shape, bins = tables.shape, tables.shape[-1] + low
    if (tables.ndim != 5 or shape[:3] != (2, LIMIT_REACH, LIMIT_REACH) or shape[3] != shape[4] or bins < 1
            or races.shape != shape[:3] + (bins, bins) or not np.all(np.isfinite(tables))
            or not np.all(np.isfinite(races)) or np.any(tables < 0)):
        raise CardsimError(f"distributions and firsts must be (2, {LIMIT_REACH}, {LIMIT_REACH}, B, B) and (2, "
                           f"{LIMIT_REACH}, {LIMIT_REACH}, B + low, B + low) tables of finite numbers (distributions "
                           f"non-negative), got shapes {shape} and {races.shape} with low {low}")
    top = min(target, LIMIT_REACH)
    sums = tables.sum(axis=(3, 4), keepdims=True)
    if np.any(sums[:, :top, :top] <= 0):
        raise CardsimError("distributions: a limit class has no deal (a table sums to 0); give deal counts or "
                           "probabilities for every class")
    scale = np.where(sums > 0, sums, 1.0)
    return _equity_solve(tables / scale, races / scale, target, low, checks.flag(top_ends, "top_ends"))


def reach_table(p: np.ndarray, low: int = 0) -> np.ndarray:
    """[..., na, nb] = P(A scores at least na and B at least nb points), na, nb from 0, of per-deal point tables
    (..., B, B) whose bin k holds k + ``low`` points: (..., B + low, B + low)."""
    both = p[..., ::-1, ::-1].cumsum(-2).cumsum(-1)[..., ::-1, ::-1]
    return both[..., -low:, -low:]


EQUITY_TOLERANCE = 1e-13
"""Relative residual to which `_equity_linear` solves the match equity's linear system."""


def _equity_solve(dists: np.ndarray, firsts: np.ndarray | None, target: int, low: int,
                  top_ends: bool = False) -> np.ndarray:
    """The dynamic programme of `dealt_match_equity` and `class_match_equity`: dists (2, L, L, B, B) per dealer and
    pair of limit classes, each summing to 1, bin k for k + ``low`` points; firsts (2, L, L, B + low, B + low) or None
    (both reaching the target: 1/2 each). Without points below 0 (``low`` = 0) the scores are taken by falling a + b
    (`_equity_sweep`), else (or with ``top_ends``) the linear system of every score is solved (`_equity_linear`).
    Returns W as `dealt_match_equity`."""
    size = dists.shape[-1] + low  # race tables: na, nb = 0 .. size - 1 points; index size: beyond every deal
    both_first = np.zeros(dists.shape[:3] + (size + 1, size + 1))
    both_first[..., :size, :size] = reach_table(dists, low) / 2 if firsts is None else firsts
    top = min(target, LIMIT_REACH)
    if np.any((dists[0, :top, :top, -low, -low] == 1) & (dists[1, :top, :top, -low, -low] == 1)):
        raise CardsimError("distributions: no deal ever scores (all the weight on 0 points for both teams), so no "
                           "game ends; give tables with some weight off [0, 0]")
    w = np.zeros((2, target + 1, target + 1))
    w[:, :target, :target] = (_equity_sweep(dists, both_first, target, low) if low == 0 and not top_ends
                              else _equity_linear(dists, both_first, target, low, top_ends))
    w[:, target, :target] = 1.0
    return w


def _score_classes(a, b, target: int) -> tuple[np.ndarray, np.ndarray]:
    """The limit-class indices (0 .. L - 1) of scores ``a`` and ``b`` (arrays) in a game to ``target``; a score
    below 0 in a game to less than `LIMIT_REACH` takes the class of 0 (the classes above the target are not read)."""
    top = min(target, LIMIT_REACH)
    return np.minimum(target - a, top) - 1, np.minimum(target - b, top) - 1


def _race_term(both_first: np.ndarray, d: int, ci, cj, a, b, target: int) -> np.ndarray:
    """P(both teams reach the target in the deal and A first) at scores a, b (arrays), team d dealing."""
    size = both_first.shape[-1] - 1
    return both_first[d, ci, cj, np.minimum(target - a, size), np.minimum(target - b, size)]


def _equity_sweep(dists: np.ndarray, both_first: np.ndarray, target: int, low: int) -> np.ndarray:
    """W (2, T, T) of scores 0 .. T - 1 for deals that never lose points (``low`` = 0), by falling a + b: a deal that
    gains points leads to a score already solved; the deal where nobody scores makes a 2 x 2 system per score (the
    two dealers), solved exactly."""
    bins = dists.shape[-1]
    ext = np.zeros((2,) + (target + bins - 1,) * 2)  # ext[e, a, b]: W of team e dealing next
    ext[:, target:, :target] = 1.0  # A has reached the target, B not (both: the race term)
    offsets = np.arange(bins)
    for total in range(2 * target - 2, -1, -1):
        a = np.arange(max(0, total - target + 1), min(target - 1, total) + 1)
        b = total - a
        ci, cj = _score_classes(a, b, target)
        rows, cols = a[:, None, None] + offsets[None, :, None], b[:, None, None] + offsets[None, None, :]
        rest, stay = [], []
        for d in (0, 1):
            p = dists[d, ci, cj]
            # ext[:, a, b] is still 0 here: the deal where nobody scores is solved below
            rest.append((p * ext[1 - d][rows, cols]).sum(axis=(1, 2)) + _race_term(both_first, d, ci, cj, a, b,
                                                                                   target))
            stay.append(p[:, 0, 0])
        # W0 = rest0 + stay0 W1, W1 = rest1 + stay1 W0
        ext[0, a, b] = (rest[0] + stay[0] * rest[1]) / (1.0 - stay[0] * stay[1])
        ext[1, a, b] = rest[1] + stay[1] * ext[0, a, b]
    return ext[:, :target, :target]


def _equity_linear(dists: np.ndarray, both_first: np.ndarray, target: int, low: int,
                   top_ends: bool = False) -> np.ndarray:
    """W (2, T, T) of scores 0 .. T - 1 when deals can lose points (``low`` < 0): the linear system W = M W + r over
    every score from 2 ``low`` (lower ones count as it) to T - 1 and both dealers, M the moves to scores below the
    target, r the deals that bring A there first; solved by GMRES to a relative residual of `EQUITY_TOLERANCE`
    (8.5 ms at target 18, 0.15 s at 100; the exact sparse LU, 5-140 times slower, when it does not settle in 20
    restarts), and
    once more with r the deals that end the game, to refuse a model where from some score no game ends."""
    import scipy.sparse
    from scipy.sparse.linalg import gmres, spsolve

    floor = 2 * low
    n = target - floor
    a, b = np.meshgrid(np.arange(floor, target), np.arange(floor, target), indexing="ij")
    ci, cj = _score_classes(a, b, target)
    points = np.arange(dists.shape[-1]) + low
    if top_ends:  # the last bin reaches the target from any score
        points[-1] = target - floor
    na = np.maximum(a[:, :, None, None] + points[None, None, :, None], floor)
    nb = np.maximum(b[:, :, None, None] + points[None, None, None, :], floor)
    a_in, b_in = na < target, nb < target
    rows, cols, values = [], [], []
    r, ends = np.zeros((2, n, n)), np.zeros((2, n, n))  # A reaches the target first; somebody reaches it
    for d in (0, 1):
        p = dists[d, ci, cj]  # (n, n, B, B)
        r[d] = (p * (~a_in & b_in)).sum(axis=(2, 3)) + _race_term(both_first, d, ci, cj, a, b, target)
        ends[d] = (p * ~(a_in & b_in)).sum(axis=(2, 3))
        moves = a_in & b_in & (p > 0)
        source = d * n * n + (a - floor) * n + (b - floor)
        rows.append(np.broadcast_to(source[:, :, None, None], moves.shape)[moves])
        cols.append(((1 - d) * n * n + (na - floor) * n + (nb - floor))[moves])
        values.append(p[moves])
    size = 2 * n * n
    m = scipy.sparse.csr_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
                                shape=(size, size))
    system = (scipy.sparse.identity(size, format="csr") - m).tocsc()

    def solved(rhs: np.ndarray) -> np.ndarray:
        x, failed = gmres(system, rhs.ravel(), rtol=EQUITY_TOLERANCE, atol=0.0, restart=50, maxiter=20)
        if failed:  # not settled: the exact (slower) factorisation; singular: nan, refused below
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore", scipy.sparse.linalg.MatrixRankWarning)
                x = spsolve(system, rhs.ravel(), permc_spec="NATURAL")
        return x

    w, ended = solved(r), solved(ends)
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(ended)) and ended.min() > 1 - 1e-9):
        raise CardsimError("distributions: from some score no game ever ends (the deals lose points or score none "
                           "forever); give tables with more weight on points won")
    return w.reshape(2, n, n)[:, -floor:, -floor:]


def game_hold_threshold(w, a: int, b: int, value: int) -> float:
    """P(win the figure) above which team A (scores a, b) should hold a bet from ``value`` to
    ``value + 1`` rather than concede it, by match equity ``w`` (`match_equity`), no stands, the rest
    of the deal ignored: hold iff p W(a+v+1, b) + (1-p) W(a, b+v+1) > W(a, b+v)."""
    w = _points_table(w, "w (the match equity, as match_equity gives it)", low=-math.inf)  # self-play noise: 1.002
    target = w.shape[0] - 1
    a, b = (checks.whole(x, f"score {name}", 0, target) for x, name in ((a, "a"), (b, "b")))
    value = _bet_value(value)

    def at(x, y):
        return w[min(x, target), min(y, target)]

    concede, win, lose = at(a, b + value), at(a + value + 1, b), at(a, b + value + 1)
    return float(min(1.0, max(0.0, (concede - lose) / (win - lose)))) if win > lose else 1.0
