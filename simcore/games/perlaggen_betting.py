"""Perlaggen betting (two teams: 4 players, or 2 / 6, every team style): the rules engine of
`simcore.betting` with the Perlaggen rules of perlaggen.md §8-§9.3, the wild cards (baptism), figure
estimates and whole games.

Differences from Giltspiel, all `BettingRules` flags or adapter methods here:

* §8.2 / A-16: during trick play at most one unanswered bet at a time;
* §8.9: a team failing the example duty gets -2 **and scores nothing in the deal**; the opponents
  score the failed figure once if they hold an example (A-37);
* A-11: an unbet Gleich/Hanger conceded scores only if the receiving team holds an example;
* §8.5: a Perlagg as the fifth card always qualifies for the fifth-trick Spiel bet;
* §8.13: both gestrichen: the best >= 3-card figure wins (Innsbruck: more cards, then Gleich over
  Hanger, then the higher one; equal -> play), Eichel: >= 4 cards and length only (A-26); Schlanders
  (an Eichel club) as Eichel, Deutschnofen as Innsbruck (DEFAULT here: §9.6 is silent);
* §8.14: blind bets (``Deal(..., blind=[(seat, figure), ...])``), no example duty, no penalty.

Cards are `simcore.games.perlaggen` ints (the Weli is 32). Figure codes are the spec's (§5.2, §6.2)
with "none" as -1. A wild card shown in the showing or played to a trick carries its baptism
(``deal.baptised[seat]``); figures are evaluated with the remaining Perlaggen free (level L0).
Trick play uses `simcore.games.perlaggen_play` (legal plays with baptism, the trick winner, the greedy
G1 policy of §11.7). The target is 18 (South Tyrol; the spec's range 11-24).

Styles and tables: `StyleKit` (``kit(style, players, hand)``) holds a style's deals, estimate tables
(per communication model, `simcore.betting.COMMUNICATION`: the team's hands or the player's own) and
estimator; the module-level functions are the four-player Innsbruck kit's. Two players (§9.2): 7 cards,
the Spiel needs 4 tricks, each "team" is one player; six players (§9.3): teams of three on alternate
seats, 4 cards (the Spiel needs 3; 2-2 is "das Spiel ist hin") or 5; deals from `perlaggen_variants`.
The fifth-trick Spiel bet becomes "each team one trick short, a card led to the last trick" (DEFAULT).
A player committed to a Gleich or Hanger baptises a Perlagg he plays as his example needs, if legal.

Three players (§9.4) and Strafperlaggen (§9.5): `ThreeFigure` is the answering protocol of one figure
(gut / accept / free ride / raise to 3), its ordinary points (`ThreeFigure.plain_points`) and its
Strafperlaggen settlement (`ThreeFigure.straf_changes`), also for the two-player Strafperlaggen finish;
whole 3-player deals and games are `simcore.games.perlaggen_three`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simcore import betting, checks
from simcore.betting import G, H, BettingRules, Deal, GameRecord, Policy
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as PD
from simcore.games import perlaggen_play as PP
from simcore.games import perlaggen_variants as PV
from simcore.registry import chosen_options
from simcore.rng import block_substream

SEATS = 4
DEFAULT_TARGET = next(o.default for o in P.OPTIONS if o.name == "target")
"""The registered ``target`` option's default (§8.10)."""
TABLE_SEED = 20240531
TABLE_DEALS = 1 << 17
SPIEL_DEALS = 1500
CODE_BINS = 16 * 10 + 1
"""Index code + 1 of a Gleich or Hanger code (-1 none, else 16 * size + strength < 16 * 10: at most 9
cards in a figure, `perlaggen.figure_codes`)."""

RULE_OPTIONS = ("concede_needs_example", "one_pending_in_play", "fifth_trick_bet")
"""The game's options (`P.OPTIONS`) that are `BettingRules` fields of the same name."""


def default_target(style: str | None = None, **_variant) -> int:
    """The target of a game of ``style`` when none is given: the style's usual one (`perlaggen.STYLE_TARGETS`), else
    the ``target`` option's default (§8.10)."""
    return P.STYLE_TARGETS.get(style, DEFAULT_TARGET)


def rules_from_options(target: int | None = None, strict_examples: bool = True, **options) -> BettingRules:
    """The Perlaggen betting rules (§8): target 18 unless given (a style's usual target: `default_target`);
    ``options``: `RULE_OPTIONS` over their defaults."""
    values = chosen_options("Perlaggen betting", tuple(o for o in P.OPTIONS if o.name in RULE_OPTIONS), options)
    return BettingRules(target=DEFAULT_TARGET if target is None else target,
                        strict_examples=checks.flag(strict_examples, "strict_examples"), penalty_voids_deal=True,
                        blind_bets=True, **values)


class PerlaggenCards:
    """`simcore.betting.GameAdapter` of the 33-card pack for one style and trump suit (an int)."""

    def __init__(self, style: str, trump: int, six_below_bells_seven: bool = True):
        self.style, self.trump_suit, self.six_below = style, trump, six_below_bells_seven
        self.letter = P.DECK.suits[trump]
        self.wild = P.perlaggen(style, self.letter)

    def codes(self, cards, baptised=None) -> tuple[int, int]:
        fixed = tuple(sorted((baptised or {}).items()))
        return _codes(self.style, self.letter, P.DECK.mask(cards), fixed, self.six_below)

    def legal(self, hand, trick, trump: int) -> set[tuple[int, int]]:
        if len(hand) <= 5:
            return PP.trusted_legal_plays(P.DECK.mask(hand), trick, trump, self.style)
        return legal_plays_long(hand, trick, trump, self.style)

    def trick_winner(self, trick, leader: int, trump: int) -> int:
        """Seat winning a complete trick of len(trick) plays (one per player)."""
        if len(trick) == PP.SEATS:
            return PP.trusted_trick_winner_of(trick, leader, trump, self.style)
        keys = trick_keys(trick, trump, self.style)
        return (leader + keys.index(max(keys))) % len(trick)

    def fifth_card_ok(self, card: int, led: int, trump: int) -> bool:
        return card in self.wild or PP.id_suit(card) in (PP.id_suit(led), trump)  # the Weli is a bell (§1)

    def both_gestrichen_winner(self, hands, baptised=None) -> int | None:
        """§8.13: the best figure of at least 3 cards (Eichel 4) wins the game; equal -> None (play)
        (`perlaggen_deal._gestrichen` on the hands' L0 codes, a Perlagg already baptised in the deal counting as
        its identity, B3)."""
        baptised = baptised or [{}] * len(hands)
        codes = np.array([self.codes(hand, fixed) for hand, fixed in zip(hands, baptised)], dtype=np.int64).clip(0)
        winner = PD._gestrichen(codes[:, 0], codes[:, 1], len(hands), *PD.gestrichen_args(self.style))
        return None if winner < 0 else int(winner)

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
        """The §11.7 G1 greedy play (with six players on `greedy_view` of the trick: G1 is written for
        four, its "partner holds the trick" is then any partner). A player who bet, held or raised a
        Gleich or Hanger baptises a Perlagg he plays as the card his best example needs, when that is a
        legal play, so that he can still show an example (§8.9)."""
        trick = deal.trick if deal.players <= PP.SEATS else greedy_view(deal.trick, deal.trump, self.style)
        card, identity = PP.trusted_choose("greedy", P.DECK.mask(deal.in_hand[seat]), trick, deal.trump,
                                           style=self.style)
        if card in self.wild:
            for figure in (G, H):
                if seat in deal.figures[figure].duty:
                    _, needed = self.example_cards(deal.hands[seat], figure, deal.baptised[seat])
                    keep = (card, needed.get(card, identity))
                    if keep[1] != identity and keep in self.legal(deal.in_hand[seat], deal.trick, deal.trump):
                        return keep
        return card, identity


def legal_plays_long(hand, trick, trump: int, style: str) -> set[tuple[int, int]]:
    """`perlaggen_play.legal_plays` for hands of more than five cards (its kernel's move buffer holds
    five): the same rule (`perlaggen_play.legal_naturals`), the plays listed in Python."""
    pmasks, _ = PP.PlayRules(style).arrays()
    led = int(PP.id_suit(trick[0][1])) if trick else -1
    naturals, ok = PP.legal_naturals(np.uint64(P.DECK.mask(hand)), pmasks[trump], led, trump)
    plays = {(c, c) for c in hand if (int(naturals) >> c) & 1}
    for card in (c for c in hand if (int(pmasks[trump]) >> c) & 1):
        plays |= {(card, b) for b in range(PP.N_IDS) if (int(ok) >> int(PP.id_suit(b))) & 1}
    return plays


def trick_keys(trick, trump: int, style: str) -> list[int]:
    """The §2.5 trick keys (`perlaggen_play.play_key`) of (card, identity) plays; the highest holds the trick."""
    _, precs = PP.PlayRules(style).arrays()
    led = int(PP.id_suit(trick[0][1]))
    return [int(PP.play_key(identity, precs[trump][card], led, trump)) for card, identity in trick]


def greedy_view(trick, trump: int, style: str) -> list:
    """At most three plays of a six-player trick that G1 reads as it reads the whole trick: the card led
    first, then the play holding the trick, such that "the player two before the mover holds it" (G1's
    partner test) is true exactly when a partner of the mover (an even number of plays before him) does."""
    if not trick:
        return []
    keys = trick_keys(trick, trump, style)
    best = keys.index(max(keys))
    partner = (len(trick) - best) % 2 == 0
    others = [play for i, play in enumerate(trick) if i not in (0, best)]
    if best == 0:
        return [trick[0], trick[1]] if partner else [trick[0]]
    return [trick[0], trick[best]] + (others[:1] if partner else [])


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
def _codes(style: str, letter: str, mask: int, fixed: tuple, six_below: bool = True) -> tuple[int, int]:
    """(Gleich, Hanger) codes of a hand with the Perlaggen of ``fixed`` baptised (-1: none); ``six_below``: the
    option six_below_bells_seven (A-24), which tells only for a Weli fixed as itself (A-06: played unbaptised)."""
    wild = P.perlaggen(style, letter)
    row = np.full((1, len(wild)), -1, dtype=np.int8)
    for card, identity in fixed:
        if card in wild and (mask >> card) & 1:
            row[0, wild.index(card)] = identity
    g, h = P.figure_codes(np.array([mask], dtype=np.uint64), style, letter, row, six_below)[0]
    return int(g) if g else -1, int(h) if h else -1


@lru_cache(maxsize=16)
def cards_for(style: str, trump: int, six_below_bells_seven: bool = True) -> PerlaggenCards:
    return PerlaggenCards(style, trump, six_below_bells_seven)


STYLE = "innsbruck"
"""The default style (the registered ``style`` option's default)."""


def new_deal(hands, trump: int, dealer: int = 0, scores=(0, 0), rules: BettingRules | None = None,
             style: str = STYLE, blind=()) -> Deal:
    """A `Deal` of Perlaggen; hands: four sequences of five cards (0-32, 32 the Weli where the style has it); trump:
    suit index (E L H S = 0..3); CardsimError for arguments that are no such deal (`betting.deal_arguments`)."""
    betting.check_rules(rules)
    rules = rules or rules_from_options()
    hands, trump, dealer, scores = betting.deal_arguments(hands, trump, dealer, scores, rules.target,
                                                          P.DECK.n_cards if P.has_weli(style) else P.WELI)
    if P.DECK.suits[trump] not in P.trump_suits(style):
        raise CardsimError(f"trump {P.DECK.suits[trump]} is not possible in the {style} style")
    return Deal(cards_for(style, trump), rules, hands, trump, dealer, scores, blind)


def _team_power(deal_cards, trump: int, wild) -> int:
    return sum(c in wild or c // 8 == trump for c in deal_cards)


def _power(deal: Deal, seats) -> int:
    return _team_power([c for s in seats for c in deal.in_hand[s]], deal.trump, deal.game.wild)


class StyleKit:
    """The betting kit of one style and table (`simcore.betting.play_game`, `MatchJob`): the deal as
    played, the engine's view of the pack, estimate tables and the estimator.

    players: 4, or 2 (§9.2: 7 cards, the Spiel needs 4 tricks) or 6 (§9.3: two teams of three on
    alternate seats, 4 or 5 cards); hand: cards each (None: the table's default, `perlaggen_variants`).
    """

    def __init__(self, style: str, players: int = SEATS, hand: int | None = None, six_below_bells_seven: bool = True):
        if style not in PD.FOUR_PLAYER_STYLES:
            raise CardsimError(f"betting plays the team styles {', '.join(PD.FOUR_PLAYER_STYLES)} (Strafperlaggen is "
                               f"the three-player game), not {style!r}")
        if players not in TEAM_TABLES:
            raise CardsimError(f"betting plays Perlaggen with {' or '.join(map(str, TEAM_TABLES))} players (the "
                               f"three-player game is each for himself and not built), got {players}")
        self.style, self.players, self.six_below = style, players, six_below_bells_seven
        if players == SEATS:
            if hand not in (None, 5):
                raise CardsimError(f"four players hold 5 cards (§3), got {hand}")
            self.hand, self.deal_rules = 5, PD.DealRules(style=style)
        else:
            self.deal_rules = PV.TableRules(players=players, style=style, hand_size=hand)
            self.hand = self.deal_rules.hand_size
        self.name = f"{style}-{players}x{self.hand}" + ("" if six_below_bells_seven else "-six_apart")

    def deal_rows(self, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hands (n, players) uint64 masks, seat 0 = the dealer; trumps (n,) int64) of the deals of
        ``words`` as played; deals thrown in (A-28) are left out."""
        if self.players == SEATS:
            rows = PD.deal_block(words, self.deal_rules)
            return rows[:, PD.SEAT0:PD.SEAT0 + SEATS], rows[:, PD.TRUMP].astype(np.int64)
        rows = PV.table_block(words, self.deal_rules)
        rows = rows[rows[:, PV.THROWN] == 0]
        return rows[:, :self.players], rows[:, PV.TRUMP].astype(np.int64)

    def cards(self, trump: int) -> PerlaggenCards:
        """The engine's view of the pack for this deal's trump."""
        return cards_for(self.style, trump, self.six_below)

    def draw_deal(self, rng: np.random.Generator, dealer: int = 0) -> tuple[list[tuple[int, ...]], int]:
        """A deal as played (§3 / §9.2-§9.3: cut, deal, turn-up, exchanges) with ``dealer`` dealing: the
        hands (engine seats) and the trump suit; a deal thrown in is dealt again (A-28)."""
        return draw_from(self.deal_rows, rng, dealer, self.players)

    def figure_counts(self, communication: str = "partner") -> np.ndarray:
        """(2, CODE_BINS, 4) int64: deals by the known best code + 1 and the team's outcome, deals as played."""
        return _figure_counts(self, communication)

    def figure_table(self, communication: str = "partner") -> np.ndarray:
        return betting.outcome_rates(self.figure_counts(communication))

    def class_shares(self, communication: str = "partner") -> np.ndarray:
        return betting.class_shares(self.figure_counts(communication))

    def spiel_table(self, communication: str = "partner") -> np.ndarray:
        """(3, 3, 9) P(team wins the Spiel | tricks, opponents' tricks, trumps and Perlaggen known), G1 play."""
        return _spiel_table(self, communication)

    def make_estimator(self, communication: str = "partner") -> betting.TableEstimator:
        """Perlaggen estimates under a communication model (``partner``: A-30's shared information)."""
        betting.check_communication(communication)
        return betting.TableEstimator(self.figure_table(communication), self.spiel_table(communication), _power,
                                      communication)

    def class_name(self, figure: int, code: int) -> str:
        return class_name(figure, code)


def draw_from(deal_rows, rng: np.random.Generator, dealer: int, players: int) -> tuple[list[tuple[int, ...]], int]:
    """One deal of ``deal_rows`` (words -> (masks (n, players), trumps (n,)), thrown-in deals left out) from
    ``rng``, dealt again until not thrown in (A-28): the hands by seat with ``dealer`` at row seat 0, and the
    trump suit."""
    while True:
        words = rng.integers(0, 1 << 32, size=(1, PD.WORDS_PER_DEAL), dtype=np.uint64).astype(np.uint32)
        masks, trumps = deal_rows(words)
        if len(masks):
            break
    hands = [()] * players
    for i in range(players):
        hands[(dealer + i) % players] = tuple(P.DECK.cards_of(int(masks[0, i])))
    return hands, int(trumps[0])


def best_codes(masks: np.ndarray, trumps: np.ndarray, style: str) -> np.ndarray:
    """codes (n, players, 2) int64 of the best Gleich/Hanger of every hand (-1: none); masks (n, players)
    uint64, trumps (n,)."""
    codes = np.empty(masks.shape + (2,), dtype=np.int64)
    for trump in np.unique(trumps):
        chosen = trumps == trump
        for seat in range(masks.shape[1]):
            found = P.figure_codes(masks[chosen, seat], style, P.DECK.suits[trump]).astype(np.int64)
            codes[chosen, seat] = np.where(found > 0, found, -1)
    return codes


TEAM_TABLES = (2, 4, 6)
"""Players at a table of two teams (§9.2, §9.3)."""


@lru_cache(maxsize=16)
def kit(style: str = STYLE, players: int = SEATS, hand: int | None = None,
        six_below_bells_seven: bool = True) -> StyleKit:
    """The `StyleKit` of a style and table (and the A-24 option six_below_bells_seven)."""
    return StyleKit(style, players, hand, six_below_bells_seven)


@lru_cache(maxsize=16)
def _figure_counts(styled: StyleKit, communication: str) -> np.ndarray:
    def compute() -> np.ndarray:
        rng = block_substream(TABLE_SEED, 0, 1)
        words = rng.integers(0, 1 << 32, size=(TABLE_DEALS, PD.WORDS_PER_DEAL), dtype=np.uint64).astype(np.uint32)
        masks, trumps = styled.deal_rows(words)
        return betting.figure_counts(best_codes(masks, trumps, styled.style), CODE_BINS, communication)

    return betting.disk_cached(f"perlaggen-{_table_name(styled)}-figures-{communication}-{TABLE_DEALS}"
                               f"-seed{TABLE_SEED}",
                               compute)


def _table_name(styled: StyleKit) -> str:
    """Cache name part of a kit's tables (the four-player names are those of earlier versions)."""
    return styled.style if styled.players == SEATS and styled.six_below else styled.name


@lru_cache(maxsize=16)
def _spiel_table(styled: StyleKit, communication: str) -> np.ndarray:
    communication = betting.spiel_model(communication)
    need = styled.hand // 2 + 1
    return betting.disk_cached(f"perlaggen-{_table_name(styled)}-spiel-{communication}-{SPIEL_DEALS}-seed{TABLE_SEED}",
                               lambda: betting.spiel_table(_spiel_games(styled, communication), need))


def _spiel_games(styled: StyleKit, communication: str):
    """(trick winners, known trumps and Perlaggen (2,) of team 0 and 1 before every trick) of G1 play-outs;
    under ``none`` every play-out is given once per pair of neighbouring seats (0, 1), (2, 3), ..."""
    players = styled.players
    if communication == "partner":
        views = [(tuple(range(0, players, 2)), tuple(range(1, players, 2)))]
    else:
        views = [((s,), (s + 1,)) for s in range(0, players, 2)]
    rng = block_substream(TABLE_SEED, 0, 2)
    for _ in range(SPIEL_DEALS):
        hands, trump = styled.draw_deal(rng)
        wild = styled.cards(trump).wild
        line = _greedy_line(styled, hands, trump)
        left = [list(h) for h in hands]
        winners, power = [], {view: [] for view in views}
        for start in range(0, len(line), players):
            for view in views:
                power[view].append([_team_power([c for s in seats for c in left[s]], trump, wild) for seats in view])
            trick = line[start:start + players]
            for seat, card, _ in trick:
                left[seat].remove(card)
            winners.append(styled.cards(trump).trick_winner([(c, b) for _, c, b in trick], trick[0][0], trump))
        for view in views:
            yield winners, power[view]


def _greedy_line(styled: StyleKit, hands, trump: int) -> list[tuple[int, int, int]]:
    """(seat, card, identity) of a G1 play-out to the Spiel, seat 1 leading (dealer 0)."""
    if styled.players == SEATS:
        return PP.play_line("greedy", np.array([P.DECK.mask(h) for h in hands], dtype=np.uint64), trump,
                            style=styled.style)
    return greedy_play(styled.cards(trump), hands, trump)[0]


def greedy_play(adapter: PerlaggenCards, hands, trump: int) -> tuple[list[tuple[int, int, int]], int | None]:
    """A G1 play-out of a deal of two teams (seat % 2) to the Spiel, no bets, seat 1 leading (dealer 0): the
    (seat, card, identity) line and the team that took the Spiel (None: "das Spiel ist hin", §9.3)."""
    deal = Deal(adapter, BettingRules(target=99), hands, trump)
    line = []
    while deal.phase == "play":
        seat = deal.to_move
        card, identity = adapter.choose_card(deal, seat)
        deal.play(seat, card, identity)
        line.append((seat, card, identity))
    return line, deal.spiel_winner if deal.spiel_winner in (0, 1) else None


def class_name(figure: int, code: int) -> str:
    return (P.gleich_name if figure == G else P.hanger_name)(code)


# The Innsbruck kit as module functions (the tests and the analysis use them).
def cards(trump: int) -> PerlaggenCards:
    return kit().cards(trump)


def draw_deal(rng: np.random.Generator, dealer: int = 0):
    return kit().draw_deal(rng, dealer)


def figure_table(communication: str = "partner") -> np.ndarray:
    return kit().figure_table(communication)


def class_shares(communication: str = "partner") -> np.ndarray:
    return kit().class_shares(communication)


def make_estimator(communication: str = "partner") -> betting.TableEstimator:
    return kit().make_estimator(communication)


def play_game(policies: tuple[Policy, Policy], deal_rng, bluff_rng, rules: BettingRules, estimator=None,
              style: str = STYLE, players: int = SEATS, hand: int | None = None) -> GameRecord:
    """A whole Perlaggen game of a style and table (`simcore.betting.play_game`)."""
    styled = kit(style, players, hand)
    return betting.play_game(styled, policies, deal_rng, bluff_rng, rules, estimator or styled.make_estimator())


def match_job(a: Policy, b: Policy, rules: BettingRules, communication: str = "partner", style: str = STYLE,
              players: int = SEATS, hand: int | None = None, six_below_bells_seven: bool = True) -> betting.MatchJob:
    """The runner job of a Perlaggen match between policies a and b."""
    return betting.MatchJob(__name__, a, b, rules, communication, _variant(style, players, hand, six_below_bells_seven))


def paired_job(policy: Policy, rules: BettingRules, scores, arms, communication: str = "partner", style: str = STYLE,
               players: int = SEATS, hand: int | None = None, six_below_bells_seven: bool = True
               ) -> betting.PairedDealJob:
    """The runner job of one deal played under several ``arms`` (blind bets, team A's policy) at ``scores``, each
    played out to the end of the game by ``policy`` (`simcore.betting.PairedDealJob`)."""
    return betting.PairedDealJob(__name__, policy, rules, scores, arms, communication,
                                 _variant(style, players, hand, six_below_bells_seven))


def class_job(policy: Policy, rules: BettingRules, communication: str = "partner", style: str = STYLE,
              players: int = SEATS, hand: int | None = None, six_below_bells_seven: bool = True
              ) -> betting.LimitClassJob:
    """The runner job of single deals near the end of the game, per pair of limit classes, ``policy`` on both
    sides (`simcore.betting.LimitClassJob`)."""
    return betting.LimitClassJob(__name__, policy, rules, communication,
                                 _variant(style, players, hand, six_below_bells_seven))


def _variant(style: str, players: int, hand: int | None, six_below_bells_seven: bool) -> tuple:
    """The keywords of `kit` a runner job passes on, as pairs; CardsimError for a style or table that is not played
    in teams."""
    styled = kit(style, players, hand)
    variant = ((("style", style),) if players == SEATS
               else (("style", style), ("players", players), ("hand", styled.hand)))
    return variant + (() if six_below_bells_seven else (("six_below_bells_seven", False),))


# --- three players, each for himself (§9.4) and Strafperlaggen settlements (§9.5) -----------------
GUT3, ACCEPT3, RAISE3 = "gut", "accept", "raise"


class ThreeFigure:
    """One figure bet in the 3-player game (§9.4): players 0, 1, 2 clockwise, ``bettor`` bets 2. The
    number of players is len(scores); with two (the Strafperlaggen finish for places 2 and 3, §9.5,
    "same rules") the one opponent answers gut / accept / raise to 3 and may raise to 3 later after
    accepting; the bettor never raises (A-29) and nobody rides free (DEFAULT: the 3-player protocol
    with the third player absent).

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
        self.players = len(self.scores)
        self.value = 2
        self.level = [0] * self.players
        self.level[bettor] = 2
        self.out: set[int] = set()  # players who said gut (cannot win the figure)
        self.free: set[int] = set()
        self.queue = self._others(bettor)  # who answers next, in order
        self.raiser: int | None = None
        self.penalised: set[int] = set()

    @property
    def settled_bet(self) -> bool:
        return not self.queue

    def eligible(self) -> set[int]:
        """Players who may still win the figure."""
        return set(range(self.players)) - self.out

    def _others(self, player: int) -> list[int]:
        """The other players clockwise from ``player``'s left."""
        return [(player + k) % self.players for k in range(1, self.players)]

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
        self.queue = [p for p in self._others(player) if p not in self.out]

    def straf_changes(self, winner: int | None, spiel: bool = False) -> list[int]:
        """Strafperlaggen point changes (subtracting is good) once the figure is decided.

        winner: the player who wins it by the cards (best Gleich/Hanger, or 4 tricks), or None (it
        stands, or nobody took 4 tricks); a winner who is out of the figure cannot win it.
        """
        changes = [0] * self.players
        if self.eligible() == {self.bettor} and self.raiser is None:
            changes[self.bettor] -= 1  # everyone conceded the original bet
            return self._void_penalised(changes)
        if self.raiser is not None and self.eligible() == {self.raiser}:
            changes[self.raiser] -= 2
            for p in range(self.players):
                if p != self.raiser:
                    changes[p] += self.level[p]
            return self._void_penalised(changes)
        if winner is not None and winner in self.eligible():
            changes[winner] -= self.value
            for p in range(self.players):
                if p != winner:
                    changes[p] += self.level[p]
        elif winner is None and not spiel:
            pass  # a Gleich or Hanger that stands
        else:
            for p in range(self.players):
                changes[p] += self.level[p]
        return self._void_penalised(changes)

    def plain_points(self, winner: int | None) -> list[int]:
        """Points each player scores from this figure in the ordinary 3-player game (§9.4, T-26; counting
        up): everyone conceded the bet -> the bettor 1; everyone still in conceded the raise -> the raiser
        2; else the winner by the cards (best example among the players still in, or 4 tricks; None: it
        stands, or nobody took 4 tricks) scores the value (2, or 3 after an accepted raise). A player who
        fails the example duty scores nothing in the deal and loses 2 (§9.4): the caller applies that."""
        points = [0] * self.players
        if self.eligible() == {self.bettor} and self.raiser is None:
            points[self.bettor] = 1
        elif self.raiser is not None and self.eligible() == {self.raiser}:
            points[self.raiser] = 2
        elif winner is not None and winner in self.eligible():
            points[winner] = self.value
        return points

    def _void_penalised(self, changes: list[int]) -> list[int]:
        for p in self.penalised:
            changes[p] = 2
        return changes
