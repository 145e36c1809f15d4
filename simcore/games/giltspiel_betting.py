"""Giltspiel betting: the rules engine of `simcore.betting` on the Giltspiel pack, figure estimates,
whole games between two policies and the match job behind ``cardsim match giltspiel``.

Rules: shared/rules/giltspiel.md §7 (betting, showing, scoring), §10.6 (thresholds). Cards are
played by the spec's §10.5 greedy policy at every seat; the betting policies act in the §7.5
windows before every card and in the showing (`simcore.betting.play_deal`).

Communication models (§7.14, `simcore.betting.COMMUNICATION`): ``partner`` (full partner information:
a player knows both his team's hands' figure classes and trumps, partners signalling openly), ``none``
(a player knows only his own hand) or ``auer_channel`` (his own hand plus Auer's signals: the partner's
trumps, whether he has a Gleich, whether he has a Hanger); the opponents' cards are unknown until played
or shown. Estimates are tables per model, computed once from a fixed seed (and kept in the cardsim table
cache):

* `figure_table`: P(win / stand / lose / void | the best Gleich or Hanger code known: the team's, under
  ``none`` the player's own, under ``auer_channel`` the player's own and the partner's has-figure
  signal), uniform deals;
* `spiel_table`: P(team wins the Spiel | tricks won by it and by the opponents, trumps in the known
  hands: Auer signals the partner's) under greedy play from every trick boundary.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache

import numpy as np

from simcore import betting
from simcore.betting import G, H, BettingRules, Deal, GameRecord, Policy
from simcore.dealing import deal as deal_cards
from simcore.errors import CardsimError
from simcore.figures import hand_codes
from simcore.registry import chosen_options
from simcore.games.giltspiel import (DECK, GAME, N_RANKS, N_SUITS, PERLIQUE, RUN_TABLE, SEATS, TOP_BIT, TURNUP, Known,
                                     gleich_name, hand_figures, hanger_name, mask_codes)
from simcore.games.giltspiel_play import SUITS, trusted_choose, trusted_play_line
from simcore.rng import BLOCK_DEALS, block_substream, block_words
from simcore.tricks import FOLLOW_OR_TRUMP, legal_mask, trick_winner

TABLE_SEED = 20240531
"""Seed of the estimate tables (fixed: every process computes the same tables)."""
TABLE_BLOCKS = 4
SPIEL_DEALS = 20_000
players = SEATS
"""Seats at the table (the kit attribute `simcore.betting.play_game` reads)."""
CODE_BINS = 33
"""Index code + 1 of a Gleich (-1..23) or Hanger (-1..31) code."""


def default_target() -> int:
    """The target of a game when none is given: the ``target`` option's default."""
    return next(o.default for o in GAME.options if o.name == "target")


RULE_OPTIONS = ("strict_examples", "fifth_trick_bet", "void_policy", "speech_order", "spiel_aus_held", "stop_on_target")
"""The game's options the betting engine reads (the target is a keyword of its own)."""


def rules_from_options(target: int | None = None, **options) -> BettingRules:
    """BettingRules from the game's registered options (defaults) and overrides; CardsimError for an unknown option,
    a value outside its choices (`simcore.registry.chosen_options`) or an option the betting game does not read
    given another value than its default (e.g. perlique, whose wild cards it does not play)."""
    values = chosen_options(GAME.name, GAME.options, options)
    defaults = {o.name: o.default for o in GAME.options}
    unread = [name for name in options if name not in RULE_OPTIONS and values[name] != defaults[name]]
    if unread:
        raise CardsimError(f"option {unread[0]} does not change the Giltspiel betting game, which reads "
                           f"{', '.join(RULE_OPTIONS)} (communication and target are keywords of their own); drop it")
    return BettingRules(target=default_target() if target is None else target,
                        strict_examples=values["strict_examples"], fifth_trick_bet=values["fifth_trick_bet"],
                        void_to_second_shower=values["void_policy"] == "second_shower_scores",
                        speech_order=values["speech_order"], spiel_aus_held=values["spiel_aus_held"],
                        stop_on_target=values["stop_on_target"])


# --- the pack for the engine --------------------------------------------------------------------
class GiltspielCards:
    """`simcore.betting.GameAdapter` of the 32-card German pack (Giltspiel §4-§6, §7.12)."""

    def codes(self, cards, baptised=None) -> tuple[int, int]:
        return _codes(DECK.mask(cards))

    def legal(self, hand, trick: list[tuple[int, int]], trump: int) -> set[tuple[int, int]]:
        led = trick[0][0] // N_RANKS if trick else -1
        mask = int(legal_mask(np.uint64(DECK.mask(hand)), led, trump, SUITS, FOLLOW_OR_TRUMP))
        return {(c, c) for c in hand if (mask >> c) & 1}

    def trick_winner(self, trick: list[tuple[int, int]], leader: int, trump: int) -> int:
        return int(trick_winner(np.array([c for c, _ in trick], dtype=np.int64), leader, trump, N_RANKS))

    def fifth_card_ok(self, card: int, led: int, trump: int) -> bool:
        return card // N_RANKS in (led // N_RANKS, trump)

    def both_gestrichen_winner(self, hands, baptised=None) -> int | None:
        """§7.12: the best >= 3-card figure wins (more cards first, then Gleich over Hanger); a best
        >= 3-card Hanger held by both teams drops out; None: play the cards."""
        codes = [self.codes(h) for h in hands]
        keys = []
        for team in (0, 1):
            g = max(codes[team][G], codes[team + 2][G])
            h = max(codes[team][H], codes[team + 2][H])
            keys.append((g, h))
        best_h = max(keys[0][1], keys[1][1])
        tied_h = keys[0][1] == keys[1][1]
        candidates = []
        for team, (g, h) in enumerate(keys):
            if g >= N_RANKS:
                candidates.append((g // N_RANKS + 2, 1, g, team))
            if h >= N_RANKS and h == best_h and not tied_h:
                candidates.append((h // N_RANKS + 2, 0, h, team))
        return max(candidates)[3] if candidates else None

    def example_cards(self, cards, figure: int, baptised=None) -> tuple[list[int], dict]:
        """The cards of the best example of ``figure`` (G or H) among ``cards`` ([] if none), no baptisms."""
        code = self.codes(cards)[figure]
        if code < 0:
            return [], {}
        size, rank = divmod(code, N_RANKS)
        if figure == G:
            return sorted(c for c in cards if c % N_RANKS == rank), {}
        for suit in range(N_SUITS):
            run = [suit * N_RANKS + r for r in range(rank - size - 1, rank + 1)]
            if set(run) <= set(cards):
                return run, {}
        raise AssertionError("a Hanger code without its run")

    def choose_card(self, deal: Deal, seat: int) -> tuple[int, int]:
        """The §10.5 greedy policy's play (card, card)."""
        trick = np.zeros(SEATS, dtype=np.int64)
        trick[:len(deal.trick)] = [c for c, _ in deal.trick]
        card = int(trusted_choose("greedy", [DECK.mask(deal.in_hand[seat])], trick[None, :], [len(deal.trick)],
                                  [deal.trump])[0])
        return card, card


@lru_cache(maxsize=1 << 16)
def _codes(mask: int) -> tuple[int, int]:
    return hand_figures(DECK.cards_of(mask))


CARDS = GiltspielCards()


def cards(trump: int) -> GiltspielCards:
    """The engine's view of the pack (the same for every trump)."""
    return CARDS


def new_deal(hands, trump: int, dealer: int = 0, scores=(0, 0), rules: BettingRules | None = None) -> Deal:
    """A `Deal` of Giltspiel; hands: four sequences of five cards (0-31); CardsimError for arguments that are no
    such deal (`betting.deal_arguments`)."""
    betting.check_rules(rules)
    rules = rules or rules_from_options()
    return Deal(CARDS, rules, *betting.deal_arguments(hands, trump, dealer, scores, rules.target, DECK.n_cards))


# --- estimates ------------------------------------------------------------------------------------
@lru_cache(maxsize=6)
def figure_counts(communication: str = "partner", perlique: bool = False) -> np.ndarray:
    """(2, CODE_BINS, 4) int64 (Auer: (2, 2 * CODE_BINS, 4)): deals by the known best code + 1 and the
    team's outcome (`betting.figure_counts`) over `TABLE_BLOCKS` blocks of uniform deals; ``perlique``: the codes
    with the turn-up suit's Perlique wild (§8; the betting game itself plays natural cards, these tables weigh the
    bets seen of `analysis.games.giltspiel.odds`)."""
    return betting.disk_cached(f"giltspiel-figures-{communication}-{TABLE_BLOCKS}-seed{TABLE_SEED}"
                               + ("-perlique" if perlique else ""), lambda: _figure_counts(communication, perlique))


@lru_cache(maxsize=3)
def spiel_table(communication: str = "partner") -> np.ndarray:
    """(3, 3, 9) P(team wins the Spiel | tricks, opponents' tricks, trumps in the known hands), greedy play."""
    communication = betting.spiel_model(communication)
    return betting.disk_cached(f"giltspiel-spiel-{communication}-{SPIEL_DEALS}-seed{TABLE_SEED}",
                               lambda: betting.spiel_table(_spiel_games(communication)))


def _figure_counts(communication: str, perlique: bool = False) -> np.ndarray:
    spec = Known().deal_spec()
    slots = np.concatenate([deal_cards(spec, block_words(TABLE_SEED, b, BLOCK_DEALS, spec.words_per_deal))
                            for b in range(TABLE_BLOCKS)])
    if perlique:
        codes = np.empty((slots.shape[0], SEATS, 2), dtype=np.int64)
        for suit in range(N_SUITS):
            rows = np.flatnonzero(slots[:, TURNUP] & np.uint64(((1 << N_RANKS) - 1) << (suit * N_RANKS)))
            for seat in range(SEATS):
                codes[rows, seat] = mask_codes(np.ascontiguousarray(slots[rows, seat]), PERLIQUE[suit], TOP_BIT,
                                               RUN_TABLE)
    else:
        codes = hand_codes(np.ascontiguousarray(slots[:, :SEATS]), N_SUITS, N_RANKS, RUN_TABLE).astype(np.int64)
    return betting.figure_counts(codes, CODE_BINS, communication)


def figure_table(communication: str = "partner", perlique: bool = False) -> np.ndarray:
    """(2, CODE_BINS, 4) float: P(win, stand, lose, void | the known best code + 1) for G and H (``perlique``: with
    the Perlique wild, `figure_counts`)."""
    return betting.outcome_rates(figure_counts(communication, perlique))


def class_shares(communication: str = "partner") -> np.ndarray:
    """(2, CODE_BINS) float: how often the known best G / H code + 1 is each class."""
    return betting.class_shares(figure_counts(communication))


def class_name(figure: int, code: int) -> str:
    return (gleich_name if figure == G else hanger_name)(code)


def _trump_power(hand, trump: int) -> int:
    return sum(c // N_RANKS == trump for c in hand)


def _spiel_games(communication: str):
    """(trick winners, known trumps (2,) of team 0 and team 1 before every trick) of `SPIEL_DEALS` greedy
    play-outs; under ``none`` every play-out is given twice, with the trumps of seats 0, 1 and of 2, 3."""
    views = [((0, 2), (1, 3))] if communication == "partner" else [((0,), (1,)), ((2,), (3,))]
    rng = block_substream(TABLE_SEED, 0, 1)
    for _ in range(SPIEL_DEALS):
        hands, trump = draw_deal(rng)
        line = trusted_play_line("greedy", np.array([DECK.mask(h) for h in hands], dtype=np.uint64), trump)
        left = [list(h) for h in hands]
        winners, power = [], {view: [] for view in views}
        for start in range(0, len(line), SEATS):
            for view in views:
                power[view].append([_trump_power([c for s in seats for c in left[s]], trump) for seats in view])
            trick = line[start:start + SEATS]
            for seat, card in trick:
                left[seat].remove(card)
            winners.append(CARDS.trick_winner([(c, c) for _, c in trick], trick[0][0], trump))
        for view in views:
            yield winners, power[view]


def _power(deal: Deal, seats) -> int:
    return _trump_power([c for s in seats for c in deal.in_hand[s]], deal.trump)


def make_estimator(communication: str = "partner") -> betting.TableEstimator:
    """The Giltspiel estimates under a communication model (see the module doc); a policy that reads the opponents'
    bets reads them in `facing_table`."""
    betting.check_communication(communication)
    return betting.TableEstimator(figure_table(communication), spiel_table(communication), _power, communication,
                                  facing=facing_table)


# --- reading the opponents' bets ------------------------------------------------------------------
READS_BETS = True
"""Policies may read the opponents' bets here (`simcore.betting.Policy.reads`, `facing_table`)."""
FACING_VALUES = tuple(range(1, betting.MAX_SEEN_VALUE))
"""The values v of the bets from v to v + 1 that the bets-seen model weighs."""
FACING_TABLE_DEALS = 2_000_000
"""Deals behind each reading table (`facing_table`)."""
READ_HOWS = ("after_hold", betting.RAISE)
"""`facing_table`'s first axis: how the opponents' bet came (`simcore.betting.BET_HOWS`)."""


def facing_categories(policy: Policy, communication: str, how: str | None = None) -> np.ndarray:
    """(len(FACING_VALUES), 2, bins, bins) int8: the opponents' category of each figure for their bet from each value
    of `FACING_VALUES`, coming ``how`` (`simcore.betting.chain_categories` on `figure_table`)."""
    table = figure_table(communication)
    return np.stack([betting.chain_categories(table, policy, communication, "bet", v, how) for v in FACING_VALUES])


@lru_cache(maxsize=9)
def facing_table(reads: str, communication: str = "partner") -> np.ndarray:
    """(len(READ_HOWS), len(FACING_VALUES), 2, bins) float (Auer: 2 * bins): d = P(win) - P(lose) of G and H for the
    class a team answers by under ``communication`` (indexed as `make_estimator`'s) facing the opponents' bet from
    each value, by how it came (`READ_HOWS`), when they play the preset ``reads`` (`facing_d` of `FACING_TABLE_DEALS`
    deals from the tables' seed; kept in the cardsim table cache). NaN where no deal met the bet."""
    policy = betting.PRESETS[reads]
    key = hashlib.sha1(repr(policy).encode()).hexdigest()[:12]
    return betting.disk_cached(f"giltspiel-facing-{reads}-{key}-{communication}-{FACING_TABLE_DEALS}-seed{TABLE_SEED}"
                               "-by-how", lambda: facing_d(policy, communication, FACING_TABLE_DEALS, TABLE_SEED,
                                                           READ_HOWS))


def facing_d(policy: Policy, communication: str, n: int, seed: int, hows=(None,)) -> np.ndarray:
    """(len(hows), len(FACING_VALUES), 2, bins) float: `facing_table` of ``n`` uniform deals from ``seed``
    (`simcore.games.giltspiel.FacingJob`, one pass) against ``policy``, for the opponents' bets coming each way of
    ``hows`` (`simcore.betting.BET_HOWS`): each class's d with every deal weighed by the chance that the opponents made
    the bet (`simcore.betting.seen_likelihood`); NaN where no deal met it."""
    from simcore import runner
    from simcore.games.giltspiel import FACING_VIEWS, FacingJob, facing_view

    job = FacingJob(np.concatenate([facing_categories(policy, communication, how) for how in hows]))
    counts = runner.run(job, n, seed, progress=False, checkpoint=False).reshape(job.shape)
    view = FACING_VIEWS.index(facing_view(communication))
    classes = 2 * CODE_BINS if communication == betting.AUER else CODE_BINS
    cells = counts[:, :, view, :classes].astype(float)  # (history, figure, class, category, outcome)
    weights = betting.seen_likelihood("bet", policy.bluff)
    met = np.einsum("hfcko,k->hfc", cells, weights)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.einsum("hfck,k->hfc", cells[..., 0] - cells[..., 2], weights) / met
    return np.where(met > 0, d, np.nan).reshape((len(hows), len(FACING_VALUES)) + d.shape[1:])


def kit():
    """The game kit of `simcore.betting.MatchJob`: this module (Giltspiel has no variants)."""
    return sys.modules[__name__]


# --- whole games ----------------------------------------------------------------------------------
def draw_deal(rng: np.random.Generator, dealer: int = 0) -> tuple[list[tuple[int, ...]], int]:
    """A uniform deal: four hands of five cards (seats 0-3) and the trump suit (the turn-up's); the
    dealer's seat changes nothing in a uniform deal."""
    perm = rng.permutation(DECK.n_cards)
    return [tuple(int(c) for c in perm[5 * s:5 * s + 5]) for s in range(SEATS)], int(perm[20]) // N_RANKS


def play_game(policies: tuple[Policy, Policy], deal_rng: np.random.Generator, bluff_rng: np.random.Generator,
              rules: BettingRules, estimator=None) -> GameRecord:
    """A whole Giltspiel game (`simcore.betting.play_game`)."""
    return betting.play_game(sys.modules[__name__], policies, deal_rng, bluff_rng, rules, estimator or make_estimator())


def match_job(a: Policy, b: Policy, rules: BettingRules, communication: str = "partner") -> betting.MatchJob:
    """The runner job of a Giltspiel match between policies a and b (`simcore.betting.MatchJob`)."""
    return betting.MatchJob(__name__, a, b, rules, communication)


def paired_job(policy: Policy, rules: BettingRules, scores, arms, communication: str = "partner"
               ) -> betting.PairedDealJob:
    """The runner job of one deal played under several ``arms`` at ``scores``, each played out to the end of the
    game by ``policy`` (`simcore.betting.PairedDealJob`)."""
    return betting.PairedDealJob(__name__, policy, rules, scores, arms, communication)


def class_job(policy: Policy, rules: BettingRules, communication: str = "partner") -> betting.LimitClassJob:
    """The runner job of single deals near the end of the game, per pair of limit classes, ``policy`` on both
    sides (`simcore.betting.LimitClassJob`)."""
    return betting.LimitClassJob(__name__, policy, rules, communication)
