"""Three-player Pinochle from a defender's seat: will I save my meld? (spec §9.1 Q5, R6.1-R6.3).

What a defender knows when play starts (R3.9c-f, R4.7a): his own 15 cards, his seat (on the bidder's
left, who plays second to the bidder's opening lead, or on his right, who plays third), the trump named
(R4.8), the bid, the meld cards the bidder laid down (only the cards that form meld, R3.9c; declared
in full, R3.9d), if he noted them his partner's meld cards (laid down the same way, R3.9f) and the kitty
(turned face up, R4.7a).

Model (`DefendSetup`, `sample_deals`): every deal consistent with that is equally likely and the bidder
discards by a fixed policy (default: `pinochle3_discard`'s best, as `cardsim odds` assumes), so:

1. the bidder's 18 cards after taking the kitty = the kitty (if known) + random unseen cards, holding
   at least the shown cards (face counts); the partner gets the other 15 unseen cards, at least the
   partner's shown cards if given. Drawn exactly: the missing shown copies are placed first, the rest
   is uniform over the unseen cards, and where a face could have come from either of two unseen copies
   the proposal holding both in the one hand is kept with probability 1/2 (the proposal favours it 2:1
   over the uniform deal);
2. the bidder buries 3 of the 18 by the discard policy under the trump named, and the deal is kept
   only if his 15 kept cards hold the shown cards and meld exactly what they meld (nothing more: he
   declared his full meld, R3.9d), and the partner's 15 meld exactly his shown meld if given;
   rejection sampling, its acceptance rate is counted;
3. the bidder leads (R5.1) and every seat plays greedily (`pinochle3_play`), no concession (R4.10:
   the bidder plays, as `pinochle3_bid.defender_outcomes` assumes).

Not modelled: what the bid says about the bidder's hand (the auction), that the policy would have named
this trump. Points are in main-game units (a counter is 10).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simcore.errors import CardsimError
from simcore.games.pinochle3 import DECK, HAND_SIZE, KITTY_SIZE, N_SUITS, TRICK_POINTS_TOTAL, meld_breakdown, \
    meld_points, meld_values, options_key
from simcore.games.pinochle3_discard import DEFAULT_POLICY, DISCARD_POLICIES, policy_discards
from simcore.games.pinochle3_play import COUNTER_POINTS, play_out, rule_options
from simcore.rng import block_stream

FACES = DECK.n_faces
HOLDING = HAND_SIZE + KITTY_SIZE
SEAT_NAMES = {"left": 1, "right": 2}
"""The defender's seat by its side of the bidder (seat 0, who leads trick 1): left plays second, right third."""
POINT_BINS = TRICK_POINTS_TOTAL // COUNTER_POINTS + 1
"""Histogram bins of 10 trick points, 0 to 250."""
MAX_PROPOSALS_PER_DEAL = 1024
"""A block gives up (CardsimError) when fewer than 1 in this many proposals is kept ..."""
EARLY = 16_384
"""... or when none of its first this many is (both times `PARTNER_PATIENCE` with the partner's meld noted)."""
PARTNER_PATIENCE = 16
"""With the partner's meld noted the acceptance falls with the share of hands melding exactly that (often 1 in
10-20), but a proposal failing it costs no discard search, so a block waits this many times longer."""
_ONE = np.uint64(1)


def face_counts(cards) -> np.ndarray:
    """(24,) int64 copies held of every face of physical cards ``cards``."""
    return np.bincount([DECK.face_of(int(c)) for c in cards], minlength=FACES).astype(np.int64)


def _faces_text(counts: np.ndarray) -> str:
    return " ".join(DECK.face_tokens[f] for f in range(FACES) for _ in range(int(counts[f])))


@dataclass(frozen=True)
class DefendSetup:
    """A checked defender's view (`setup`): ``mine`` (15 cards), ``seat`` (1 left, 2 right), ``trump``,
    ``bid`` (main-game points), ``shown`` (24,) face counts of the bidder's meld cards, ``kitty`` (3
    cards or None), ``shown_meld`` (their meld), ``my_meld`` (the defender's meld under ``trump``),
    ``partner_shown`` (24,) face counts of the partner's meld cards or None (not noted), ``partner_meld``
    (their meld, -1 when not noted); the draw: ``fixed`` and ``partner_fixed`` (masks of the unseen
    copies placed with the bidder and the partner), ``pool`` (the other unseen cards, sorted), ``draw``
    (how many of them go to the bidder), ``halves`` and ``partner_halves`` (masks of the second copies
    of faces whose first copy was placed with the bidder / partner: a proposal giving that hand the
    second copy too is kept with probability 1/2)."""

    mine: tuple[int, ...]
    seat: int
    trump: int
    bid: int
    shown: tuple[int, ...]
    kitty: tuple[int, ...] | None
    shown_meld: int
    my_meld: int
    fixed: int
    pool: tuple[int, ...]
    draw: int
    halves: tuple[int, ...]
    partner_shown: tuple[int, ...] | None = None
    partner_meld: int = -1
    partner_fixed: int = 0
    partner_halves: tuple[int, ...] = ()


def _check_shown(shown_cards, trump: int, options: dict | None, who: str = "bidder") -> np.ndarray:
    """Face counts of the shown meld cards of the ``who`` ('bidder' or 'partner'); CardsimError unless every one
    is part of a meld declared under ``trump`` (R3.9c: only meld cards are shown) and all fit in 15 cards."""
    shown = face_counts(shown_cards)
    flag = f"--{who}-meld"
    if len(shown_cards) > HAND_SIZE:
        keeps = "keeps" if who == "bidder" else "holds"
        raise CardsimError(f"{flag} lists {len(shown_cards)} cards but the {who} {keeps} {HAND_SIZE}; "
                           "list only the cards laid down as meld")
    used = face_counts([c for m in meld_breakdown(list(shown_cards), trump, options) for c in m.cards])
    idle = shown - np.minimum(used, shown)
    if idle.any():
        suit = DECK.suits[trump]
        them = "it" if idle.sum() == 1 else "them"
        raise CardsimError(f"{flag} shows {_faces_text(idle)}, part of no meld under trump {suit} (R3.9c: "
                           f"only cards that form meld are laid down); drop {them} or check --trump")
    return shown


def setup(mine, seat: int, trump: int, bid: int, shown_cards, kitty=None, options: dict | None = None,
          partner_cards=None) -> DefendSetup:
    """Check and prepare a defender's view (physical card indices; ``shown_cards`` may repeat a kitty card:
    the bidder may meld with the kitty; ``partner_cards`` the partner's meld cards, None: not noted).
    CardsimError, saying what to mend, when the cards cannot all exist: a face held by you, shown by the
    bidder or in the kitty, and shown by the partner more often than the pack's 2 copies."""
    mine = tuple(sorted(int(c) for c in mine))
    if len(mine) != HAND_SIZE or len(set(mine)) != HAND_SIZE:
        raise CardsimError(f"--hand must list the {HAND_SIZE} cards dealt to you, got {len(mine)}")
    if seat not in SEAT_NAMES.values():
        raise CardsimError(f"the defender sits on the bidder's left (1) or right (2), got {seat}")
    if trump not in range(N_SUITS):
        raise CardsimError(f"trump must be a suit index 0-3 ({'/'.join(DECK.suits)}), got {trump}")
    kitty = tuple(sorted(int(c) for c in kitty)) if kitty is not None else None
    if kitty is not None and (len(kitty) != KITTY_SIZE or set(kitty) & set(mine)):
        raise CardsimError(f"the kitty has {KITTY_SIZE} cards you do not hold, got {DECK.format_cards(kitty)}")
    shown = _check_shown(list(shown_cards), trump, options)
    partner = np.zeros(FACES, dtype=np.int64) if partner_cards is None else \
        _check_shown(list(partner_cards), trump, options, "partner")
    held, known = face_counts(mine), face_counts(kitty or ())
    over = held + np.maximum(shown, known) + partner > DECK.copies
    if over.any():
        f = int(np.flatnonzero(over)[0])
        token, kitty_part = DECK.face_tokens[f], f", the kitty {known[f]}" if known[f] else ""
        partner_part = f", your partner shows {partner[f]}" if partner[f] else ""
        where = "the bidder's hand with the kitty" if kitty else "the bidder's hand"
        mend = "--hand, --bidder-meld or --partner-meld" if partner_cards is not None else "--hand or --bidder-meld"
        raise CardsimError(f"{token}: you hold {held[f]}, the bidder shows {shown[f]}{kitty_part}{partner_part}, but "
                           f"the pack has {DECK.copies} (the bidder's shown cards are in {where}); mend {mend}")
    unseen = [c for c in range(DECK.n_cards) if c not in mine and c not in (kitty or ())]
    missing = np.maximum(shown - known, 0)
    fixed, halves, partner_fixed, partner_halves = [], [], [], []
    for f in range(FACES):
        copies = [c for c in unseen if DECK.face_of(c) == f]
        fixed += copies[:missing[f]]
        partner_fixed += copies[missing[f]:missing[f] + partner[f]]
        if len(copies) == 2 and missing[f] + partner[f] == 1:  # one copy placed, the other free
            (halves if missing[f] else partner_halves).append(1 << copies[1])
    pool = tuple(c for c in unseen if c not in fixed and c not in partner_fixed)
    draw = HOLDING - len(kitty or ()) - len(fixed)
    shown_meld, my_meld = (int(meld_points(np.array([DECK.mask(cards)], dtype=np.uint64), trump, options)[0])
                           for cards in (_faces_cards(shown), mine))
    partner_meld = -1 if partner_cards is None else \
        int(meld_points(np.array([DECK.mask(_faces_cards(partner))], dtype=np.uint64), trump, options)[0])
    return DefendSetup(mine, seat, trump, int(bid), tuple(int(x) for x in shown), kitty, shown_meld, my_meld,
                       DECK.mask(fixed), pool, draw, tuple(halves),
                       None if partner_cards is None else tuple(int(x) for x in partner), partner_meld,
                       DECK.mask(partner_fixed), tuple(partner_halves))


def _faces_cards(counts) -> list[int]:
    """Physical cards (first copies first) with the face counts ``counts``."""
    return [DECK.copies * f + k for f in range(FACES) for k in range(int(counts[f]))]


def propose(s: DefendSetup, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` proposals, thinned to the uniform deal (step 1 of the module's model): ((k,) uint64 the
    bidder's 18 cards, (k,) uint64 the partner's 15), k <= size the proposals kept."""
    pool = np.array(s.pool, dtype=np.uint64)
    order = rng.random((size, len(pool))).argsort(axis=1)
    bits = _ONE << pool[order]
    base = np.uint64(s.fixed | DECK.mask(s.kitty or ()))
    bidder = np.bitwise_or.reduce(bits[:, :s.draw], axis=1) | base
    partner = np.bitwise_or.reduce(bits[:, s.draw:], axis=1) | np.uint64(s.partner_fixed)
    halves = [(bidder, copy) for copy in s.halves] + [(partner, copy) for copy in s.partner_halves]
    coins = rng.random((size, len(halves)))  # drawn whatever the deal, so the stream does not depend on it
    keep = np.ones(size, dtype=bool)
    for j, (hand, copy) in enumerate(halves):
        keep &= (hand & np.uint64(copy) == 0) | (coins[:, j] < 0.5)
    return bidder[keep], partner[keep]


def _holds_shown(kept: np.ndarray, shown) -> np.ndarray:
    """(n,) bool: the kept masks hold at least the ``shown`` face counts."""
    ok = np.ones(kept.shape[0], dtype=bool)
    for f in np.flatnonzero(np.asarray(shown)):
        copies = np.bitwise_count(kept & np.uint64(3 << (DECK.copies * int(f))))
        ok &= copies >= shown[f]
    return ok


def accept(s: DefendSetup, bidder: np.ndarray, partner: np.ndarray, policy: str = DEFAULT_POLICY,
           options: dict | None = None) -> dict:
    """Step 2 of the model on the bidder's 18-card holdings and the partner's 15 cards, (n,) uint64 each: the
    bidder's discard under ``s.trump``; ``ok`` (n,) bool (he keeps the shown cards and melds exactly their meld,
    and the partner melds exactly his shown meld if noted), ``kept``, ``buried`` masks, ``buried_points`` (n,)
    int64 (counters buried, his at the end, R4.7c), ``partner_ok`` how many of them pass the partner's test."""
    ok = np.ones(bidder.shape[0], dtype=bool)
    if s.partner_shown is not None:  # the cheap test first: the discard is searched only where it passes
        ok = meld_points(partner, s.trump, options) == s.partner_meld
    partner_ok = int(ok.sum())
    buried, points = np.zeros_like(bidder), np.zeros(bidder.shape[0], dtype=np.int64)
    buried[ok], _, melds, points[ok] = policy_discards(bidder[ok], s.trump, policy, options)
    kept = bidder & ~buried
    ok[ok] = (melds == s.shown_meld) & _holds_shown(kept[ok], s.shown)
    return {"ok": ok, "kept": kept, "buried": buried, "buried_points": points, "partner_ok": partner_ok}


def sample_deals(s: DefendSetup, rng: np.random.Generator, n: int, policy: str = DEFAULT_POLICY,
                 options: dict | None = None) -> dict:
    """``n`` deals of the model drawn from ``rng``: ``kept``, ``buried``, ``partner`` (n,) uint64,
    ``buried_points`` (n,) int64, and ``proposals``, ``drawn``, ``passed``: proposals made, those left by the
    one-copy thinning (uniform deals holding the shown cards) and those kept (all batches, also beyond the n
    used: passed / drawn estimates the share of the deals holding the shown cards that fit the shown melds).
    CardsimError when fewer than 1 in `MAX_PROPOSALS_PER_DEAL` proposals is kept (`PARTNER_PATIENCE` times as
    many with the partner's meld)."""
    parts, have, proposals, drawn, passed, partner_passed = [], 0, 0, 0, 0, 0
    while have < n:
        rate = (passed + 1) / (proposals + 4)
        size = int(min(max(math.ceil(1.25 * (n - have) / rate), 64), 16_384))
        bidder, partner = propose(s, rng, size)
        a = accept(s, bidder, partner, policy, options)
        proposals, drawn, passed = proposals + size, drawn + bidder.shape[0], passed + int(a["ok"].sum())
        partner_passed += a["partner_ok"]
        if a["ok"].any():
            parts.append((a["kept"][a["ok"]], a["buried"][a["ok"]], partner[a["ok"]], a["buried_points"][a["ok"]]))
            have += int(a["ok"].sum())
        patience = PARTNER_PATIENCE if s.partner_shown is not None else 1
        if have < n and (proposals >= patience * MAX_PROPOSALS_PER_DEAL * max(n, 1)
                         or (proposals >= patience * EARLY and not passed)):
            suit = DECK.suits[s.trump]
            how = "possible but too rare to simulate" if passed else "impossible or too rare to simulate"
            partner = "" if s.partner_shown is None else f" and your partner exactly his ({s.partner_meld})"
            check = "--bidder-meld" if s.partner_shown is None else "--bidder-meld, --partner-meld"
            if s.partner_shown is not None:
                partner += f" ({partner_passed:,} give your partner his, and of those {passed:,} the bidder his)"
            raise CardsimError(f"only {passed:,} of {drawn:,} deals consistent with your cards leave the bidder "
                               f"exactly the shown meld ({s.shown_meld}) after his {policy} discard under trump {suit}"
                               f"{partner}: {how} (in most deals the hands meld more than the shown cards or the "
                               f"bidder buries one of them); if that is unexpected, check {check} (all the meld "
                               "cards, R3.9c) and --trump")
    if not parts:
        empty = np.zeros(0, dtype=np.uint64)
        return {"kept": empty, "buried": empty, "partner": empty, "buried_points": np.zeros(0, dtype=np.int64),
                "proposals": proposals, "drawn": drawn, "passed": passed}
    kept, buried, partner, points = (np.concatenate(x)[:n] for x in zip(*parts))
    return {"kept": kept, "buried": buried, "partner": partner, "buried_points": points, "proposals": proposals,
            "drawn": drawn, "passed": passed}


def play(s: DefendSetup, d: dict, rule: str = "old") -> dict:
    """Step 3: the deals ``d`` of `sample_deals` played out greedily, the bidder (seat 0) leading.
    Returns (n,) int64 ``points``, ``counters`` of ``me``, ``partner``, ``bidder`` (trick points with the
    last trick, the bidder's buried counters included in his; counters taken in tricks)."""
    n = d["kept"].shape[0]
    hands = np.empty((n, 3), dtype=np.uint64)
    hands[:, 0], hands[:, s.seat], hands[:, 3 - s.seat] = d["kept"], np.uint64(DECK.mask(s.mine)), d["partner"]
    points, counters = play_out("greedy", hands, np.full(n, s.trump, dtype=np.int64), np.zeros(n, dtype=np.int64),
                                rule)
    return {"me": points[:, s.seat], "partner": points[:, 3 - s.seat], "bidder": points[:, 0] + d["buried_points"],
            "me_counters": counters[:, s.seat], "partner_counters": counters[:, 3 - s.seat],
            "bidder_counters": counters[:, 0]}


COUNT_NAMES = ("deals", "drawn", "passed", "me_counter", "partner_counter", "side_counter", "saved", "made",
               "score_sum", "score_squares", "me_sum", "me_squares", "side_sum", "side_squares", "partner_saved")


class DefendJob:
    """Counts for the runner over the deals of `sample_deals` (block b draws from `block_stream(seed, b)`)
    played by `play`: `COUNT_NAMES` (deals; deals holding the shown cards and those kept; deals where you, your
    partner, either of you took a counter in tricks; your meld scores, R6.3 with the options' flags A3; the
    bidder makes the bid: shown meld + his trick points + buried counters >= bid; sums and squares of your score,
    your trick points, the defenders' trick points; your partner's meld scores), then histograms in bins of 10
    of your trick points and the defenders' (`POINT_BINS` each)."""

    block_size = 256

    def __init__(self, s: DefendSetup, rule: str = "old", options: dict | None = None, policy: str = DEFAULT_POLICY):
        rule_options({"play_rule": rule})
        if policy not in DISCARD_POLICIES:
            raise CardsimError(f"discard policy must be one of {', '.join(DISCARD_POLICIES)}, got {policy!r}")
        self.s, self.rule, self.policy, self.options = s, rule, policy, dict(options or {})
        self.n_counts = len(COUNT_NAMES) + 2 * POINT_BINS

    def key(self) -> str:
        s, o = self.s, rule_options(self.options)
        flags = "".join(f"|{f}={o[f]}" for f in ("defender_needs_counter", "defender_counter_rule_on_set",
                                                  "defender_keeps_last_trick_without_counter"))
        return (f"pinochle3|DefendJob|v3|mine={s.mine}|seat={s.seat}|trump={s.trump}|bid={s.bid}|shown={s.shown}"
                f"|kitty={s.kitty}|rule={self.rule}|discard={self.policy}{options_key(meld_values(self.options))}"
                f"{flags}" + ("" if s.partner_shown is None else f"|partner={s.partner_shown}"))

    @staticmethod
    def unpack(counts: np.ndarray) -> dict:
        k = len(COUNT_NAMES)
        out = {name: int(x) for name, x in zip(COUNT_NAMES, counts[:k])}
        out["me_hist"], out["side_hist"] = counts[k:k + POINT_BINS], counts[k + POINT_BINS:]
        return out

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        from simcore.games.pinochle3_bid import defender_scores, meld_saved

        s = self.s
        d = sample_deals(s, block_stream(seed, block), n_deals, self.policy, self.options)
        o = play(s, d, self.rule)
        made = s.shown_meld + o["bidder"] >= s.bid
        meld = np.full(n_deals, s.my_meld, dtype=np.int64)
        score = defender_scores(meld, o["me"], o["me_counters"], made, self.options)
        saved, partner_saved = (meld_saved(o[f"{who}_counters"], made, self.options)
                                for who in ("me", "partner"))
        side = o["me"] + o["partner"]
        mine, theirs = o["me_counters"] > 0, o["partner_counters"] > 0
        head = [n_deals, d["drawn"], d["passed"], mine.sum(), theirs.sum(), (mine | theirs).sum(), saved.sum(),
                made.sum(), score.sum(), (score * score).sum(), o["me"].sum(), (o["me"] ** 2).sum(), side.sum(),
                (side * side).sum(), partner_saved.sum()]
        hists = [np.bincount(x // COUNTER_POINTS, minlength=POINT_BINS) for x in (o["me"], side)]
        return np.concatenate((np.array(head, dtype=np.int64), *hists)).astype(np.int64)
