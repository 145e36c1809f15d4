"""Dreeg hands played out: the trick engine of every sub-game and its scoring into erase counts.

Rules: shared/rules/dreeg.md §3. `play_hand(subgame, phase, perm, policies, opts)` deals a shuffled
pack ``perm`` (24 cards, top first) to ``len(policies)`` active players (positions 0 .. n-1 from
forehand clockwise, the dealer's packets last) and plays it:

* ``"66"``: individual 66 with 3-4 players (§3.1.1), the 2-player duel with talon, drawing,
  closing, trump-9 exchange and going out (§3.1.2);
* ``"RA"``: Rot Assen, the heart-ace holder alone (§3.2.1) or the duel without trump until the
  heart ace is announced, with the talon flip (§3.2.2);
* ``"RU"``: Rufen, FH calls a card (§3.3.1), or names the trump in the duel (§3.3.2);
* ``"KA"``: Kamerun, no trump, must head, lead restriction and Durchmarsch (§3.4);
* the optional sub-games of §3.5: ``"KN"`` Kamerun bei Nacht (every card played blind, at
  random, without obligations; scored as Kamerun), ``"SM"`` Schweige-Maß (66; a player who speaks
  ends the hand and loses the phase) and ``"WL"`` Weglöscher (the 2-player 66 of two players
  dealt to by a third; the bystanders' erasing is `dreeg_rules.wegloescher_erase`).

Announcements (20/40) follow §3.0.4 and the between-trick steps of §3.0.9. Decisions are the
policies' (`simcore.games.dreeg_policies`): each is asked only when a choice exists, and the engine
checks every answer, so a policy cannot make an illegal move (CardsimError if it tries). The one
breach a policy may commit is keeping a heart ace unannounced in 2-player Rot Assen (§3.2.2): the
engine detects it as §5 A13 says (talon flipped or closed, or the ace played, while it is hidden in
a hand) and ends the hand with the §3.0.10 penalty. Chance that is no player's choice (blind cards,
speaking, miscounts under ``information = counting_errors``, §5 A24) reads the ``chance``
Generator handed to `play_hand`.

The result is a `HandResult`: erase counts per position and what happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r

CLOSE_MIN_TALON = 4
"""A player may close only while the talon holds at least 4 cards (§3.0.8)."""
GO_OUT_MIN_TRICKS = 2
"""Going out needs at least 2 tricks still to play (§3.0.7, §5 A20)."""


@dataclass
class HandResult:
    """Outcome of one hand: ``erase`` per position; the rest describes what happened.

    kind: "played" (all tricks), "out" (a side went out), "surrender" (Rot Assen), "durchmarsch"
    (declared; ``declarer_won`` tells success), "penalty" (a hidden heart ace detected; ``offender``),
    "spoke" (Schweige-Maß: ``speaker`` spoke and loses the phase; no one erases); points: per position its
    side's total (card points and marriages as §3.0.5; Kamerun: card points); scores: two-sided hands only
    (66 is their target), per position its side's points as compared with 66 and 33 (`Play.side_score`);
    card_points, tricks: per position; sides: side per position; out_side, closer: -1 when none; trump: -1 none.
    """

    erase: list[int]
    kind: str
    points: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)
    trump: int = -1
    out_side: int = -1
    closer: int = -1
    declarer: int = -1
    declarer_won: bool = False
    marriages: list[tuple[int, int]] = field(default_factory=list)
    card_points: list[int] = field(default_factory=list)
    offender: int = -1
    speaker: int = -1


def play_flags(opts: dict) -> int:
    """The STRICT play flags (`dreeg_rules.NO_UNDERTRUMP`, `HEAD_TRUMPED_LEAD`) that rule options ``opts`` set
    (§5 A3, A4)."""
    return (r.NO_UNDERTRUMP if opts.get("no_undertrump_duty") else 0) | \
        (r.HEAD_TRUMPED_LEAD if opts.get("trumped_lead_follow") == "must_head" else 0)


def legal_play(hand: int, trick: list[int], trump: int, mode: int, flags: int, called: int = -1,
               last_led: int = -1) -> int:
    """Legal cards (int mask) of ``hand`` to ``trick``: the duties of ``mode`` (`dreeg_rules.legal_cards`), Rufen's
    first trick while ``called`` (the called card) is not -1 (§3.3.1: its holder plays it, leading or not, L12;
    forehand leads a trump) and, leading, Kamerun's rule while ``last_led`` (the suit led to the last trick) is not
    negative (§3.4.2: not that suit while the hand holds another)."""
    if called >= 0 and (hand >> called) & 1:
        return r.bit(called)
    if trick:
        return r.legal_cards(hand, trick, trump, mode, flags)
    if called >= 0:
        return hand & r.SUIT_MASKS[trump]
    if last_led >= 0 and hand & ~r.SUIT_MASKS[last_led]:
        return hand & ~r.SUIT_MASKS[last_led]
    return hand


class Play:
    """The state of one hand in play; policies read it (their own hand and public facts only).

    hands, took: card masks per position; tricks: tricks won per position; marriages: (position,
    value) announced; sides: side per position (individual games: the position itself); trump:
    suit or -1; talon: cards top first (2 players) or None; trick: cards of the trick in play, led
    by ``leader``; gone: every card played to a finished trick; voids: suits (bits) each position
    has shown it lacks; shown: cards (mask) each position is publicly known to hold (the turned trump
    card, an announced marriage or heart ace, a face-up card drawn or taken from the talon); talon_shown:
    talon cards known to everyone (the 66 indicator, the bottom card after a Rot Assen unflip).
    """

    def __init__(self, subgame: str, phase: int, hands: list[int], policies, opts: dict, talon=None, chance=None):
        self.subgame, self.phase, self.opts, self.chance = subgame, phase, opts, chance
        self.n = len(hands)
        self.hands = list(hands)
        self.policies = list(policies)
        self.talon = talon
        self.trump = -1
        self.sides = list(range(self.n))
        self.two_sided = r.two_sided(subgame, self.n)
        self.took = [0] * self.n
        self.tricks = [0] * self.n
        self.marriages: list[tuple[int, int]] = []
        self.gone = 0
        self.trick: list[int] = []
        self.leader = 0
        self.last_winner = -1
        self.last_led = -1
        self.closer = -1
        self.close_cv = 0
        self.close_status = -1
        self.out_side = -1
        self.declarer = -1
        self.called = -1
        self.exchange_allowed = False
        self.heart_ace_pending = False
        self.flipped = False
        self.surrendered = -1
        self.offender = -1
        self.miscount = 0
        self.voids = [0] * self.n
        self.shown = [0] * self.n
        self.talon_shown = 0
        self.flags = play_flags(opts)
        self.strict_always = self.n > 2 or subgame == "KA"
        self.mode_strict = r.FOLLOW if subgame == "KA" and phase == 5 and opts.get("kamerun5_no_head") else r.STRICT

    # --- public facts --------------------------------------------------------------------------
    @property
    def talon_open(self) -> bool:
        return self.talon is not None and self.closer < 0 and len(self.talon) > 0

    @property
    def mode(self) -> int:
        if self.subgame == "KN":
            return r.FREE  # Kamerun bei Nacht: no lead or follow obligations (§3.5)
        return r.FREE if not self.strict_always and self.talon_open else self.mode_strict

    @property
    def ended(self) -> bool:
        """The hand ended outside the trick loop: a surrender or a detected hidden heart ace."""
        return self.surrendered >= 0 or self.offender >= 0

    @property
    def tricks_left(self) -> int:
        """Tricks still to play between two tricks, counting the cards an open talon still deals."""
        return r.bit_count(self.hands[self.leader]) + (len(self.talon) // 2 if self.talon_open else 0)

    def members(self, side: int) -> list[int]:
        return [i for i in range(self.n) if self.sides[i] == side]

    def side_tricks(self, side: int) -> int:
        return sum(t for t, s in zip(self.tricks, self.sides) if s == side)

    def side_cards(self, side: int) -> int:
        return sum(r.points_of(took) for took, s in zip(self.took, self.sides) if s == side)

    def side_total(self, side: int) -> int:
        """§3.0.5: card points plus marriages; 0 while the side has no trick (§3.0.4, §5 A5)."""
        if self.side_tricks(side) == 0:
            return 0
        return self.side_cards(side) + sum(v for p, v in self.marriages if self.sides[p] == side)

    def side_score(self, side: int) -> int:
        """Points compared with 66 and 33: `side_total`, or card points only when option
        ``thresholds_include_marriages`` is off."""
        if self.opts.get("thresholds_include_marriages", True):
            return self.side_total(side)
        return self.side_cards(side)

    def counted_score(self, side: int) -> int:
        """`side_score` as the player deciding to go out counts it: off by ``miscount`` points
        under the counting-error model (§5 A24), else exact."""
        return self.side_score(side) + self.miscount
    # --- decisions -----------------------------------------------------------------------------
    def _ask(self, pos: int, name: str, *args):
        return getattr(self.policies[pos], name)(self, pos, *args)

    def _choose_card(self, pos: int, legal: int) -> int:
        if self.subgame == "KN":  # the player cannot see his own cards: a blind pick (§3.5)
            cards = r.cards_of(legal)
            return cards[int(self.chance.random() * len(cards))]
        card = self._ask(pos, "card", legal)
        if not 0 <= card < 24 or not (legal >> card) & 1:
            raise CardsimError(f"policy played {card}, not one of the legal cards "
                               f"{r.DECK.format_cards(r.cards_of(legal))}")
        return card

    def _yes(self, pos: int, name: str, *args) -> bool:
        return bool(self._ask(pos, name, *args))

    # --- legal leads and follows ---------------------------------------------------------------
    def lead_mask(self, pos: int) -> int:
        """Cards ``pos`` may lead: Rufen trick 1 (§3.3.1) and the Kamerun lead restriction (§3.4.2)."""
        exempt = pos == self.declarer and not self.opts.get("durchmarsch_lead_restriction")
        return legal_play(self.hands[pos], [], self.trump, self.mode, self.flags, self._first_call(),
                          -1 if self.subgame != "KA" or exempt else self.last_led)

    def follow_mask(self, pos: int) -> int:
        return legal_play(self.hands[pos], self.trick, self.trump, self.mode, self.flags, self._first_call())

    def _first_call(self) -> int:
        """The called card while Rufen's first trick is in play, else -1."""
        return self.called if self.gone == 0 else -1

    # --- announcements and going out (§3.0.4, §3.0.7) -------------------------------------------
    def _announce(self, pos: int, lead: int) -> int:
        """Window for 20/40 before ``pos`` leads; returns the leads still allowed."""
        if self.subgame in ("KA", "KN"):
            return lead
        suits = [s for s in r.marriage_suits(self.hands[pos]) if lead & r.marriage_cards(s)]
        if not suits:
            return lead
        suit = self._ask(pos, "announce", suits)
        if suit is None or suit < 0:
            return lead
        if suit not in suits:
            raise CardsimError(f"illegal announcement: no announceable marriage in {r.DECK.suits[suit]}")
        self.marriages.append((pos, r.marriage_value(suit, self.trump)))
        self.shown[pos] |= r.marriage_cards(suit)
        return lead & r.marriage_cards(suit)

    def _may_go_out(self, side: int) -> bool:
        return self.two_sided and self.tricks_left >= GO_OUT_MIN_TRICKS and self.side_tricks(side) > 0

    def _offer_out(self, pos: int) -> bool:
        side = self.sides[pos]
        if not self._may_go_out(side):
            return False
        self.miscount = self._miscount(side)
        out = self._yes(pos, "go_out")
        self.miscount = 0
        if out:
            self.out_side = side
        return out

    def _miscount(self, side: int) -> int:
        """§3.0.3, §5 A24 counting-error model: with probability ``counting_error_percent`` / 100 the
        player's count of his side's points is off by one taken card (a random card of his side's
        tricks, forgotten or counted twice, each half the time); else 0."""
        if self.opts.get("information") != "counting_errors" or self.chance.random() * 100 >= \
                self.opts["counting_error_percent"]:
            return 0
        taken = r.cards_of(sum(self.took[i] for i in self.members(side)))
        points = r.POINTS[taken[int(self.chance.random() * len(taken))]]
        return points if self.chance.random() < 0.5 else -points

    # --- the trick loop --------------------------------------------------------------------------
    def play(self) -> None:
        """Play tricks until the hand ends (cards exhausted, a side out, Durchmarsch lost)."""
        if self._before_first_lead():
            return
        while True:
            pos = self.leader
            lead = self.lead_mask(pos)
            announced = len(self.marriages)
            allowed = self._announce(pos, lead)
            if len(self.marriages) > announced and self._offer_out(pos):
                return
            self.trick = [self._choose_card(pos, allowed)]
            if self._shows_hidden_ace(pos, self.trick[0]):
                return
            self._take_card(pos, self.trick[0])
            for k in range(1, self.n):
                p = (pos + k) % self.n
                swap = self._follower_swap(p)
                card = self._choose_card(p, self.follow_mask(p) | (r.bit(swap) if swap >= 0 else 0))
                if card == swap:
                    self.hands[p] ^= r.bit(self._trump_nine()) | r.bit(swap)
                    self._swap_indicator(p)
                if self._shows_hidden_ace(p, card):
                    return
                self._note_void(p, card)
                self.trick.append(card)
                self._take_card(p, card)
            winner = (pos + r.winning_slot(self.trick, self.trump)) % self.n
            self._finish_trick(winner)
            if self.declarer >= 0 and winner != self.declarer:
                return
            if self.hands[winner] == 0:
                return
            if self._between_tricks(winner):
                return

    def _shows_hidden_ace(self, pos: int, card: int) -> bool:
        """§5 A13: the heart ace played while unannounced exposes it; the player is the offender."""
        if card == r.HEART_ACE and self.heart_ace_pending:
            self.offender = pos
        return self.offender >= 0

    def _hidden_ace_holder(self) -> int:
        """2-player Rot Assen: the position keeping the heart ace unannounced in his hand, or -1."""
        if not self.heart_ace_pending:
            return -1
        return next((i for i in range(self.n) if (self.hands[i] >> r.HEART_ACE) & 1), -1)

    def _note_void(self, pos: int, card: int) -> None:
        """Public inference under STRICT/FOLLOW play: not following shows a void in the led suit,
        and a plain discard then a void in trumps too (``voids``: suit bits per position)."""
        led, suit = r.card_suit(self.trick[0]), r.card_suit(card)
        if self.mode == r.FREE or suit == led:
            return
        self.voids[pos] |= 1 << led
        if self.mode == r.STRICT and self.trump >= 0 and suit != self.trump:
            self.voids[pos] |= 1 << self.trump

    def _take_card(self, pos: int, card: int) -> None:
        self.hands[pos] &= ~r.bit(card)

    def _finish_trick(self, winner: int) -> None:
        cards = sum(r.bit(c) for c in self.trick)
        self.took[winner] |= cards
        self.tricks[winner] += 1
        self.gone |= cards
        self.last_led = r.card_suit(self.trick[0])
        self.trick = []
        self.leader = self.last_winner = winner

    def _before_first_lead(self) -> bool:
        """FH's heart-ace window and closing B0 (§3.0.9); True when the hand ends (a surrender)."""
        if self.n == 2:
            self._heart_ace_window(self.leader)
            self._offer_close(self.leader)
        return self.ended

    def _between_tricks(self, winner: int) -> bool:
        """§3.0.9 steps 1-6 after a trick (step 7, the announcement, opens the next lead); True
        when the hand ends here."""
        if self._offer_out(winner):
            return True
        if self.subgame == "KA" and self.declarer < 0 and sum(self.tricks) == 1:
            if self._yes(winner, "durchmarsch"):
                self.declarer = winner
        if self.talon is None:
            return False
        self._offer_exchange(winner)
        self._offer_close(winner)
        if self.talon_open and not self.ended:
            self._draw(winner)
            self._draw(1 - winner)
            self._offer_exchange(winner)
            self._after_draw(winner)
            if not self.ended:
                self._offer_close(winner)
        return self.ended

    # --- 2-player talon actions (§3.0.8, §3.1.2, §3.2.2) ---------------------------------------
    def _draw(self, pos: int) -> None:
        """``pos`` draws the top talon card; a card drawn face up or known in the talon becomes known in his hand."""
        card = self.talon.pop(0)
        self.hands[pos] |= r.bit(card)
        if self.flipped or (self.talon_shown >> card) & 1:
            self.shown[pos] |= r.bit(card)
            self.talon_shown &= ~r.bit(card)

    def _offer_close(self, pos: int) -> None:
        if self.talon_open and len(self.talon) >= CLOSE_MIN_TALON and self._yes(pos, "close"):
            self.offender = self._hidden_ace_holder()  # closing exposes a hidden heart ace (§5 A13)
            if self.offender >= 0:
                return
            other = 1 - pos
            pts_k, pts_o = self.side_score(pos), self.side_score(other)
            self.close_cv = r.close_value(pts_k, pts_o, self.tricks[pos], self.tricks[other])
            if self.opts.get("closer_win_status_at_close"):
                self.close_status = r.status(pts_o, self.tricks[other])
            if self.exchange_allowed and self.opts.get("duel66_exchange_on_close"):
                self._offer_exchange(other, on_close=True)
            self.closer = pos

    def _trump_nine(self) -> int:
        return self.trump * r.N_RANKS + r.NINE

    def _offer_exchange(self, pos: int, on_close: bool = False) -> None:
        """Trump-9 exchange (§3.1.2): the leader after winning a trick, while the indicator lies
        under an open talon; ``on_close``: the closer's opponent at closing (§3.5 variant)."""
        if not self.exchange_allowed or not (self.talon_open or on_close) or not self.talon:
            return
        nine, indicator = self._trump_nine(), self.talon[-1]
        if indicator == nine or not (self.hands[pos] >> nine) & 1:
            return
        if self._yes(pos, "exchange"):
            self.hands[pos] ^= r.bit(nine) | r.bit(indicator)
            self._swap_indicator(pos)

    def _swap_indicator(self, pos: int) -> None:
        """The trump 9 of ``pos`` replaces the indicator under the talon, in view of both (§3.1.2, §3.5)."""
        nine, indicator = self._trump_nine(), self.talon[-1]
        self.talon[-1] = nine
        self.shown[pos] = self.shown[pos] & ~r.bit(nine) | r.bit(indicator)
        self.talon_shown = self.talon_shown & ~r.bit(indicator) | r.bit(nine)

    def _follower_swap(self, pos: int) -> int:
        """§3.5 DUEL66_EXCHANGE_BY_FOLLOWER: the indicator, which the second player may take for his
        trump 9 if he plays it at once and it wins the trick; -1 when that is not possible."""
        if not (self.exchange_allowed and self.opts.get("duel66_exchange_by_follower") and self.talon_open):
            return -1
        nine, indicator = self._trump_nine(), self.talon[-1]
        if indicator == nine or not (self.hands[pos] >> nine) & 1:
            return -1
        return indicator if r.winning_slot(self.trick + [indicator], self.trump) == len(self.trick) else -1

    def _heart_ace_window(self, first: int) -> None:
        """2-player Rot Assen (§3.2.2): the heart ace's holder must announce it and name trump; a
        policy may keep it hidden (``heart_ace`` answers False), except when it was drawn face up
        from the flipped talon."""
        if not self.heart_ace_pending:
            return
        for pos in (first, 1 - first):
            if (self.hands[pos] >> r.HEART_ACE) & 1:
                if not self.flipped and not self._yes(pos, "heart_ace"):
                    return
                self.heart_ace_pending = False
                self.shown[pos] |= r.bit(r.HEART_ACE)
                self.trump = choose_trump(self, pos, bool(self.opts.get("duel_rot_assen_surrender")))
                if self.trump < 0:
                    self.surrendered = pos
                return

    def _after_draw(self, winner: int) -> None:
        if self.subgame != "RA":
            return
        self._heart_ace_window(winner)
        if self.flipped and not self.heart_ace_pending:
            self.talon.reverse()  # unflip: the visible top card becomes the bottom (§3.2.2 step 3)
            self.flipped = False
            self.talon_shown |= r.bit(self.talon[-1]) if self.talon else 0
        elif self.heart_ace_pending and sum(self.tricks) == 3 and self.talon_open:
            self.offender = self._hidden_ace_holder()  # the flip exposes a hidden heart ace (§5 A13)
            if self.offender < 0:
                self.talon.reverse()  # flip the remaining 6 cards as a block (step 1)
                self.flipped = True


def choose_trump(play: Play, pos: int, allow_surrender: bool = False) -> int:
    """The heart-ace holder's trump (§3.2, §5 A14): a suit, or -1 to surrender when allowed."""
    suits = [r.HEART] if play.opts.get("rot_assen_trump") == "hearts" else list(range(r.N_SUITS))
    choice = play.policies[pos].ra_trump(play, pos, suits, allow_surrender)
    if choice not in suits and not (allow_surrender and choice == -1):
        raise CardsimError(f"illegal Rot Assen trump {choice}; choose one of {suits}"
                           + (" or -1 to surrender" if allow_surrender else ""))
    return choice


# --- the sub-games -----------------------------------------------------------------------------
def deal_for(subgame: str, perm, n: int, opts: dict) -> tuple[list[int], list[int] | None]:
    """Hands by position and the talon (2 players; else None) of ``subgame`` dealt from ``perm``."""
    if n == 2 and subgame == "66":
        return r.deal_duel66(perm, opts.get("duel66_indicator", "between_packets"))
    if n == 2 and subgame in ("KA", "KN"):
        raise CardsimError("Kamerun is never played with 2 players (spec §2.1)")
    hands, talon = r.deal_hands(perm, n)
    return hands, (talon if n == 2 else None)


def _setup(play: Play, perm) -> HandResult | None:
    """Sub-game specific pre-play (§3.1-§3.4): trump, sides, calls; a result if the hand ends."""
    sub, n = play.subgame, play.n
    if sub == "66":
        if n == 2:
            play.talon_shown = r.bit(play.talon[-1])
        else:
            play.shown[n - 1] = r.bit(int(perm[23]))  # the turned trump card, the dealer's (§3.1.1)
        play.trump = r.card_suit(play.talon[-1] if n == 2 else int(perm[23]))
        play.exchange_allowed = n == 2
    elif sub == "RA":
        if n == 2:
            play.heart_ace_pending = True
            play.sides = [0, 1]
            return None
        holder = next(i for i in range(n) if (play.hands[i] >> r.HEART_ACE) & 1)
        play.shown[holder] = r.bit(r.HEART_ACE)
        play.sides = [0 if i == holder else 1 for i in range(n)]
        trump = choose_trump(play, holder, allow_surrender=True)
        if trump < 0:
            return HandResult([0 if i == holder else 2 for i in range(n)], "surrender", sides=play.sides)
        play.trump = trump
    elif sub == "RU":
        packet = r.first_packet(perm)
        if n == 2:
            play.sides = [0, 1]
            suits = [s for s in range(r.N_SUITS)
                     if not play.opts.get("duel_rufen_suit_in_packet") or packet & r.SUIT_MASKS[s]]
            suit = play.policies[0].name_trump(play, 0, packet, suits)
            if suit not in suits:
                raise CardsimError(f"illegal trump {suit}: FH may name one of the suits {suits} (§3.3.2, §5 A16)")
            play.trump = suit
            return None
        card = play.policies[0].call(play, 0, packet)
        check_call(packet, card)
        play.called, play.trump = card, r.card_suit(card)
        partner = next(i for i in range(n) if (play.hands[i] >> card) & 1)
        play.sides = [0 if i in (0, partner) else 1 for i in range(n)]
    return None


def check_call(packet: int, card: int) -> None:
    """§3.3.1: the called card's suit must be among FH's first 3 cards (L13, L14)."""
    if not 0 <= card < 24:
        raise CardsimError(f"illegal call: {card} is not a card")
    if not packet & r.SUIT_MASKS[r.card_suit(card)]:
        first = r.DECK.format_cards(r.cards_of(packet))
        raise CardsimError(f"illegal call {r.DECK.token(card)}: FH's first 3 cards ({first}) hold no "
                           f"{r.DECK.suit_names[r.card_suit(card)]}")


PLAYED_AS = {"SM": "66", "WL": "66"}
"""The §3.5 sub-games played as the 66 of their number of players."""


def play_hand(subgame: str, phase: int, perm, policies, opts: dict, chance=None) -> HandResult:
    """Deal ``perm`` to ``len(policies)`` players and play one hand of ``subgame`` (§3, §3.5);
    ``chance``: a numpy Generator for the events no player chooses (needed by Kamerun bei Nacht,
    Schweige-Maß and the counting-error model)."""
    n = len(policies)
    if n not in (2, 3, 4):
        raise CardsimError(f"a Dreeg hand has 2, 3 or 4 active players, got {n}")
    if chance is None and (subgame in ("KN", "SM") or opts.get("information") == "counting_errors"):
        raise CardsimError(f"{r.SUBGAME_NAMES.get(subgame, subgame)} with information={opts.get('information')} "
                           "needs a chance Generator (play_hand(..., chance=rng))")
    if subgame == "WL" and n != 2:
        raise CardsimError(f"a Weglöscher hand is played by 2 players, got {n} (spec §3.5)")
    if subgame == "SM":
        who = r.speaker(n, opts.get("schweige_speak_percent", 0), chance)
        if who >= 0:
            return HandResult([0] * n, "spoke", speaker=who)
    subgame = PLAYED_AS.get(subgame, subgame)
    perm = [int(c) for c in perm]
    hands, talon = deal_for(subgame, perm, n, opts)
    play = Play(subgame, phase, hands, policies, opts, talon, chance)
    ended = _setup(play, perm)
    if ended is not None:
        return ended
    play.play()
    return score(play)


def score(play: Play) -> HandResult:
    """Erase counts of a finished hand (§3.0.6-§3.0.8, §3.4.3-§3.4.4)."""
    n = play.n
    if play.surrendered >= 0:
        return HandResult([0 if i == play.surrendered else 2 for i in range(n)], "surrender", sides=list(play.sides))
    if play.offender >= 0:
        erase = r.penalty_erase(n, play.offender, False)
        return HandResult(erase, "penalty", sides=list(play.sides), tricks=list(play.tricks), offender=play.offender)
    totals = [play.side_total(play.sides[i]) for i in range(n)]
    common = dict(tricks=list(play.tricks), sides=list(play.sides), trump=play.trump, marriages=list(play.marriages),
                  card_points=[r.points_of(t) for t in play.took])
    if play.subgame in ("KA", "KN"):
        points = [r.points_of(t) for t in play.took]
        if play.declarer >= 0:
            won = play.tricks[play.declarer] == sum(play.tricks) and play.hands[play.declarer] == 0
            erase = [(0 if i == play.declarer else 3) if won else (3 if i == play.declarer else 0) for i in range(n)]
            return HandResult(erase, "durchmarsch", points, declarer=play.declarer, declarer_won=won, **common)
        erase = r.kamerun_normal(points, play.tricks, play.last_winner, play.opts.get("kamerun_scores_by", "tricks"))
        return HandResult(erase, "played", points, **common)
    if not play.two_sided:
        return HandResult(r.individual_66(totals, play.last_winner), "played", totals, **common)
    scores = [play.side_score(s) for s in (0, 1)]
    tricks = [play.side_tricks(s) for s in (0, 1)]
    last_side = play.sides[play.last_winner]
    if play.closer >= 0:
        side_erase = r.resolve_closed(scores, tricks, play.sides[play.closer], play.out_side, last_side, play.close_cv,
                                      play.close_status, bool(play.opts.get("duel_closer_loss_min2")))
    else:
        side_erase = r.resolve_open(scores, tricks, play.out_side, last_side,
                                    play.opts.get("two_sided_eraser", "winner"))
    if play.subgame == "RA" and play.n > 2 and play.opts.get("ra_solo_win_3") and side_erase[0] > 0:
        side_erase[0] = 3
    erase = [side_erase[play.sides[i]] for i in range(n)]
    return HandResult(erase, "out" if play.out_side >= 0 else "played", totals, [scores[s] for s in play.sides],
                      out_side=play.out_side, closer=play.closer, **common)
