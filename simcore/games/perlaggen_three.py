"""Perlaggen for three, each for himself (perlaggen.md §9.4): whole deals and games.

A deal (`Deal3`): 7 cards each (`perlaggen_variants`, 3-player tables), the forehand (the dealer's left)
leads. Every figure (Gleich, Hanger, Spiel) is worth 1 unbet; a bet on it is one `ThreeFigure` (bet 2,
answered clockwise from the bettor's left: gut / accept / raise to 3; the free ride; a later raise to
3 by a player who accepted or rides free, never by the bettor, A-29). Readings chosen here (DEFAULT):

* during trick play any player may bet an unbet figure or raise when no bet is waiting; the policy
  driver polls the players clockwise from the leader before every trick (`betting_window`);
* the Spiel needs 4 of 7 tricks; trick play ends when someone has 4, when everybody conceded a Spiel
  bet (or its raise), or when nobody can reach 4 any more ("das Spiel ist hin"); no spontaneous
  concession (§9.4);
* the showing is one clockwise round, the Spiel winner first (else the forehand): in his turn a player
  may bet an unbet Gleich/Hanger or raise one he is on, then lays out his best examples (the full
  hand's best code, Perlaggen baptised as needed);
* a bet Gleich/Hanger goes to the best example among the players still in it (a tie at the top:
  it stands); an unbet one to the single best example of all three; the points are
  `ThreeFigure.plain_points`; the betting limit of §8.6 holds per player (A-38): p may bet or raise F
  only if score + secured in this deal + value(F) < target;
* verification (§9.4): a player who bet, raised or actively accepted a Gleich or Hanger and has no
  example scores nothing in the deal and loses 2;
* the points count in the §8.12 order (conceded figures in the order of the last *gut*, bet figures by
  their first bet, unbet ones Gleich, Hanger, Spiel); the first player to reach the target wins.

Strafperlaggen (§9.5, style ``"straf"``): the straf deal (3-T-4, acorns laid aside) and Perlaggen,
everyone starts on 9 (``target``) and the first to reach 0 wins; a decided figure changes the counts by
`ThreeFigure.straf_changes` (an unbet one: the winner -1); a player on 1 may not bet or raise (instead
of §8.6); a failed example duty adds 2 and voids the player's deal; unbet figures count Spiel, Gleich,
Hanger (after the conceded and bet ones, A-18). Blind bets (§9.5, §8.14, `Deal3.bet_blind`): before
any answer, bet or card each player may bet unbet figures blind (no example duty, so no +2 for a
missing example); they are answered after the deal in the order Gleich, Hanger, Spiel (counter-bets
allowed, A-20); a blind Gleich/Hanger conceded by both scores only if the bettor has an example (§8.14);
the blind bettor must make the figure if he can (his Perlaggen serve it in play and showing); losing it
costs his level 2 like any failed commitment (DEFAULT). Acting out of turn is refused (CardsimError)
rather than fined.

The finish for places 2 and 3 (§9.5, `play_finish`, ``play_game(..., places=True)``): the other two
play on from their counts with the same rules, a `Deal3` of two hands (7 cards each, the straf deal
3-T-4 for two, the Spiel needs 4 of 7 tricks, so it is never hin). Readings chosen here (DEFAULT):

* answering between two is the 3-player protocol with the third player absent: the opponent says gut,
  accepts or raises to 3; after accepting he may raise to 3 later; the bettor never raises (A-29);
* the deal alternates between the two; the first deal is dealt by the next dealer in the 3-player
  rotation; if that is the winner, he deals it (his right cuts, his left leads and takes over the
  exchange, `finish_deal`) and the deal then passes to his left; otherwise A-27 (the non-dealer cuts
  and leads, the dealer exchanges);
* a player who reached 0 in the game's last deal after the winner (in the §9.5 order) is second
  without a finish;
* "Höll auf!" (A-32): in every finish deal where exactly one player is on 1, the deal starts with the
  other's blind bets on all three figures (`Deal3.hoell_auf_bettor`); the player on 1 answers each,
  gut or accept (he may not raise), before he sees his cards (the policy answers on `blind_prior`,
  `answer_hoell_auf`); a conceded Gleich/Hanger scores only if the bettor has an example (§8.14); an
  accepted Gleich/Hanger gives the player on 1 the example duty (only the blind bettor is exempt).

Policies are `simcore.betting.Policy` thresholds answering as individuals on d = P(I win the figure) -
P(another player wins it) from 3-player tables (`three_tables`); card play is G1 (§11.7) on a trick view
without partners (`solo_view`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from simcore import betting, checks
from simcore.betting import GUT, HOLD, RAISE, SP, G, H, Policy
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as PD
from simcore.games import perlaggen_play as PP
from simcore.games import perlaggen_variants as PV
from simcore.games.perlaggen_betting import (ACCEPT3, CODE_BINS, GUT3, RAISE3, TABLE_SEED, ThreeFigure, best_codes,
                                             cards_for, draw_from, trick_keys)
from simcore.rng import block_substream

PLAYERS = 3
FINISH_PLAYERS = 2
"""Players of the Strafperlaggen finish for places 2 and 3 (§9.5)."""
HAND = 7
NEED = 4
"""Tricks that win the Spiel (§9.4)."""
PENALTY = 2
PLAY, SHOW, DONE = "play", "show", "done"
STYLES = PD.FOUR_PLAYER_STYLES
"""Wild-card sets of the 3-player game ("local custom", §9.4)."""
TABLE_DEALS = 1 << 16
SPIEL_DEALS = 1200
BLIND_DEALS = 300
BLIND_MARGIN = 0.1
"""A policy bets a figure blind when its estimate before seeing a card (`blind_prior`) clears its bet
threshold (``bet_margin``) by this margin."""
STRAF = "straf"
STRAF_START = 9
"""Strafperlaggen (§9.5): every player starts on 9 and counts down; the first to reach 0 wins."""
STRAF_UNBET = (SP, G, H)


def solo_view(trick, trump: int, style: str) -> list:
    """The plays of a 3-player trick as G1 reads them: nobody is a partner, so G1 must never see "the
    player two before me holds the trick"; the leader's play alone when it holds the trick, else all."""
    if len(trick) < 2:
        return list(trick)
    keys = trick_keys(trick, trump, style)
    return list(trick[:1]) if keys.index(max(keys)) == 0 else list(trick)


@dataclass
class Result3:
    """A finished 3-player (or 2-player finish) deal: points (players,) (penalties included), awards
    [(player, points, figure)] in the §8.12 order, penalised players, the Spiel winner (None: hin), who
    won the game (None) and every player who reached the target in this deal, in the order he got there."""

    points: list
    awards: list
    penalised: set
    spiel_winner: int | None
    game_winner: int | None = None
    reached: list = field(default_factory=list)


class Deal3:
    """One deal of the 3-player game (§9.4). hands: three sequences of 7 cards (seat 0..2 clockwise);
    trump: suit index; scores: the players' totals before the deal (one per hand); target: game target.

    Two hands: a deal of the Strafperlaggen finish for places 2 and 3 (§9.5, style "straf" only): the
    same rules between two players; ``dealer``'s opponent leads (the winner-dealt first deal passes the
    other player as ``dealer``: see `finish_deal`)."""

    def __init__(self, hands, trump: int, dealer: int = 0, scores=(0, 0, 0), target: int = 18,
                 style: str = "innsbruck", no_hopeless_spiel_bet: bool = False):
        self.players = len(hands)
        if self.players not in (PLAYERS, FINISH_PLAYERS) or any(len(h) != HAND for h in hands):
            raise CardsimError(f"§9.4: three players hold {HAND} cards each, got {[len(h) for h in hands]}")
        if self.players == FINISH_PLAYERS and style != STRAF:
            raise CardsimError("§9.5: the two-player deal here is the Strafperlaggen finish for places 2 and 3 "
                               "(style straf); two-player Perlaggen (§9.2) is --players 2")
        if not hasattr(scores, "__len__") or len(scores) != self.players:
            raise CardsimError(f"give one score per player ({self.players}), got {scores!r}")
        if checks.flag(no_hopeless_spiel_bet, "no_hopeless_spiel_bet") and style != STRAF:
            raise CardsimError("no_hopeless_spiel_bet is a Strafperlaggen rule (§9.5): use it with style 'straf'")
        cards = P.DECK.n_cards if P.has_weli(style) else P.WELI
        hands, trump, dealer, scores = betting.deal_arguments(hands, trump, dealer, scores,
                                                              None if style == STRAF else target, cards, HAND,
                                                              self.players)
        self.game = cards_for(style, trump)
        self.style, self.trump, self.dealer = style, trump, dealer
        self.straf = style == STRAF
        self.no_hopeless_spiel_bet = no_hopeless_spiel_bet
        self.target = 0 if self.straf else target
        self.hands = [tuple(h) for h in hands]
        self.in_hand = [list(h) for h in hands]
        self.scores = tuple(scores)
        self.baptised = [{} for _ in range(self.players)]
        self.figures: list[ThreeFigure | None] = [None, None, None]
        self.decided: dict[int, tuple] = {}  # figure -> (points (3,), order key)
        self.first_bet: dict[int, int] = {}
        self.blind: set[int] = set()  # figures bet blind (§9.5)
        self.blind_open = self.straf  # blind bets allowed until the first answer, bet or card
        self.duty = [set(), set()]  # per G/H: players with the example duty
        self.won = [0] * self.players
        self.trick: list = []
        self.leader = (dealer + 1) % self.players
        self.phase = PLAY
        self.shown = [[-1, -1] for _ in range(self.players)]  # best code laid out per player and G/H
        self.show_turns: list[int] = []
        self.spiel_winner: int | None = None
        self.result: Result3 | None = None
        self._seq = 0
        bettor = self.hoell_auf_bettor()
        if bettor is not None:
            for figure in (G, H, SP):
                self.bet_blind(bettor, figure)

    # --- state --------------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def code(self, seat: int, figure: int) -> int:
        """Best code (-1 none) of the seat's whole hand, its baptisms fixed."""
        return self.game.codes(self.hands[seat], self.baptised[seat])[figure]

    def pending(self) -> int | None:
        """The figure whose bet or raise waits for an answer, or None."""
        return next((f for f, fig in enumerate(self.figures)
                     if fig is not None and fig.queue and f not in self.decided),
                    None)

    def open(self, figure: int) -> bool:
        return figure not in self.decided

    def secured(self, seat: int) -> int:
        return sum(points[seat] for points, _ in self.decided.values())

    def bet_error(self, seat: int, figure: int) -> str | None:
        """Why ``seat`` may not bet ``figure`` (or raise it to 3) now; None if he may."""
        fig = self.figures[figure]
        if self.phase == DONE or not self.open(figure):
            return "the figure is decided"
        if self.pending() is not None:
            return "a bet waits for an answer"
        if self.phase == SHOW and (figure == SP or seat != self.show_turns[0]):
            return "in the showing only the player whose turn it is bets, on Gleich or Hanger"
        value = 1 if fig is None else fig.value
        if fig is not None and (value >= 3 or seat == fig.bettor or seat in fig.out
                                or (fig.level[seat] == 0 and seat not in fig.free)):
            return "§9.4: only a player who accepted or rides free may raise, once, to 3"
        return self.hopeless_error(seat, figure) or self.limit_error(seat, value)

    def hopeless_error(self, seat: int, figure: int) -> str | None:
        """Strafperlaggen with ``no_hopeless_spiel_bet`` (§9.5, Pagat's suggested rule): why ``seat`` may not
        bet or raise the Spiel, as he can no longer take 4 tricks; None if he may."""
        if self.no_hopeless_spiel_bet and figure == SP and self.won[seat] + HAND - sum(self.won) < NEED:
            return "§9.5 (straf_no_hopeless_spiel_bet): he can no longer take 4 tricks"
        return None

    def blind_error(self, seat: int, figure: int) -> str | None:
        """Why ``seat`` may not bet ``figure`` blind now; None if he may (§9.5, §8.14)."""
        if not self.straf:
            return "§9.4: no blind bets in the 3-player game (only in Strafperlaggen)"
        if not self.blind_open:
            return "§9.5: blind bets come before the cut, before any answer, bet or card"
        if self.figures[figure] is not None:
            return "the figure is already bet"
        return self.limit_error(seat, 1)

    def hoell_auf_bettor(self) -> int | None:
        """The player who bets "Höll auf!" at the start of a deal of the two-player finish (§9.5): the
        opponent of the one player on 1, if exactly one is on 1; else None. The deal starts with his blind
        bets on all three figures (`__init__`); the player on 1 answers each, gut or accept, in the order
        Gleich, Hanger, Spiel, before he sees his cards (A-32: the policy answers on `blind_prior`)."""
        if self.players != FINISH_PLAYERS or not self.straf:
            return None
        on_one = [p for p in range(self.players) if self.scores[p] == 1]
        if len(on_one) != 1:
            return None
        return 1 - on_one[0]

    def must_make(self, seat: int, figure: int) -> bool:
        """Must the seat make Gleich/Hanger ``figure`` if he can (example duty, or his blind bet, §9.5)?"""
        fig = self.figures[figure]
        return seat in self.duty[figure] or (figure in self.blind and fig.bettor == seat)

    def limit_error(self, seat: int, value: int) -> str | None:
        """Why ``seat`` may not bet a figure of ``value`` up by one by his score: §8.6 per player (A-38),
        Strafperlaggen (§9.5): a player on 1 may not bet or raise."""
        if self.straf:
            return "§9.5: a player on 1 may not bet or raise" if self.scores[seat] <= 1 else None
        if not betting.bet_allowed(self.scores[seat] + self.secured(seat), value, self.target):
            return "§8.6 (A-38): the bet would let the others not concede"
        return None

    # --- actions ------------------------------------------------------------------------------
    def _tick(self) -> int:
        self._seq += 1
        return self._seq

    def bet(self, seat: int, figure: int) -> None:
        """Bet an unbet figure (2) or raise a bet one to 3."""
        error = self.bet_error(seat, figure)
        if error:
            raise CardsimError(f"player {seat} may not bet {betting.FIGURE_NAMES[figure]}: {error}")
        self.blind_open = False
        if self.figures[figure] is None:
            self.figures[figure] = ThreeFigure(seat, self.scores, straf=self.straf)
            self.first_bet[figure] = self._tick()
        else:
            self.figures[figure].raise_(seat)
        if figure != SP:
            self.duty[figure].add(seat)

    def bet_blind(self, seat: int, figure: int) -> None:
        """Strafperlaggen (§9.5): bet an unbet figure blind (2), answered after the deal (Gleich, Hanger,
        Spiel first, `pending`); the bettor gets no example duty (§8.14)."""
        error = self.blind_error(seat, figure)
        if error:
            raise CardsimError(f"player {seat} may not bet {betting.FIGURE_NAMES[figure]} blind: {error}")
        self.figures[figure] = ThreeFigure(seat, self.scores, straf=True)
        self.first_bet[figure] = self._tick()
        self.blind.add(figure)

    def answer(self, seat: int, figure: int, kind: str) -> None:
        """gut / accept / raise (to 3) by the player whose answer is due."""
        fig = self.figures[figure]
        if self.pending() != figure or fig.queue[0] != seat:
            raise CardsimError(f"player {seat} may not answer {betting.FIGURE_NAMES[figure]} now")
        if kind == RAISE3 and (fig.value >= 3 or self.limit_error(seat, 2) or self.hopeless_error(seat, figure)):
            raise CardsimError("§9.4/§8.6: this raise is not allowed")
        self.blind_open = False
        fig.answer(seat, kind)
        if figure != SP and kind != GUT3:
            self.duty[figure].add(seat)
        if not fig.queue:
            self._settle_if_conceded(figure)

    def _settle_if_conceded(self, figure: int) -> None:
        fig = self.figures[figure]
        alone = fig.raiser if fig.raiser is not None else fig.bettor
        if fig.eligible() == {alone}:
            self.decided[figure] = (self._points(figure, None), (0, self._tick()))
            if figure == SP:
                self.spiel_winner = alone
                self._end_play()

    def play(self, seat: int, card: int, identity: int | None = None) -> None:
        if self.phase != PLAY or seat != self.to_move or self.pending() is not None:
            raise CardsimError(f"player {seat} may not play now")
        identity = card if identity is None else identity
        if (card, identity) not in self.legal(seat):
            raise CardsimError(f"player {seat} may not play {card} as {identity}")
        self.blind_open = False
        self.in_hand[seat].remove(card)
        if card in self.game.wild:
            self.baptised[seat][card] = identity
        self.trick.append((card, identity))
        if len(self.trick) < self.players:
            return
        self.leader = self.game.trick_winner(self.trick, self.leader, self.trump)
        self.won[self.leader] += 1
        self.trick = []
        left = HAND - sum(self.won)
        if max(self.won) >= NEED:
            self.spiel_winner = self.won.index(NEED)
            self._end_play()
        elif max(self.won) + left < NEED:
            self._end_play()

    def legal(self, seat: int) -> set[tuple[int, int]]:
        return self.game.legal(self.in_hand[seat], self.trick, self.trump)

    def _end_play(self) -> None:
        if SP not in self.decided:
            self.decided[SP] = (self._points(SP, self.spiel_winner), self._order(SP))
        first = self.spiel_winner if self.spiel_winner is not None else (self.dealer + 1) % self.players
        self.show_turns = [(first + k) % self.players for k in range(self.players)]
        self.phase = SHOW
        self._skip_decided_showing()

    def show(self, seat: int) -> None:
        """The turn player lays out his best examples of the open Gleich and Hanger (one he has the example
        duty for first, so that his free Perlaggen serve it); the turn passes on."""
        if self.phase != SHOW or seat != self.show_turns[0] or self.pending() is not None:
            raise CardsimError(f"player {seat} may not show now")
        for figure in sorted((G, H), key=lambda f: not self.must_make(seat, f)):
            if self.open(figure):
                _, chosen = self.game.example_cards(self.hands[seat], figure, self.baptised[seat])
                self.baptised[seat].update(chosen)
        for figure in (G, H):
            self.shown[seat][figure] = self.code(seat, figure)
        self.show_turns.pop(0)
        self._skip_decided_showing()

    def _skip_decided_showing(self) -> None:
        if not self.show_turns or all(not self.open(f) for f in (G, H)):
            self._finish()

    # --- the end of the deal ------------------------------------------------------------------
    def _points(self, figure: int, winner: int | None) -> list[int]:
        """The players' points from a decided figure: plain (§9.4, `ThreeFigure.plain_points`) or
        Strafperlaggen changes (§9.5, `ThreeFigure.straf_changes`; an unbet figure: the winner -1)."""
        fig = self.figures[figure]
        if fig is None:
            return [(-1 if self.straf else 1) * int(p == winner) for p in range(self.players)]
        if (figure in self.blind and figure != SP and fig.raiser is None and fig.eligible() == {fig.bettor}
                and self.code(fig.bettor, figure) < 0):
            return [0] * self.players  # §8.14: a conceded blind Gleich/Hanger the bettor does not have
        return fig.straf_changes(winner, spiel=figure == SP) if self.straf else fig.plain_points(winner)

    def _order(self, figure: int) -> tuple[int, int]:
        """§8.12 sort key of a figure decided by the cards: bet ones by their first bet, then unbet ones
        (Gleich, Hanger, Spiel; Strafperlaggen: Spiel, Gleich, Hanger, §9.5 / A-18)."""
        if self.figures[figure] is not None:
            return 1, self.first_bet[figure]
        return 2, (STRAF_UNBET if self.straf else (G, H, SP)).index(figure)

    def _figure_winner(self, figure: int, players) -> int | None:
        codes = {p: self.code(p, figure) for p in players}
        best = max(codes.values(), default=-1)
        top = [p for p, c in codes.items() if c == best]
        return top[0] if best >= 0 and len(top) == 1 else None

    def _finish(self) -> None:
        for figure in (G, H):
            if figure in self.blind and not self.open(figure) and self.decided[figure][1][0] == 0:
                # §9.5 / §8.14: a conceded blind Gleich/Hanger counts only if the bettor can show an example
                # at the end, so it is settled again from the cards he ends with
                self.decided[figure] = (self._points(figure, None), self.decided[figure][1])
            if self.open(figure):
                fig = self.figures[figure]
                w = self._figure_winner(figure, range(self.players) if fig is None else sorted(fig.eligible()))
                self.decided[figure] = (self._points(figure, w), self._order(figure))
        penalised = {p for f in (G, H) for p in self.duty[f] if self.code(p, f) < 0}
        awards = []
        for figure, (points, _) in sorted(self.decided.items(), key=lambda kv: kv[1][1]):
            awards += [(p, points[p], figure) for p in range(self.players) if points[p] and p not in penalised]
        sign = -1 if self.straf else 1
        totals = [-sign * PENALTY if p in penalised else 0 for p in range(self.players)]
        running, reached = list(self.scores), []
        for p, points, _ in awards:
            totals[p] += points
            running[p] += points
            if p not in reached and sign * running[p] >= sign * self.target:
                reached.append(p)
        self.phase = DONE
        self.result = Result3(totals, awards, penalised, self.spiel_winner, (reached or [None])[0], reached)


# --- estimates -----------------------------------------------------------------------------------
def deal_rows(words: np.ndarray, style: str, players: int = PLAYERS) -> tuple[np.ndarray, np.ndarray]:
    """(hands (n, players) uint64, seat 0 = the dealer, the exchanger; trumps (n,)) of 3-player (or
    2-player Strafperlaggen finish) deals as played (A-28: deals thrown in left out)."""
    rows = PV.table_block(words, PV.TableRules(players=players, style=style, straf_finish=players == FINISH_PLAYERS))
    rows = rows[rows[:, PV.THROWN] == 0]
    return rows[:, :players], rows[:, PV.TRUMP].astype(np.int64)


def draw_deal(rng: np.random.Generator, style: str, dealer: int = 0,
              players: int = PLAYERS) -> tuple[list[tuple[int, ...]], int]:
    """A deal as played with ``dealer`` dealing (he alone exchanges, his left gets the first packet, his
    right cuts): hands by seat, trump suit (thrown in: deal again)."""
    return draw_from(lambda words: deal_rows(words, style, players), rng, dealer, players)


def figure_d(codes: np.ndarray) -> np.ndarray:
    """(2, CODE_BINS) d = P(my best is the single best) - P(another's is) by my best code + 1, from
    codes (n, players, 2) int64 (-1 none) of deals, all seats pooled; bins never seen: 0."""
    out = np.zeros((2, CODE_BINS))
    for figure in (G, H):
        seen, score = np.zeros(CODE_BINS), np.zeros(CODE_BINS)
        for seat in range(codes.shape[1]):
            mine = codes[:, seat, figure]
            others = np.delete(codes[:, :, figure], seat, axis=1)
            best = others.max(axis=1)
            win = (mine > best) & (mine >= 0)
            lose = (best > mine) & ((others == best[:, None]).sum(axis=1) == 1)
            seen += np.bincount(mine + 1, minlength=CODE_BINS)
            score += np.bincount(mine + 1, weights=win.astype(float) - lose, minlength=CODE_BINS)
        out[figure] = score / np.maximum(seen, 1)
    return out


def _power(cards, trump: int, wild) -> int:
    return min(sum(c in wild or c // 8 == trump for c in cards), betting.SPIEL_POWER - 1)


def spiel_d(games) -> np.ndarray:
    """(NEED, NEED, SPIEL_POWER) d = P(I take 4 tricks) - P(another does) by my tricks, the most tricks
    of another player and my power (trumps and Perlaggen in hand); games yields (trick winners, powers
    (players,) before every trick). Cells seen fewer than 30 times: the same power at any tricks."""
    score = np.zeros((NEED, NEED, betting.SPIEL_POWER))
    seen = np.zeros_like(score)
    for winners, powers in games:
        won, states = [0] * len(powers[0]), []
        for w, power in zip(winners, powers):
            states.append((list(won), power))
            won[w] += 1
            if max(won) == NEED:
                break
        for before, power in states:
            for p in range(len(won)):
                others = max(before[q] for q in range(len(won)) if q != p)
                outcome = float(won[p] == NEED) - float(max(won) == NEED and won[p] != NEED)
                score[before[p], others, power[p]] += outcome
                seen[before[p], others, power[p]] += 1
    marginal = score.sum(axis=(0, 1)) / np.maximum(seen.sum(axis=(0, 1)), 1)
    return np.where(seen >= 30, score / np.maximum(seen, 1), marginal[None, None, :])


@lru_cache(maxsize=4)
def _spiel_games(style: str, players: int) -> tuple:
    """((trick winners, powers (players,) before every trick), ...) of SPIEL_DEALS G1 play-outs of deals,
    no bets (kept in memory: the Spiel table and `stand_stats` share them)."""
    return tuple(_spiel_playouts(style, players))


def _spiel_playouts(style: str, players: int):
    rng = block_substream(TABLE_SEED, 0, 3)
    for _ in range(SPIEL_DEALS):
        hands, trump = draw_deal(rng, style, players=players)
        deal = Deal3(hands, trump, 0, (0,) * players, target=99, style=style)
        winners, powers = [], []
        while deal.phase == PLAY:
            powers.append([_power(deal.in_hand[p], trump, deal.game.wild) for p in range(players)])
            for _ in range(players):
                play_card(deal)
            winners.append(deal.leader)
        yield winners, powers


@lru_cache(maxsize=8)
def three_tables(style: str, players: int = PLAYERS) -> tuple[np.ndarray, np.ndarray]:
    """(figure_d (2, CODE_BINS), spiel_d (NEED, NEED, SPIEL_POWER)) of a style at a table of 3 (or the
    2-player Strafperlaggen finish), cached on disk."""
    name = f"perlaggen{players}-{style}"
    fig = betting.disk_cached(f"{name}-figures-{TABLE_DEALS}-seed{TABLE_SEED}",
                              lambda: figure_d(_table_codes(style, players)))
    spiel = betting.disk_cached(f"{name}-spiel-{SPIEL_DEALS}-seed{TABLE_SEED}",
                                lambda: spiel_d(_spiel_games(style, players)))
    return fig, spiel


def _table_codes(style: str, players: int) -> np.ndarray:
    """codes (n, players, 2) int64 (-1 none) of the best Gleich/Hanger of every hand of the table deals
    (TABLE_DEALS, fixed seed; thrown-in deals left out)."""
    rng = block_substream(TABLE_SEED, 0, 4)
    words = rng.integers(0, 1 << 32, size=(TABLE_DEALS, PD.WORDS_PER_DEAL), dtype=np.uint64).astype(np.uint32)
    return best_codes(*deal_rows(words, style, players), style)


PAIR_D = 3
"""Rows PAIR_D + G, PAIR_D + H of `figure_stats`: d against one other player by own best code + 1."""


def figure_stats(codes: np.ndarray, hin: float) -> np.ndarray:
    """(5, 1 + CODE_BINS): rows G, H: [P(two given players' best codes are equal, "none" included: the
    figure stands between them), share of hands by best code + 1 ...]; row Sp: [P(das Spiel ist hin), 0 ...];
    rows PAIR_D + G/H: [0, d = P(mine beats his) - P(his beats mine) against one other player by my best
    code + 1 ...] (`figure_d` over every pair of seats). codes (n, players, 2) int64 (-1 none)."""
    out = np.zeros((5, 1 + CODE_BINS))
    for figure in (G, H):
        out[figure, 0] = float((codes[:, 0, figure] == codes[:, 1, figure]).mean())
        out[figure, 1:] = np.bincount(codes[:, :, figure].ravel() + 1, minlength=CODE_BINS) / codes[:, :, 0].size
    out[SP, 0] = hin
    seats = codes.shape[1]
    pairs = np.concatenate([codes[:, [i, j]] for i in range(seats) for j in range(i + 1, seats)])
    out[PAIR_D:, 1:] = figure_d(pairs)
    return out


@lru_cache(maxsize=8)
def stand_stats(style: str, players: int = PLAYERS) -> np.ndarray:
    """`figure_stats` of the table deals, the Spiel's hin rate from the G1 play-outs without bets (the
    deals behind `three_tables`); cached on disk."""
    def compute() -> np.ndarray:
        games = _spiel_games(style, players)
        hin = sum(max(np.bincount(winners, minlength=players)) < NEED for winners, _ in games) / len(games)
        return figure_stats(_table_codes(style, players), hin)

    return betting.disk_cached(f"perlaggen{players}-{style}-stands-{TABLE_DEALS}-{SPIEL_DEALS}-seed{TABLE_SEED}",
                               compute)


def estimate(deal: Deal3, seat: int, figure: int, tables) -> float:
    """d = P(seat wins the figure) - P(another player does), as the seat sees it: his own hand, the
    tricks and, in the showing, the examples laid out (behind one of them: -1; ahead of all three: +1)."""
    fig_table, spiel_table = tables
    if figure == SP:
        others = max(deal.won[q] for q in range(deal.players) if q != seat)
        return float(spiel_table[min(deal.won[seat], NEED - 1), min(others, NEED - 1),
                                 _power(deal.in_hand[seat], deal.trump, deal.game.wild)])
    mine = deal.code(seat, figure)
    if deal.phase == SHOW:
        shown = [deal.shown[q][figure] for q in range(deal.players) if q != seat]
        if mine < max(shown):
            return -1.0
        if all(q not in deal.show_turns for q in range(deal.players) if q != seat):
            return 1.0 if mine > max(shown) else 0.0
    return float(fig_table[figure, mine + 1])


def accept_threshold(value: int, stand: float = 0.0, straf: bool = False, spiel: bool = False) -> tuple[float, float]:
    """First-order accept/concede threshold of one player answering a bet from ``value`` (1 or 2) to
    value + 1 in the 3-player game (§9.4) or Strafperlaggen (§9.5). Payoff: his points minus the mean of
    the other two players' (Straf: points counted off, so a subtraction gains), the figure between the
    bettor (or raiser, committed at value + 1) and him, the third player out. With p, q, s = P(he wins),
    P(the bettor wins), P(it stands or, for the Spiel, nobody takes 4 tricks) and d = p - q:

    * gut: the bettor takes the old value: -v/2; in Straf the answerer of a raise (v = 2) is the
      original bettor (the third player is out and a bettor may not raise, A-29), committed at c = 2,
      and conceding the raise adds his level: -(c + v/2), with c = 0 at v = 1;
    * plain accept: +(v+1) if he wins, -(v+1)/2 if the bettor wins, 0 else ->
      accept iff d > -(2v/(v+1) + 1 - s)/3;
    * Straf accept (both committed at v+1): +3(v+1)/2 if he wins, -3(v+1)/2 if the bettor wins, 0 if a
      Gleich/Hanger stands, -(v+1)/2 if nobody takes the Spiel (both add v+1) ->
      accept iff d > -(2c + v)/(3(v+1)) (+ s/3 for the Spiel): -1/6 at v = 1, -2/3 at v = 2.

    Returns (d threshold, P(win) threshold = (1 - s + d*)/2, at least 0)."""
    v = value
    if straf:
        committed = v if v > 1 else 0
        d = -(2 * committed + v) / (3 * (v + 1)) + (stand / 3 if spiel else 0.0)
    else:
        d = -(2 * v / (v + 1) + 1 - stand) / 3
    return d, max(0.0, (1 - stand + d) / 2)


# --- policies -------------------------------------------------------------------------------------
def play_card(deal: Deal3) -> None:
    """The mover plays by G1 on `solo_view`; a player with a Gleich/Hanger duty baptises a Perlagg as
    his best example needs, if that play is legal."""
    seat = deal.to_move
    trick = solo_view(deal.trick, deal.trump, deal.style)
    card, identity = PP.trusted_choose("greedy", P.DECK.mask(deal.in_hand[seat]), trick, deal.trump,
                                       style=deal.style)
    if card in deal.game.wild:
        for figure in (G, H):
            if deal.must_make(seat, figure):
                _, needed = deal.game.example_cards(deal.hands[seat], figure, deal.baptised[seat])
                keep = (card, needed.get(card, identity))
                if keep[1] != identity and keep in deal.legal(seat):
                    identity = keep[1]
                    break
    deal.play(seat, card, identity)


@dataclass
class Player:
    """One player's policy, the estimate tables and his bluff draws (G, H, Sp) of the deal."""

    policy: Policy
    tables: tuple
    bluffs: list = field(default_factory=lambda: [False, False, False])


ANSWERS = {GUT: GUT3, HOLD: ACCEPT3, RAISE: RAISE3}


def answer_pending(deal: Deal3, players) -> None:
    """Every waiting bet is answered by the players whose turn it is (an answer without an example of
    a Gleich/Hanger is gut). Strafperlaggen: a failed acceptance costs its level, so accepting from v to
    v+1 pays only when d > 0 (not -v/(v+1), §11.5): the policy answers on d - v/(v+1)."""
    while (figure := deal.pending()) is not None:
        fig = deal.figures[figure]
        seat = fig.queue[0]
        me = players[seat]
        if figure != SP and deal.code(seat, figure) < 0:
            kind = GUT3
        else:
            can_raise = (fig.value == 2 and deal.limit_error(seat, 2) is None
                         and deal.hopeless_error(seat, figure) is None)
            value = fig.value - 1
            d = estimate(deal, seat, figure, me.tables) - (value / (value + 1) if deal.straf else 0.0)
            kind = ANSWERS[me.policy.response(d, value, can_raise and me.policy.max_value >= 3)]
        deal.answer(seat, figure, kind)


def try_bets(deal: Deal3, players, seat: int, figures) -> bool:
    """The seat bets (or raises) the first figure its policy wants and may bet; True if it did."""
    me = players[seat]
    for figure in figures:
        fig = deal.figures[figure]
        value = 1 if fig is None else fig.value
        if deal.bet_error(seat, figure) or value + 1 > me.policy.max_value:
            continue
        if figure != SP and deal.code(seat, figure) < 0:
            continue
        if me.policy.wants_bet(estimate(deal, seat, figure, me.tables), value, me.bluffs[figure]):
            deal.bet(seat, figure)
            me.bluffs[figure] = False
            answer_pending(deal, players)
            return True
    return False


@lru_cache(maxsize=8)
def blind_prior(style: str, players: int = PLAYERS) -> tuple[float, float, float]:
    """(G, H, Sp) d a player expects before seeing his cards: the mean of `estimate` at the start of
    BLIND_DEALS deals over all seats (fixed table seed); about -P(someone wins the figure)/3 by symmetry
    at three players, about 0 at two (the finish)."""
    rng = block_substream(TABLE_SEED, 0, 5)
    tables, total = three_tables(style, players), np.zeros(3)
    for _ in range(BLIND_DEALS):
        hands, trump = draw_deal(rng, style, players=players)
        deal = Deal3(hands, trump, 0, (STRAF_START,) * players, target=99, style=style)
        total += [sum(estimate(deal, seat, f, tables) for seat in range(players)) for f in (G, H, SP)]
    return tuple(float(x) for x in total / (BLIND_DEALS * players))


def answer_hoell_auf(deal: Deal3, players) -> None:
    """The player on 1 answers "Höll auf!" (§9.5) before the cards are dealt (A-32), by his policy's
    plain §11.5 rule on `blind_prior`: accept iff d > -1/2 + hold_margin (DEFAULT: not the Strafperlaggen
    shift of `answer_pending`, since a player on 1 who wins any figure finishes). An accepted Gleich or
    Hanger carries the example duty; between two, the table's d of a hand without an example is about
    -1, so the prior already counts such hands as lost."""
    bettor = deal.hoell_auf_bettor()
    if bettor is None:
        return
    prior = blind_prior(deal.style, deal.players)
    seat = 1 - bettor
    while (figure := deal.pending()) is not None:
        kind = players[seat].policy.response(prior[figure], 1, False)
        deal.answer(seat, figure, ANSWERS[kind])


def blind_bets(deal: Deal3, players) -> None:
    """Strafperlaggen (§9.5): each player clockwise from the forehand bets blind every figure whose
    `blind_prior` clears his bet margin by BLIND_MARGIN; then the blind bets are answered."""
    if not deal.straf:
        return
    prior = blind_prior(deal.style, deal.players)
    for k in range(deal.players):
        seat = (deal.dealer + 1 + k) % deal.players
        policy = players[seat].policy
        for figure in (G, H, SP):
            if (deal.blind_error(seat, figure) is None and policy.max_value >= 2
                    and prior[figure] > policy.bet_margin + BLIND_MARGIN):
                deal.bet_blind(seat, figure)
    answer_pending(deal, players)


def betting_window(deal: Deal3, players) -> None:
    """Players polled clockwise from the one to move until all pass in a row."""
    passes, seat = 0, deal.to_move
    while passes < deal.players and deal.phase == PLAY:
        passes = 0 if try_bets(deal, players, seat, (G, H, SP)) else passes + 1
        seat = (seat + 1) % deal.players


def play_deal(deal: Deal3, players) -> Result3:
    """Play a deal to its end with the players' policies (Strafperlaggen: "Höll auf!" answered, then
    blind bets first)."""
    answer_hoell_auf(deal, players)
    blind_bets(deal, players)
    while deal.phase == PLAY:
        if not deal.trick:
            betting_window(deal, players)
            if deal.phase != PLAY:
                break
        play_card(deal)
    while deal.phase == SHOW:
        seat = deal.show_turns[0]
        while try_bets(deal, players, seat, (G, H)):
            pass
        if deal.phase == SHOW:
            deal.show(seat)
    return deal.result


# --- whole games ------------------------------------------------------------------------------------
@dataclass
class Game3:
    """A whole game: scores (3,), deal results, dealers, the winner; with the Strafperlaggen finish
    (`play_finish`): places (seats 1st, 2nd, 3rd), the counts after the finish, the finish's deal
    results (points of seats (winner's left, winner's right)) and real dealers (seats)."""

    target: int
    scores: list = field(default_factory=lambda: [0, 0, 0])
    deals: list = field(default_factory=list)
    dealers: list = field(default_factory=list)
    winner: int | None = None
    places: list | None = None
    finish_scores: list | None = None
    finish_deals: list = field(default_factory=list)
    finish_dealers: list = field(default_factory=list)


def deal_from(policies, tables, deal_rng, bluff_rng, dealer: int, scores, target: int, style: str,
              no_hopeless_spiel_bet: bool = False) -> Result3:
    """One deal dealt by ``dealer`` at ``scores`` and played out by ``policies`` (cards from ``deal_rng``, bluff draws
    from ``bluff_rng``; ``tables``: `three_tables` of ``style``)."""
    hands, trump = draw_deal(deal_rng, style, dealer)
    players = _deal_players(policies, tables, bluff_rng)
    return play_deal(Deal3(hands, trump, dealer, scores, target, style, no_hopeless_spiel_bet), players)


def _deal_players(policies, tables, bluff_rng) -> list[Player]:
    """The players of one deal with their bluff draws (one (G, H, Sp) row of uniforms per player)."""
    draws = bluff_rng.random((len(policies), 3))
    return [Player(policy, tables, [bool(u < policy.bluff) for u in row]) for policy, row in zip(policies, draws)]


def endless(what: str, deals: int, before, after, straf: bool, policies) -> CardsimError:
    """The error of a game (or finish) its policies never end: ``what`` did not happen in ``deals`` deals,
    the scores went from ``before`` to ``after``. Strafperlaggen counts rise when the players accept bets
    they expect to lose (failed acceptances add more than won figures count off)."""
    names = sorted({repr(p.name) for p in policies})
    names = f"policies {' and '.join(names)}" if len(names) > 1 else f"policy {names[0]}"
    scores = f"{', '.join(map(str, before))} to {', '.join(map(str, after))}"
    if straf and all(a > b for a, b in zip(after, before)):
        why = (f"the counts rose from {scores}: failed acceptances add more than won figures count off; raise "
               "hold_margin in the policy file, 0 or above accepts only bets it expects to win")
    else:
        why = (f"the scores went from {scores}: these policies never finish a game; pick other policies or change "
               "the margins of a policy file")
    return CardsimError(f"{what} in {deals} deals with the {names} ({why})")


def play_game(policies, deal_rng, bluff_rng, target: int = 18, style: str = "innsbruck",
              places: bool = False, no_hopeless_spiel_bet: bool = False, scores=None,
              dealer: int | None = None) -> Game3:
    """policies[p] plays seat p; the first dealer is drawn and the deal passes clockwise; the game ends
    when a player reaches the target (§8.12 order within the deal). Strafperlaggen (style "straf"):
    ``target`` is the count every player starts on (§9.5: 9) and the first to reach 0 wins; ``places``:
    the other two then play on for places 2 and 3 (`play_finish`); ``no_hopeless_spiel_bet``: `Deal3`'s.
    A game begun mid-way: ``scores`` (one per seat, each below the target; Strafperlaggen: each count above 0)
    and the seat ``dealer`` to deal first (not drawn)."""
    if not isinstance(policies, (list, tuple)) or len(policies) != PLAYERS \
            or not all(isinstance(policy, Policy) for policy in policies):
        raise CardsimError(f"policies must be {PLAYERS} Policy objects, one per seat (simcore.betting.load_policy "
                           f"gives one by name), got {checks.shown(policies)}")
    for policy in policies:
        betting.answers_by_margins(policy, "three-player Perlaggen")
    for name, rng in (("deal_rng", deal_rng), ("bluff_rng", bluff_rng)):
        if not isinstance(rng, np.random.Generator):
            raise CardsimError(f"{name} must be a numpy Generator (np.random.default_rng(seed)), got "
                               f"{checks.shown(rng)}")
    if isinstance(target, float) and target.is_integer():
        target = int(target)
    betting.check_target(target)
    places, no_hopeless_spiel_bet = checks.flag(places, "places"), checks.flag(no_hopeless_spiel_bet,
                                                                              "no_hopeless_spiel_bet")
    if places and style != STRAF:
        raise CardsimError("the finish for places 2 and 3 is a Strafperlaggen rule (§9.5): use it with --straf")
    tables = three_tables(style)
    game = Game3(target, [target] * PLAYERS if style == STRAF else [0] * PLAYERS)
    if scores is not None:
        game.scores = list(checks.wholes(scores, "scores", PLAYERS, None, None))
        if not all(s > 0 if style == STRAF else s < target for s in game.scores):
            need = "count above 0" if style == STRAF else f"score below the target {target}"
            raise CardsimError(f"a game begun mid-way needs every {need}, got {checks.shown(scores)}")
    start = list(game.scores)
    dealer = int(deal_rng.integers(PLAYERS)) if dealer is None else checks.whole(dealer, "dealer", 0, PLAYERS - 1)
    while game.winner is None:
        if len(game.deals) >= betting.deal_cap(target):
            raise endless("Strafperlaggen: nobody reached 0" if style == STRAF else f"nobody reached {target}",
                          len(game.deals), start, game.scores, style == STRAF, policies)
        result = deal_from(policies, tables, deal_rng, bluff_rng, dealer, game.scores, target, style,
                           no_hopeless_spiel_bet)
        game.scores = [s + d for s, d in zip(game.scores, result.points)]
        game.deals.append(result)
        game.dealers.append(dealer)
        game.winner = result.game_winner
        dealer = (dealer + 1) % PLAYERS
    if places:
        play_finish(game, policies, deal_rng, bluff_rng, dealer, no_hopeless_spiel_bet)
    return game


# --- the Strafperlaggen finish for places 2 and 3 (§9.5) --------------------------------------------
def finish_deal(rng: np.random.Generator, dealer: int | None) -> tuple[list[tuple[int, ...]], int, int]:
    """A deal of the two-player finish between seats 0 and 1 of the finish (0: the winner's left, 1: his
    right): (hands, trump, the seat to pass to `Deal3` as dealer: his opponent leads).

    ``dealer`` 0 or 1 deals as in the two-player game (A-27: the other one cuts, gets the first packet and
    leads; only the dealer exchanges). ``dealer`` None: the winner of the game deals the first hand
    (§9.5): the player on his right (1) cuts, the player on his left (0) gets the first packet, leads and
    takes over the dealer's right to exchange. That deal is drawn as the two-player deal dealt by 0 (so
    0 exchanges and 1 cuts) with 0 leading: the shuffle is uniform and 3-T-4 gives both players 3 cards
    before the trump either way, so only the packet order differs and the hands, trump and exchange
    are distributed as in the real procedure."""
    if dealer is None:
        hands, trump = draw_deal(rng, STRAF, 0, FINISH_PLAYERS)
        return hands, trump, 1
    hands, trump = draw_deal(rng, STRAF, dealer, FINISH_PLAYERS)
    return hands, trump, dealer


def play_finish(game: Game3, policies, deal_rng, bluff_rng, next_dealer: int,
                no_hopeless_spiel_bet: bool = False) -> None:
    """Strafperlaggen (§9.5): after ``game.winner`` has won, the other two play on from their counts
    (game.finish_scores; game.scores stays the game's end) for places 2 and 3, the same rules between two
    ("Höll auf!" when exactly one is on 1, `Deal3`); the
    deal alternates between them. ``next_dealer`` (a seat 0..2) deals the first hand; if he is the
    winner, he deals it as `finish_deal` says and the deal then passes to his left (DEFAULT: clockwise
    as before). Sets game.places (seats 1st, 2nd, 3rd); a player who reached 0 in the game's last deal
    after the winner (the §9.5 order) is 2nd without a finish."""
    winner = game.winner
    reached = game.deals[-1].reached
    seats = [(winner + 1) % PLAYERS, (winner + 2) % PLAYERS]
    game.finish_scores = list(game.scores)
    if len(reached) > 1:
        second = reached[1]
        game.places = [winner, second, next(p for p in seats if p != second)]
        return
    tables = three_tables(STRAF, FINISH_PLAYERS)
    mine = [policies[p] for p in seats]
    dealer = None if next_dealer == winner else seats.index(next_dealer)
    while game.places is None:
        if len(game.finish_deals) >= betting.deal_cap(game.target):
            raise endless("Strafperlaggen: nobody reached 0 in the finish for places 2 and 3", len(game.finish_deals),
                          [game.scores[p] for p in seats], [game.finish_scores[p] for p in seats], True, mine)
        hands, trump, deal_dealer = finish_deal(deal_rng, dealer)
        scores = [game.finish_scores[p] for p in seats]
        result = play_deal(Deal3(hands, trump, deal_dealer, scores, 0, STRAF, no_hopeless_spiel_bet),
                           _deal_players(mine, tables, bluff_rng))
        for k, p in enumerate(seats):
            game.finish_scores[p] += result.points[k]
        game.finish_deals.append(result)
        game.finish_dealers.append(winner if dealer is None else seats[dealer])
        if result.game_winner is not None:
            second = seats[result.game_winner]
            game.places = [winner, second, next(p for p in seats if p != second)]
        dealer = 0 if dealer is None else 1 - dealer


class Match3Job:
    """Runner job: whole 3-player games, policy a in one seat against two b players. Unit = one game;
    games 3k, 3k+1, 3k+2 of a block share their deals (and bluff draws) with a in seat 0, 1, 2.

    Strafperlaggen: points are counted off (the start minus the final count). Counts: [games, games a
    won, deals, a points, b points (both b players), sum over games of a
    points², b points², deals², a points x deals, b points x deals] (the layout of
    `simcore.betting.MatchJob`'s first ten counts), then with ``places`` (the Strafperlaggen finish,
    `play_finish`): [games a came 2nd, games a came 3rd, deals of the finish] (zeros without), and last
    the sums over deal sequences (the 3 games sharing deals) of (games a won)², (came 2nd)², (came 3rd)²."""

    block_size = 15
    n_counts = 16

    def __init__(self, a: Policy, b: Policy, target: int, style: str, places: bool = False,
                 no_hopeless_spiel_bet: bool = False):
        if style not in STYLES + (STRAF,):
            raise CardsimError(f"the 3-player game uses the wild cards of {', '.join(STYLES)} or is {STRAF}, "
                               f"not {style!r}")
        if places and style != STRAF:
            raise CardsimError("the finish for places 2 and 3 is a Strafperlaggen rule (§9.5): use it with --straf")
        if no_hopeless_spiel_bet and style != STRAF:
            raise CardsimError("straf_no_hopeless_spiel_bet is a Strafperlaggen rule (§9.5): use it with --straf")
        betting.check_target(target)
        self.a, self.b, self.target, self.style, self.places = a, b, target, style, places
        self.no_hopeless_spiel_bet = no_hopeless_spiel_bet

    def key(self) -> str:
        return (f"perlaggen3|match|{self.a!r}|{self.b!r}|{self.target}|{self.style}"
                + ("|places" if self.places else "") + ("|no_hopeless_spiel_bet" if self.no_hopeless_spiel_bet else ""))

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        counts = np.zeros(self.n_counts, dtype=np.int64)
        sequence = np.zeros(3, dtype=np.int64)
        for j in range(n_games):
            triple, seat = divmod(j, PLAYERS)
            policies = [self.a if p == seat else self.b for p in range(PLAYERS)]
            game = play_game(policies, block_substream(seed, block, 2 * triple + 1),
                             block_substream(seed, block, 2 * triple + 2), self.target, self.style, self.places,
                             self.no_hopeless_spiel_bet)
            gained = [self.target - s for s in game.scores] if self.style == STRAF else game.scores
            pa = gained[seat]
            pb = sum(gained) - pa
            deals = len(game.deals)
            place = game.places.index(seat) if game.places else 0
            outcome = np.array([game.winner == seat, place == 1, place == 2], dtype=np.int64)
            counts[:13] += [1, outcome[0], deals, pa, pb, pa * pa, pb * pb, deals * deals, pa * deals, pb * deals,
                            outcome[1], outcome[2], len(game.finish_deals)]
            sequence = sequence + outcome if seat else outcome
            if seat == PLAYERS - 1 or j == n_games - 1:
                counts[13:] += sequence * sequence
        return counts
