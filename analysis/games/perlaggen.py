"""Perlaggen figure odds and table statistics (levels L0 and L1) as DataFrames, and their commands.

Python API::

    from analysis.games import perlaggen
    frame = perlaggen.odds("S6 LA LK L8 E10", seat=2, turnup="L10", n=200_000, seed=7)
    tables = perlaggen.stats(style="eichel", n=1_000_000, seed=1)     # dict of DataFrames
    facts = perlaggen.exact()                                         # §11.1 by enumeration

Seats: dealer 0, seat 1 leads, partner 2, cutter 3 (spec §0.3). Odds sample the unseen cards from
the deal as played given the public facts of §3.6 (§11.4): the turn-up (or only the trump suit),
the cutter's shown Perlaggen, team D's exchanges (by default none), in Eichel the acorns laid
aside, and for the cutter his stopper card. Figures are judged at level L0 (default: each figure
with every free Perlagg) or L1 (the team game of frontier points, simcore.games.perlaggen_l1) of
§11.6; ``stakes`` are L1's figure values v_G, v_H. Every estimate
row carries ``p, lo, hi`` (95% Wilson interval), ``successes`` and ``n``.
"""

from __future__ import annotations

import argparse
import itertools
import math

import numpy as np
import pandas as pd

from analysis.commands import (Command, NotedStore, add_option_argument, add_run_arguments, check_exact_alone,
                               check_only_with, command_options, decimal_value, emit, given_flags, long_frame, no_exact,
                               none_fit, one_of, option_items, options_note, positive_int, register_command,
                               run_options, seat_cards, tables_long, whole_number)
from analysis.games import perlaggen_play as spiel_play
from analysis.games.perlaggen_card_values import (card_pairs, card_pairs_json, card_pairs_long, card_values,
                                                  card_values_json, card_values_long, default_deals,
                                                  format_card_pairs, format_card_values)
from analysis.stats import estimate_frame, estimates_dict, format_cell, mean_interval, table_records
from simcore import checks, counting, runner
from simcore.cards import subset_masks
from simcore.errors import CardsimError
from simcore.figures import RELATIVE_OUTCOMES
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games.perlaggen_hand_rank import MEASURES as RANK_MEASURES, TALLIES as RANK_TALLIES, HandRankJob
from simcore.games import perlaggen_l1 as L
from simcore.games import perlaggen_variants as V
from simcore.rng import normalize_seed

GAME = "perlaggen"
FIGURES = ("gleich", "hanger")
SEAT_NAMES = ("dealer", "leader", "partner", "cutter")
OUTCOMES = ("team D", "team O", "stand", "void")
"""Absolute outcomes in the order of simcore.figures (TEAM0 = team D = seats 0 and 2)."""


# --- input ------------------------------------------------------------------------------------------
def _cards(text, what: str, optional: bool = True) -> list[int]:
    """The cards of ``text`` (a text or a list of card names; None: none). A blank text of an ``optional`` flag is
    refused: an empty shell variable should not pass for "no cards"."""
    if optional and isinstance(text, str) and not text.strip():
        raise CardsimError(f"{what} is empty: give its cards (e.g. 'LA'), or leave {what} out")
    return P.DECK.parse_cards("" if text is None else checks.card_text(text, what, "S6 LA LK"), what)


def _suit_of(card: int) -> str:
    return "S" if card == P.WELI else P.DECK.suits[P.DECK.suit_of_face(card)]


def parse_exchange(text: str, turnup: int | None, players: int = D.SEATS) -> tuple[int, int, int]:
    """'0:H9' (seat 0 gave H9 for the turn-up) or '2:E10=EU' (gave E10, took EU) -> (seat, gave, took)."""
    players = checks.whole(players, "--players", 2)
    if turnup is not None:
        turnup = checks.whole(turnup, "turnup (the turned-up card's index, or None)", 0, P.DECK.n_cards - 1)
    if not isinstance(text, str):
        raise CardsimError(f"--exchange takes SEAT:GAVE or SEAT:GAVE=TOOK such as '0:H9', got {checks.shown(text)}")
    seat, sep, swap = text.partition(":")
    gave, _, took = swap.partition("=")
    if not sep or seat.strip() not in map(str, range(players)) or not gave.strip():
        raise CardsimError(f"--exchange takes SEAT:GAVE or SEAT:GAVE=TOOK such as '0:H9', got '{text}'")
    if players == D.SEATS and seat.strip() in ("1", "3"):
        raise CardsimError(f"--exchange {text}: only team D (seats 0 and 2) may exchange (spec §3.5 E4)")
    if int(seat) not in _exchangers(players):
        raise CardsimError(f"--exchange {text}: at {players} players only seat(s) "
                           f"{', '.join(map(str, _exchangers(players)))} may exchange (A-27)")
    if not took.strip() and turnup is None:
        raise CardsimError(f"--exchange {text} needs --turnup (the card taken) or the form SEAT:GAVE=TOOK")
    taken = P.DECK.parse_face(took) if took.strip() else turnup
    return int(seat), P.DECK.parse_face(gave), taken


def _exchangers(players: int) -> tuple[int, ...]:
    """Seats that may exchange: team D with four players (§3.5), else `V.TableRules.exchangers` (A-27)."""
    return (0, 2) if players == D.SEATS else tuple(int(s) for s in V.TableRules(players).exchangers())


def parse_known(hand: str, seat: int, turnup: str | None = None, trump: str | None = None,
                cutter_took: str | None = None, exchanges=(), acorns: str | None = None,
                style: str = "innsbruck", exchange: str = "always", stopper: str | None = None,
                players: int = D.SEATS, hand_size: int = D.HAND_SIZE, held: dict | None = None) -> D.Known:
    """Validate a question into the public facts `D.Known` (CardsimError with one line if impossible);
    ``players``, ``hand_size``: the table (2, 3 or 6 players: `V.TableRules`; the cutter is the last seat);
    ``held``: {seat: cards} known in other seats' hands after the exchanges (`_held`, four players)."""
    if checks.whole(seat, "--seat") not in range(players):
        raise CardsimError(f"--seat must be 0, 1, 2 or 3 (dealer 0, leader 1, partner 2, cutter 3), got {seat}"
                           if players == D.SEATS else
                           f"--seat must be 0..{players - 1} (dealer 0, seat 1 leads, cutter {players - 1}), "
                           f"got {seat}")
    seat, cutter = int(seat), players - 1
    if trump is not None:
        trump = checks.one_of(trump.strip().upper() if isinstance(trump, str) else trump, "trump suit", P.DECK.suits)
    own = _cards(hand, "--hand", optional=False)
    if len(own) != hand_size:
        raise CardsimError(f"--hand must list exactly {hand_size} cards, got {len(own)}")
    turned = _cards(turnup, "--turnup")
    if turnup is not None and len(turned) != 1:
        raise CardsimError(f"--turnup must be exactly one card, got {len(turned)}")
    turned_card = turned[0] if turned else None
    suits = [s for s in (trump and trump.strip().upper(), turned_card is not None and _suit_of(turned_card)) if s]
    if not suits:
        raise CardsimError("give the turned-up card (--turnup) or at least the trump suit (--trump)")
    if len(set(suits)) > 1:
        raise CardsimError(f"--trump {suits[0]} contradicts --turnup {turnup} (its printed suit makes trump, §2.1)")
    if style in D.EICHEL_DEALS and suits[0] == "E" and turned_card is not None:
        raise CardsimError(f"--turnup {turnup}: in the {style} style an acorn is laid aside, never the trump card "
                           "(§9.1); list it in --acorns")
    perlaggen = P.perlaggen(style, suits[0])  # CardsimError for a trump the style does not allow
    P.check_no_weli(own, style, "--hand")
    P.check_no_weli(turned, style, "--turnup")
    taken = _cards(cutter_took, "--cutter-took")
    permanent = P.permanent_perlaggen(style)
    for card in taken:
        if card not in permanent:
            raise CardsimError(f"--cutter-took {P.DECK.token(card)}: the cutter keeps only permanent Perlaggen "
                               f"({P.DECK.format_cards(permanent)} in the {style} style, §3.2)")
    laid = _cards(acorns, "--acorns")
    if laid and (style not in D.EICHEL_DEALS + ("straf",) or any(_suit_of(c) != "E" for c in laid)):
        raise CardsimError("--acorns lists the acorns laid aside before the Eichel trump card (§9.1); "
                           f"got {acorns} in the {style} style")
    swaps = tuple(parse_exchange(text, turned_card, players) for text in checks.texts(exchanges, "exchanges", "0:H9"))
    if swaps and turned_card is None:
        raise CardsimError("--exchange needs --turnup: an exchange is seen by everybody, and so is the turn-up")
    if swaps and exchange == "never":
        raise CardsimError("--exchange contradicts the exchange policy 'never' (nobody exchanges); drop --exchange or "
                           "choose another policy")
    _check_swaps(swaps, turned_card, laid, perlaggen, suits[0], style)
    took_own = {took for s, _, took in swaps if s == seat}
    for s, gave, took in swaps:
        if s == seat and gave in own:
            raise CardsimError(f"--exchange {s}:{P.DECK.token(gave)}: you gave {P.DECK.token(gave)} away, so it cannot "
                               "still be in --hand (list your cards after the exchange)")
        if s == seat and took not in own:
            raise CardsimError(f"--exchange: you took {P.DECK.token(took)}; put it in --hand "
                               "(list your cards after the exchange)")
    on_table = set(turned) | set(laid)
    for card in own:
        if card in on_table and card not in took_own:
            raise CardsimError(f"{P.DECK.token(card)} is in --hand but lies face up (turn-up or laid aside); "
                               "you hold it only if you took it in an exchange (--exchange)")
    if seat == cutter and not set(taken) <= set(own):
        raise CardsimError("you are the cutter: the Perlaggen you showed (--cutter-took) must be in your --hand")
    if seat != cutter and set(taken) & set(own):
        both = P.DECK.format_cards(sorted(set(taken) & set(own)))
        raise CardsimError(f"{both} is in --hand and among the cards the cutter showed (--cutter-took); each card is "
                           "in one place: drop it from one of them")
    policy = (turned_card, laid, swaps, perlaggen, suits[0], style, exchange, players)
    error = _exchange_contradiction(seat, own, took_own, *policy)
    if error:
        raise CardsimError(error)
    stopper_card = _stopper(stopper, seat, permanent, cutter, style)
    known = _held(held, seat, own, taken, cutter, set(turned) | set(laid) | {gave for _, gave, _ in swaps}, swaps,
                  stopper_card, players, hand_size)
    for other, cards in known:
        error = _exchange_contradiction(other, cards, {took for s, _, took in swaps if s == other}, *policy,
                                        known=True)
        if error:
            raise CardsimError(error)
    return D.Known(seat, tuple(own), P.DECK.suits.index(suits[0]), turned_card, tuple(taken), tuple(laid),
                   swaps if turned_card is not None else None, stopper_card, players, hand_size, known)


def _exchange_contradiction(seat: int, cards, took, turned: int | None, laid, swaps, perlaggen, trump: str, style: str,
                            exchange: str, players: int, known: bool = False) -> str | None:
    """Why ``cards`` cannot all be in ``seat``'s hand after the exchanges (``took``: the cards it took in them) under
    the exchange policy, or None (§11.4 item 3): with the partner's exchange the dealer holds no natural trump
    (§3.5 E2); under always-exchange (A-07), with the turned Perlagg left lying or taken in an upgrade team D holds
    no natural trump, left lying also (Eichel) no acorn Perlagg, and with the partner's upgrade the dealer holds none
    (§9.1 step 2); with an acorn Perlagg left face up team D holds no natural acorn, and with the partner's swap for
    one the dealer holds none (step 3). ``known``: the cards are a --known seat's, not your --hand (the message's
    words)."""
    def token(cards_of) -> str:
        return P.DECK.token(cards_of[0])

    def drop(cards_of) -> str:
        return f", or drop {token(cards_of)} from --known" if known else ""

    natural = [c for c in cards if _suit_of(c) == trump and c not in perlaggen]
    if players == D.SEATS and seat == 0 and natural and any(s == 2 and t == turned for s, _, t in swaps):
        who = "--known 0: the dealer holds" if known else "--exchange 2: you, the dealer, hold"
        return (f"{who} the natural trump {token(natural)}, so {'his' if known else 'your'} partner may not exchange "
                f"(§3.5 E2, A-07); drop that --exchange{drop(natural)}")
    if exchange != "always" or seat not in _exchangers(players):
        return None
    where, eichel = (f"--known {seat}: " if known else ""), style in D.EICHEL_DEALS
    acorn_perlaggen = [c for c in perlaggen if _suit_of(c) == "E"]
    upgrades = [(s, gave) for s, gave, t in swaps if _is_upgrade(gave, t, turned, perlaggen, style)]
    taken = {t for _, _, t in swaps}
    acorn = [c for c in cards if c in acorn_perlaggen and c not in took]
    if turned in perlaggen and (turned not in taken or upgrades):
        how = (" for it, not in an upgrade (§9.1 step 2), which comes only when team D holds no natural trump"
               if upgrades else "")
        if natural:
            return (f"{where}seat {seat} holds the natural trump {token(natural)}, so under the always-exchange policy "
                    f"(A-07) team D would have taken the turned {P.DECK.token(turned)}{how}; give the swap with "
                    f"--exchange{drop(natural)}")
        if eichel and acorn and turned not in taken:
            return (f"{where}seat {seat} holds the acorn Perlagg {token(acorn)}, so under the always-exchange policy "
                    f"team D would have taken the turned {P.DECK.token(turned)} for one (§9.1 step 2, the upgrade); "
                    f"give the swap with --exchange{drop(acorn)}")
    if eichel and seat == 0 and acorn and any(s == 2 for s, _ in upgrades):
        return (f"{where}the dealer holds the acorn Perlagg {token(acorn)}, so the upgrade is his, not his partner's "
                f"(§9.1 step 2); give the swap to seat 0{drop(acorn)}")
    face_up = [c for c in [*laid, *(gave for _, gave in upgrades)] if c in acorn_perlaggen and c not in taken]
    natural_acorns = [c for c in cards if _suit_of(c) == "E" and c not in perlaggen]
    if eichel and face_up and natural_acorns:
        return (f"{where}seat {seat} holds the natural acorn {token(natural_acorns)}, so under the always-exchange "
                f"policy team D would have taken the face-up {P.DECK.token(face_up[0])} (§9.1 step 3); give the swap "
                f"with --exchange{drop(natural_acorns)}")
    if eichel and seat == 0 and natural_acorns and any(s == 2 and t in acorn_perlaggen and t != turned
                                                       for s, _, t in swaps):
        return (f"{where}the dealer holds the natural acorn {token(natural_acorns)}, so he, not his partner, takes the "
                f"face-up acorn Perlaggen (§9.1 step 3, the dealer first); give the swap to seat 0"
                f"{drop(natural_acorns)}")
    return None


def _held(held: dict | None, seat: int, own, taken, cutter: int, face_up: set, swaps, stopper: int | None,
          players: int, hand_size: int) -> tuple:
    """`D.Known.held` from {seat: cards} (``--known "S:CARDS"``): cards seen in another seat's hand, e.g. played.
    Refused: the own seat, a card placed twice, a card in your hand, a card the cutter showed (--cutter-took) for
    another seat, a face-up card (the turn-up, a laid-aside acorn, a card given in an exchange) for a seat that did
    not take it in an --exchange, the cutter's stopper (it stays in the stock), more cards than a hand holds with
    those the seat is already known to hold (shown Perlaggen, cards taken in exchanges). `parse_known` then refuses
    cards the exchanges rule out (`_exchange_contradiction`); deals that cannot put the cards there for other
    reasons are rejected by the run."""
    if not held:
        return ()
    if not isinstance(held, dict):
        raise CardsimError(f"known must be a dict of seat -> cards such as {{3: 'HA'}}, got {checks.shown(held)}")
    if players != D.SEATS:
        raise CardsimError(f"--known is read by the four-player odds only; drop it at {players} players")
    out, seen = [], {}
    for other, text in held.items():
        other = checks.whole(other, "--known seat")
        if other not in range(players):
            raise CardsimError(f"--known names seat {other}; seats are 0-{players - 1}")
        if other == seat:
            raise CardsimError(f"--known names your own seat {seat}; put your cards in --hand")
        cards = _cards(checks.card_text(text, f"--known {other}", "LA"), f"--known {other}")
        already = set(taken if other == cutter else ()) | {took for s, _, took in swaps if s == other}
        if len(set(cards) | already) > hand_size:
            besides = f", besides the {len(already)} it showed or took," if already else ""
            raise CardsimError(f"--known {other} lists {len(cards)} cards{besides}: more than a hand's {hand_size}")
        for card in cards:
            token = P.DECK.token(card)
            if card in seen or card in own:
                where = "your --hand" if card in own else f"--known {seen[card]}"
                raise CardsimError(f"--known {other}: {token} is also in {where}; each card is in one place")
            if card in taken and other != cutter:
                raise CardsimError(f"--known {other}: {token} is among the cutter's shown Perlaggen (--cutter-took), "
                                   f"so it is in the cutter's (seat {cutter}'s) hand")
            if card == stopper:
                raise CardsimError(f"--known {other}: {token} is the stopper you saw under your packet (--stopper); "
                                   "it stays in the stock")
            if card in face_up and not any(s == other and took == card for s, _, took in swaps):
                raise CardsimError(f"--known {other}: {token} lies face up (the turn-up, a laid-aside acorn or a card "
                                   f"given in an exchange); seat {other} holds it only if it took it in an exchange "
                                   "(--exchange)")
            seen[card] = other
        out.append((other, tuple(cards)))
    return tuple(sorted(out))


def _is_upgrade(gave: int, took: int, turned: int | None, perlaggen, style: str) -> bool:
    """Whether a swap is an Eichel upgrade (§9.1 step 2): the turned Perlagg taken for an acorn Perlagg."""
    return took == turned and style in D.EICHEL_DEALS and _suit_of(gave) == "E" and gave in perlaggen


def _check_swaps(swaps, turned: int | None, laid, perlaggen, trump: str, style: str) -> None:
    """Each swap takes the turned Perlagg for a natural trump (§3.5 E1, E3) or, in Eichel, for an acorn
    Perlagg (upgrade, §9.1 step 2), or takes a face-up acorn Perlagg (laid aside, or given up in an upgrade) for a
    natural acorn (step 3); a card is given or taken in one exchange at most."""
    seen: dict[tuple[str, int], str] = {}
    upgrades = [i for i, (_, gave, took) in enumerate(swaps) if _is_upgrade(gave, took, turned, perlaggen, style)]
    for i, (seat, gave, took) in enumerate(swaps):
        upgraded = {swaps[j][1] for j in upgrades if j < i}  # face up by now: given up in an earlier upgrade
        what = f"--exchange {seat}:{P.DECK.token(gave)}={P.DECK.token(took)}"
        if (seat, gave, took) in swaps[:i]:
            raise CardsimError(f"{what} is given twice; give each exchange once")
        for verb, card in (("gives", gave), ("takes", took)):
            if (verb, card) in seen:
                raise CardsimError(f"{what} {verb} {P.DECK.token(card)}, and so does {seen[verb, card]}; a card "
                                   "changes hands in one exchange at most: drop one of them")
            seen[verb, card] = what
        if took == turned:
            if turned not in perlaggen:
                raise CardsimError(f"{what}: the turn-up {P.DECK.token(turned)} is not a Perlagg with trump {trump}, "
                                   "so nobody exchanges it (§3.5)")
            if not _is_upgrade(gave, took, turned, perlaggen, style) and (_suit_of(gave) != trump or gave in perlaggen):
                raise CardsimError(f"{what}: the turned Perlagg is taken for a natural trump ({trump}), never for "
                                   "another card or a Perlagg (§3.5 E1, E3)")
        elif (took in laid or took in upgraded) and took in perlaggen:
            if _suit_of(gave) != "E" or gave in perlaggen:
                raise CardsimError(f"{what}: a face-up acorn Perlagg is taken for a natural acorn (§9.1 step 3)")
        elif any(swaps[j][1] == took for j in upgrades):
            raise CardsimError(f"{what} takes {P.DECK.token(took)} before the upgrade that gives it up; list that "
                               "upgrade first (§9.1: step 2 before step 3)")
        else:
            raise CardsimError(f"{what}: only the turn-up or a face-up acorn Perlagg can be taken (§3.5, §9.1)")


def _stopper(text: str | None, seat: int, permanent, cutter: int = D.CUTTER, style: str = "innsbruck") -> int | None:
    """The cutter's stopper card (--stopper), or None."""
    if text is None:
        return None
    if seat != cutter:
        raise CardsimError(f"--stopper: only the cutter (seat {cutter}) saw the card under his packet (§3.6)")
    cards = _cards(text, "--stopper")
    P.check_no_weli(cards, style, "--stopper")
    if len(cards) != 1 or cards[0] in permanent:
        raise CardsimError(f"--stopper must be one card that is not a permanent Perlagg (§3.2), got '{text}'")
    return cards[0]


# --- odds -------------------------------------------------------------------------------------------
def _class_codes(figure: str, hand_size: int) -> dict[str, int]:
    """Lower-case class names (without and with the code, e.g. 'pair of obers' and 'pair of obers (38)'; Gleich
    ranks also by letter, 'pair of os') and codes -> code of every Gleich or Hanger a hand of ``hand_size`` cards
    can hold (§5.2, §6.2)."""
    if figure == "gleich":
        codes = [16 * size + strength for size in range(2, hand_size + 1) for strength in range(9)]
    else:
        codes = [16 * size + top for size in range(2, min(hand_size, 9) + 1) for top in range(size - 1, 9)]
    name = P.gleich_name if figure == "gleich" else P.hanger_name
    keys = {}
    for c in codes:
        bare = name(c).rsplit(" (", 1)[0]
        *words, last = bare.split(" ")
        short = " ".join(words + [last if figure == "hanger" or last[0].isdigit() else f"{last[0]}s"])
        keys.update({key.lower(): c for key in (name(c), bare, short, f"{short} ({c})", str(c))})
    return keys


def parse_given(given, seat: int, players: int = D.SEATS, hand_size: int = D.HAND_SIZE) -> np.ndarray:
    """``--given`` texts "WHO FIGURE >= CLASS" or "... < CLASS" (WHO: opponents, partner(s), team or seatN;
    CLASS a name such as 'pair of Obers' or a code) as (k, 4) int64 conditions of `D._meets`, judged on the hands'
    L0 codes after the exchanges. Pairs that no deal can meet (">= X" on seats within those of "< Y", X >= Y)
    are refused here; conditions the cards rule out are found by the run (no deal accepted)."""
    import re

    given = checks.texts(given, "given", "opponents gleich >= pair of Obers")
    players = checks.whole(players, "--players")
    seat = checks.whole(seat, "--seat")
    if seat not in range(players):
        raise CardsimError(f"--seat must be a seat 0-{players - 1} of the {players} players, got {seat}")
    rows = []
    for text in given:
        match = re.fullmatch(r"\s*(opponents|partners?|team|seat\d)\s+(gleich|hanger)\s*(>=|<)\s*([^=<>\s].*?)\s*",
                             text, re.I)
        if not match:
            raise CardsimError(f"--given '{text}' is not understood; write e.g. 'opponents gleich >= pair of Obers' "
                               "(who: opponents, partner, team, seat0..; figure: gleich or hanger; >= or <)")
        who, figure, op, name = match.group(1).lower(), match.group(2).lower(), match.group(3), match.group(4)
        side = V.side_mask(players, seat) if players != D.SEATS else (1 << seat) | (1 << (seat + 2) % 4)
        everyone = (1 << players) - 1
        if who.startswith("seat") and int(who[4:]) >= players:
            raise CardsimError(f"--given '{text}': there is no {who} at {players} players (seats 0-{players - 1})")
        named = {"opponents": everyone & ~side, "team": side, "partner": side & ~(1 << seat),
                 "partners": side & ~(1 << seat)}
        seats = named[who] if who in named else 1 << int(who[4:])
        if seats == 0:
            raise CardsimError(f"--given '{text}': at {players} players each plays for himself, so there is no "
                               f"{who}; use opponents or seat0-seat{players - 1}")
        codes = _class_codes(figure, hand_size)
        if name.lower() not in codes:
            raise CardsimError(f"--given: '{name}' is not a {figure} class of a {hand_size}-card hand; e.g. "
                               + ", ".join((P.gleich_name if figure == "gleich" else P.hanger_name)(c)
                                           for c in sorted(set(codes.values()))[:4]) + ", ...")
        rows.append((seats, ("gleich", "hanger").index(figure), codes[name.lower()], int(op == "<")))
    for (text_a, a), (text_b, b) in itertools.product(zip(given, rows), repeat=2):
        if not a[3] and b[3] and a[1] == b[1] and a[0] & ~b[0] == 0 and a[2] >= b[2]:
            raise CardsimError(f"--given '{text_a}' and '{text_b}' contradict each other, so no deal can meet "
                               "both; drop or loosen one of them")
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


GESTRICHEN_OUTCOMES = ("win", "lose", "play")
"""§8.13 with both teams gestrichen: my team wins / loses the game by the figure rule, or the cards are played."""


FIGURE_OPTIONS = ("six_below_bells_seven",)
"""The `D.DealRules` options (the figure option A-24) `odds` and `stats` take in ``options`` (style and the exchange
rules have their own arguments)."""


def _deal_options(options) -> dict:
    """``options`` of `odds` and `stats` as a dict of `FIGURE_OPTIONS`; CardsimError otherwise."""
    options = option_items(options)
    for name, value in options.items():
        checks.flag(value, checks.one_of(name, "Perlaggen deal option", FIGURE_OPTIONS))
    return options


def _table_hand_size(hand: str, players: int) -> int:
    """The cards each of a 2-, 3- or 6-player table holds, read from the hand's length (six players: 4 or 5)."""
    held, sizes = len(hand.replace(",", " ").split()), tuple(V.VARIANTS[players][0])
    if held not in sizes:
        raise CardsimError(f"--hand must list {' or '.join(map(str, sizes))} cards at {players} players "
                           f"(§9.2-§9.4), got {held}")
    return held


def _evaluation(level: str, stakes) -> D.Evaluation:
    """`D.Evaluation` of ``level`` and ``stakes``; CardsimError for stakes other than 1:1 with level L0, which reads
    none (the command line refuses --stakes without --level L1)."""
    evaluation = D.Evaluation(level, stakes)
    if evaluation.level == "L0" and tuple(evaluation.stakes) != (1, 1):
        raise CardsimError(f"stakes apply to level L1 only (L0 reads none), got stakes {checks.shown(stakes)} with "
                           "level L0; give level='L1' or leave stakes out")
    return evaluation


def odds(hand: str, seat: int = 1, turnup: str | None = None, trump: str | None = None,
         cutter_took: str | None = None, exchanges=(), acorns: str | None = None, style: str = "innsbruck",
         exchange: str = "always", exchange_gives: str = "keep_figures", stopper: str | None = None,
         n: int = 200_000, seed=None, level: str = "L0", stakes=(1, 1), options: dict | None = None,
         players: int = D.SEATS, hand_size: int | None = None, given=(), both_gestrichen: bool = False,
         spiel: str | None = None, known: dict | None = None, **run_kw) -> pd.DataFrame:
    """P(win / stand / lose / void) of Gleich and Hanger (level L0 or L1) for the team of ``seat``;
    ``options``: further `D.DealRules` options ({"six_below_bells_seven": False}).

    ``n`` deals are sampled; those that contradict the public facts (a permanent Perlagg as the
    cutter's stopper, exchanges other than the given ones) or the ``given`` conditions (`parse_given`) are
    rejected, so the frame's ``n`` counts the accepted deals out of ``attempted``. Rows: figure, outcome, p,
    lo, hi, successes, n; with ``both_gestrichen`` also figure "gestrichen" (§8.13: win / lose the game by
    the figure rule, or play the tricks).

    ``players`` 2, 3 or 6 (`V.TableRules`, ``hand_size`` as there, by default the hand's length; L0 only): the side
    is the seat's team (seat % 2), with three players the seat alone (win = strictly the best, stand = tied best);
    ``spiel`` "greedy" adds the Spiel (G1 play-outs, `simcore.games.perlaggen_tables`; outcome void = "das Spiel ist
    hin"); with four players ``spiel`` ("dd", "greedy", "g2", "random" or "pimc") adds the Spiel rows of
    `analysis.games.perlaggen_play.add_spiel`.

    ``known``: {seat: cards} seen in other seats' hands after the exchanges, e.g. played (four players; the Spiel
    reads it too, except PIMC's); deals that do not put them there are rejected, as with ``given``.
    """
    hand = checks.card_text(hand, "--hand", "S6 LA LK L8 E10")
    options = option_items(options)  # the names: `_deal_options` with four players, refused with more
    players = checks.whole(players, "--players")
    hand_size = None if hand_size is None else checks.whole(hand_size, "--hand-size", 1)
    given = checks.texts(given, "given", "opponents gleich >= pair of Obers")
    both_gestrichen = checks.flag(both_gestrichen, "both_gestrichen")
    if spiel is not None:
        checks.one_of(spiel, "Spiel method", tuple(spiel_play.SPIEL_METHODS) + (spiel_play.PIMC,))
    if players == D.SEATS:
        options = _deal_options(options)
        if hand_size not in (None, D.HAND_SIZE):
            raise CardsimError("the four-player game deals 5 cards (§3.3); --hand-size is for --players 2, 3 or 6")
        rules, size = D.DealRules(style, exchange, exchange_gives, **options), D.HAND_SIZE
    else:
        if level != "L0":
            raise CardsimError(f"--players {players} gives L0 figure odds; --level L1 is for the four-player game")
        if options:
            raise CardsimError(f"options {', '.join(options)} are read by the four-player odds only")
        if hand_size is None and players in V.VARIANTS:
            hand_size = _table_hand_size(hand, players)
        rules = V.TableRules(players, style, hand_size, None, exchange, exchange_gives)
        size = rules.hand_size
    if both_gestrichen and players == 3:
        raise CardsimError("--both-gestrichen: §8.13 is a rule of two teams; three players play each for himself")
    if both_gestrichen:
        D.gestrichen_args(style)
    if spiel is not None and players != D.SEATS and spiel != "greedy":
        raise CardsimError(f"--spiel {spiel} is for the four-player game; at {players} players the Spiel is played "
                           "out by G1 only: --spiel greedy")
    facts = parse_known(hand, seat, turnup, trump, cutter_took, exchanges, acorns, style, exchange, stopper,
                        players, size, known)
    conditions = parse_given(given, facts.seat, players, size)
    seed = normalize_seed(seed)
    evaluation = _evaluation(level, stakes)
    question = None if players == D.SEATS else V.TableOdds(facts, rules, conditions)
    job = D.OddsJob(facts, rules, evaluation, conditions) if question is None else V.TableOddsJob(question)
    counts = runner.run(job, n, seed, **run_kw)
    if counts[0] == 0:
        raise none_fit(n, "fits these public facts" + (" and --known" if known else "")
                       + (" and --given" if given else ""),
                       ("the --known cards may be impossible with the exchanges, " if known else "")
                       + ("the --given conditions may be impossible with this hand, " if given else "")
                       + "the exchanges given may be impossible under the exchange policy")
    frames = [estimate_frame(RELATIVE_OUTCOMES, counts[1 + 4 * i: 5 + 4 * i], int(counts[0]), figure=fig)
              for i, fig in enumerate(FIGURES)]
    if both_gestrichen:
        frames.append(estimate_frame(GESTRICHEN_OUTCOMES, counts[9:12], int(counts[0]), figure="gestrichen"))
    if question is None:
        frames.append(estimate_frame(OWN_BEST, counts[12:16], int(counts[0]), figure="own"))
        rank, own_counts = _hand_rank(facts, rules, n, seed, run_kw)
        frames += [] if rank is None else [rank]
    if spiel is not None and question is not None:
        from simcore.games.perlaggen_tables import TableSpielJob

        played, won, hin = (int(c) for c in runner.run(TableSpielJob(question), n, seed, **run_kw))
        frames.append(estimate_frame(("win", "lose", "void"), [won, played - won - hin, hin], played, figure="spiel"))
    frame = pd.concat(frames, ignore_index=True).rename(columns={"label": "outcome"})
    frame = frame[["figure", "outcome", "p", "lo", "hi", "successes", "n"]]
    trump_letter = P.DECK.suits[facts.trump]
    own = P.figure_codes([P.DECK.mask(facts.hand)], style, trump_letter,
                         six_below_bells_seven=getattr(rules, "six_below_bells_seven", True))[0]
    frame.attrs.update(game=GAME, n=int(counts[0]), attempted=n, seed=seed, seat=facts.seat, team=facts.seat % 2,
                       style=style, hand=P.DECK.format_cards(facts.hand), trump=trump_letter,
                       turnup=None if facts.turned is None else P.DECK.token(facts.turned),
                       cutter_took=P.DECK.format_cards(facts.taken), acorns=P.DECK.format_cards(facts.exposed),
                       exchanges=[f"{s}:{P.DECK.token(g)}={P.DECK.token(t)}" for s, g, t in facts.exchanges or ()],
                       exchange=exchange, exchange_gives=exchange_gives, level=level,
                       stakes=list(evaluation.stakes) if level == "L1" else None,
                       stopper=None if facts.stopper is None else P.DECK.token(facts.stopper),
                       known={s: P.DECK.format_cards(c) for s, c in facts.held},
                       own_gleich=P.gleich_name(own[P.GLEICH]), own_hanger=P.hanger_name(own[P.HANGER]),
                       options=options, players=players, hand_size=size, given=list(given),
                       spiel=spiel if question is not None else None,
                       own_counts=own_counts if question is None else None)
    return frame if spiel is None or question is not None else spiel_play.add_spiel(frame, spiel, **run_kw)


def _hand_rank(facts, rules: D.DealRules, n: int, seed: int, run_kw: dict) -> tuple[pd.DataFrame | None, dict]:
    """Spec Q1 (in part): (the shares of the hands the seat holds after the exchanges, on deals as played with the
    same trump, a job of its own not conditioned on the public facts, whose best Gleich, best Hanger (L0), number
    of Perlaggen, their precedence and number of natural trumps are below and equal to the hand's, as rows of figure
    "rank", or None when none of the ``n`` deals has the trump; {"perlaggen", "precedence", "trumps"}: the hand's
    measures, the precedence as `perlaggen_hand_rank.hand_measures` keys it)."""
    job = HandRankJob(rules, facts.seat, facts.trump, P.DECK.mask(facts.hand))
    counts = runner.run(job, n, seed, **run_kw)
    frame = estimate_frame(list(RANK_TALLIES), counts[1:], int(counts[0]), figure="rank") if counts[0] else None
    return frame, {m: int(v) for m, v in zip(RANK_MEASURES[2:], job.own[2:])}


def odds_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    keys = ("game", "n", "attempted", "seed", "seat", "team", "style", "hand", "trump", "turnup", "cutter_took",
            "acorns", "exchanges", "stopper", "exchange", "exchange_gives", "level", "stakes")
    spiel = {k: a[k] for k in ("spiel", "concede", "pimc") if a.get(k) is not None}
    table = {k: a[k] for k in ("players", "hand_size") if a["players"] != D.SEATS}
    known = {"known": {str(s): c for s, c in a["known"].items()}} if a.get("known") else {}
    return {**{k: a[k] for k in keys}, **table, **({"given": a["given"]} if a["given"] else {}), **known, **spiel,
            **({"options": a["options"]} if a["options"] else {}),
            "own": {"gleich": a["own_gleich"], "hanger": a["own_hanger"],
                    **({"perlaggen": a["own_counts"]["perlaggen"], "natural_trumps": a["own_counts"]["trumps"]}
                       if a.get("own_counts") else {})},
            **_rank_json(frame),
            "estimates": estimates_dict(frame, ["figure", "outcome"])}


def _rank_json(frame: pd.DataFrame) -> dict:
    """{"rank": {"n"}}: the deals behind the rank.* estimates (`_hand_rank`), when there are any."""
    rows = frame[frame.figure == "rank"]
    return {"rank": {"n": int(rows.n.iloc[0])}} if len(rows) else {}


def _odds_title(a: dict) -> str:
    """First line of the odds: style, table, level and whose odds (seat, side)."""
    level = a["level"] + (f" (stakes {a['stakes'][0]:g}:{a['stakes'][1]:g})" if a["stakes"] else "")
    players, seat = a["players"], a["seat"]
    if players == D.SEATS:
        return (f"Perlaggen ({a['style']}) {level} figure odds for seat {seat} ({SEAT_NAMES[seat]}, "
                f"team {'D' if a['team'] == 0 else 'O'}){options_note(a['options'])}")
    name = table_seat_names(players)[seat]
    side = ("each for himself" if players == 3 else "alone" if players == 2 else
            f"team {'DO'[a['team']]}: seats {', '.join(map(str, range(a['team'], players, 2)))}")
    return (f"Perlaggen ({a['style']}), {players} players, {a['hand_size']} cards each, {level} figure odds for "
            f"seat {seat} ({name}, {side}){options_note(a['options'])}")


def format_odds(frame: pd.DataFrame) -> str:
    a = frame.attrs
    facts = [f"turn-up {a['turnup']}" if a["turnup"] else "turn-up unknown", f"trump {a['trump']}",
             f"cutter showed {a['cutter_took'] or 'nothing'}"]
    if a["stopper"]:
        facts.append(f"stopper under your packet {a['stopper']}")
    if a["acorns"]:
        facts.append(f"acorns laid aside {a['acorns']}")
    facts.append("exchanges " + (", ".join(a["exchanges"]) or "none") if a["turnup"] else "exchanges unknown")
    facts += [f"seat {s} holds {c}" for s, c in a.get("known", {}).items()]
    lines = [_odds_title(a),
             f"hand {a['hand']}: best Gleich {a['own_gleich']}, best Hanger {a['own_hanger']}",
             "; ".join(facts), *(f"given {text}" for text in a["given"]),
             f"n = {a['n']:,} deals consistent with the public facts"
             + (" and --known" if a.get("known") else "") + (" and --given" if a["given"] else "")
             + f" of {a['attempted']:,}, seed {a['seed']}, 95% Wilson intervals", "",
             f"{'figure':<8}" + "".join(f"{o:>26}" for o in RELATIVE_OUTCOMES)]
    for fig in FIGURES:
        rows = frame[frame.figure == fig].set_index("outcome")
        lines.append(f"{fig.capitalize():<8}" + "".join(f"{format_cell(rows.loc[o]):>26}" for o in RELATIVE_OUTCOMES))
    if a["players"] != D.SEATS:
        lines += _table_spiel_lines(frame)
    elif a.get("spiel"):
        lines += spiel_play.spiel_lines(frame)
    if a["players"] == 3:
        lines.append("(3 players, each for himself: win = your figure is the single best, stand = tied for the best "
                     "(the figure stands), lose = another's is better)")
    rows = frame[frame.figure == "own"].set_index("outcome")
    if len(rows):
        lines += ["", "Your own figure at the table (L0, spec Q2-Q3): the single best, or tied for the best",
                  f"{'':<8}{'single best':>26}{'tied best':>26}"]
        lines += [f"{fig.capitalize():<8}" + "".join(f"{format_cell(rows.loc[f'{fig}.{kind}']):>26}"
                                                     for kind in ("single", "tied")) for fig in FIGURES]
    rows = frame[frame.figure == "rank"].set_index("outcome")
    if len(rows):
        held = a["own_counts"]
        wild = [c for c in P.perlaggen(a["style"], a["trump"]) if P.DECK.token(c) in a["hand"].split()]
        perlaggen = (f"{held['perlaggen']} Perlagg{'en' if held['perlaggen'] != 1 else ''}"
                     + (f" {P.DECK.format_cards(wild)}" if wild else ""))
        trumps = f"{held['trumps']} natural trump{'s' if held['trumps'] != 1 else ''}"
        lines += ["", f"Your hand (L0: best Gleich, best Hanger; {perlaggen}, {trumps}) among the hands seat "
                      f"{a['seat']} holds after the exchanges (spec Q1, in part)",
                  f"n = {int(rows.n.iloc[0]):,} of {a['attempted']:,} deals as played have trump {a['trump']}; a job "
                  "of its own, not conditioned on the turn-up, the exchanges, --known or --given",
                  f"{'':<10}{'below yours':>26}{'equal to yours':>26}"]
        lines += [f"{measure.capitalize():<10}" + "".join(f"{format_cell(rows.loc[f'{measure}.{kind}']):>26}"
                                                          for kind in ("below", "equal")) for measure in RANK_MEASURES]
        lines.append("(Precedence: the Perlaggen compared by their precedence, §2.2, the highest first, then the "
                     "next; no Perlagg is the lowest)")
    rows = frame[frame.figure == "gestrichen"]
    if len(rows):
        least, length_only = D.gestrichen_args(a["style"])
        rule = f"a figure of >= {least} cards wins the game" + (", the longer one" if length_only else "")
        lines += ["", f"Both teams gestrichen (§8.13: {rule}; else the cards are played)"]
        labels = {"win": "your team wins the game", "lose": "the opponents win it", "play": "the cards are played"}
        lines += [f"  {labels[r['outcome']]:<26}{format_cell(r)}" for _, r in rows.iterrows()]
    return "\n".join(lines)


def _table_spiel_lines(frame: pd.DataFrame) -> list[str]:
    """The Spiel row of a 2-, 3- or 6-player odds frame and its note (or the note that it was not asked)."""
    a = frame.attrs
    need = a["hand_size"] // 2 + 1
    rows = frame[frame.figure == "spiel"].set_index("outcome")
    if not len(rows):
        return []
    cells = "".join(f"{format_cell(rows.loc[o]) if o in rows.index else '-':>26}" for o in RELATIVE_OUTCOMES)
    return [f"{'Spiel':<8}{cells}",
            f"(Spiel: n = {int(rows.n.iloc[0]):,} deals of a second job on the same seed (partly the same deals), "
            f"every one played out by the greedy policy G1 of spec §11.7 at every seat, no bets; seat 1 leads; "
            f"{need} tricks of {a['hand_size']} win it; void = das Spiel ist hin, nobody takes them)"]


# --- table statistics -------------------------------------------------------------------------------
def _mean_frame(hist: np.ndarray, deals: int, names=SEAT_NAMES) -> pd.DataFrame:
    """Per seat (row of hist, named by ``names``): mean Perlaggen with a normal 95% interval, and P(none)
    (p, lo, hi) with its Wilson interval."""
    rows = []
    values = np.arange(hist.shape[1])
    for seat, name in enumerate(names):
        m = mean_interval(float(hist[seat] @ values), float(hist[seat] @ values ** 2), deals)
        none = estimate_frame(["none"], hist[seat, :1], deals).iloc[0]
        rows.append({"seat": seat, "name": name, "mean": m["mean"], "mean_lo": m["lo"], "mean_hi": m["hi"],
                     "p": none["p"], "lo": none["lo"], "hi": none["hi"], "n": deals})
    return pd.DataFrame(rows)


def _outcome_frame(parts_outcome: np.ndarray, parts_both: np.ndarray, deals: int) -> pd.DataFrame:
    """P(team D / team O / stand / void) per figure and P(one team wins both), as estimate rows."""
    return pd.concat([estimate_frame(OUTCOMES, parts_outcome[f], deals, figure=fig) for f, fig in enumerate(FIGURES)]
                     + [estimate_frame(["one team wins both"], parts_both, deals, figure="both")], ignore_index=True)


def _team_perlaggen_frame(counts: np.ndarray) -> pd.DataFrame:
    """Per team, number j of Perlaggen its two hands hold and figure: P(win / stand / lose / void | j)
    from counts (2, 9, 2, 4); rows only for the j that occurred."""
    frames = []
    for team in range(2):
        for j in range(counts.shape[1]):
            deals = int(counts[team, j, 0].sum())
            if deals:
                frames += [estimate_frame(RELATIVE_OUTCOMES, counts[team, j, f], deals, team="DO"[team],
                                          perlaggen=j, figure=fig) for f, fig in enumerate(FIGURES)]
    return pd.concat(frames, ignore_index=True)


def stats(style: str = "innsbruck", n: int = 2_000_000, seed=None, exchange: str = "always",
          exchange_gives: str = "keep_figures", level: str = "L0", stakes=(1, 1), options: dict | None = None,
          **run_kw) -> dict[str, pd.DataFrame]:
    """Table-level distributions of deals as played (spec §11.2), figures at level L0 or L1 (§11.6).

    trump, cutter_k, deal (turned Perlagg, exchanges, upgrades, acorn swaps): P per deal;
    perlaggen_by_seat: mean and P(none) per seat after the exchanges; best_size: P(the table's
    best figure has this many cards); outcome: P(team D / team O / stand / void) per figure, and
    one team winning both, at ``level``; outcome_l0 (level L1 only): the same at L0, for the cost of
    the Gleich/Hanger conflict (Q6); seat_best: P(the seat's figure is strictly / tied best at the
    table, L0); team_perlaggen: P(a team wins / ... a figure | its two hands hold j Perlaggen), at ``level``.
    ``options``: further `D.DealRules` options, as for `odds`.
    """
    options = _deal_options(options)
    rules = D.DealRules(style, exchange, exchange_gives, **options)
    evaluation = _evaluation(level, stakes)
    seed = normalize_seed(seed)
    deals, parts = D.StatsJob.split(runner.run(D.StatsJob(rules, evaluation), n, seed, **run_kw))
    suits = P.trump_suits(style)
    idx = [P.DECK.suits.index(s) for s in suits]
    deal_events = ("turned Perlagg", "exchanged by dealer", "exchanged by partner", "upgrade by dealer",
                   "upgrade by partner", "acorn swap")[:6 if style == "eichel" else 3]
    n_k = len(D.cutter_k_exact(style))
    sizes = pd.concat([estimate_frame(["none", "1", "2", "3", "4", "5"], parts["best_size"][f], deals, figure=fig)
                       for f, fig in enumerate(FIGURES)], ignore_index=True)
    seat_best = pd.concat([estimate_frame(["strictly best", "tied best"], parts["seat_best"][s, f], deals,
                                          seat=s, name=SEAT_NAMES[s], figure=fig)
                           for s in range(D.SEATS) for f, fig in enumerate(FIGURES)], ignore_index=True)
    tables = {
        "trump": estimate_frame(list(suits), parts["trump"][idx], deals),
        "cutter_k": estimate_frame([str(k) for k in range(n_k)], parts["cutter_k"][:n_k], deals),
        "deal": estimate_frame(deal_events, np.concatenate([parts["turned_perlagg"], parts["exchanges"]]), deals),
        "perlaggen_by_seat": _mean_frame(parts["perlaggen"], deals),
        "best_size": sizes[sizes.label.isin(["none", "2", "3", "4", "5"])].reset_index(drop=True),
        "outcome": _outcome_frame(parts["level_outcome"], parts["level_both"], deals),
        "seat_best": seat_best,
        "team_perlaggen": _team_perlaggen_frame(parts["team_perlaggen"]),
        "gestrichen": estimate_frame(list(GESTRICHEN_LABELS), parts["gestrichen"], deals),
    }
    if level == "L1":
        tables["outcome_l0"] = _outcome_frame(parts["outcome"], parts["both"], deals)
    for table in tables.values():
        table.attrs.update(game=GAME, n=deals, seed=seed, style=style, exchange=exchange, exchange_gives=exchange_gives,
                           level=level, stakes=list(evaluation.stakes) if level == "L1" else None, options=options)
    return tables


def stats_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["trump"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "style": a["style"], "exchange": a["exchange"],
            "exchange_gives": a["exchange_gives"], "level": a["level"], "stakes": a["stakes"],
            **({"options": a["options"]} if a["options"] else {}), "tables": table_records(tables)}


def _seat_lines(tables: dict[str, pd.DataFrame]) -> list[str]:
    """Text lines of the Perlaggen per seat and the size of the table's best figure."""
    lines = ["", "Perlaggen per seat after the exchanges", f"  {'seat':<10}{'mean':>26}{'P(none)':>26}"]
    for _, r in tables["perlaggen_by_seat"].iterrows():
        mean = f"{r['mean']:.4f} [{r['mean_lo']:.4f},{r['mean_hi']:.4f}]"
        lines.append(f"  {r['name']:<10}{mean:>26}{format_cell(r):>26}")
    lines += ["", "Size of the best figure at the table"]
    return lines + [f"  {r['figure']:<8}{r['label']:<6}{format_cell(r)}" for _, r in tables["best_size"].iterrows()]


def table_seat_names(players: int) -> list[str]:
    """Seat names of a 2-, 3- or 6-player table: dealer 0, first hand 1, ..., cutter players-1."""
    return ["dealer"] + [f"seat {s}" for s in range(1, players - 1)] + ["cutter"]


def table_stats(players: int = 3, style: str = "innsbruck", hand_size: int | None = None, packets: str | None = None,
                n: int = 1_000_000, seed=None, exchange: str = "always", exchange_gives: str = "keep_figures",
                **run_kw) -> dict[str, pd.DataFrame]:
    """Per-seat statistics of 2-, 3- or 6-player deals and Strafperlaggen as played (§9.2-§9.5), L0.

    deal: P(thrown in) per deal, then per played deal P(turned Perlagg), P(seat s took it), P(upgrade),
    P(acorn swap); trump, cutter_k: per played deal; perlaggen_by_seat: mean and P(none) after the
    exchanges; best_size: size of the table's best figure; seat_best: P(the seat's figure is strictly /
    tied best at the table) — with two or three players that is who wins the figure; team (six
    players): P(team D = seats 0, 2, 4 / team O / stand / void) per figure.
    """
    players = checks.whole(players, "--players")
    hand_size = None if hand_size is None else checks.whole(hand_size, "--hand-size", 1)
    rules = V.TableRules(players, style, hand_size, packets, exchange, exchange_gives)
    seed = normalize_seed(seed)
    deals, parts = V.TableStatsJob.split(runner.run(V.TableStatsJob(rules), n, seed, **run_kw))
    played = deals - int(parts["thrown"][0])
    if played == 0:
        raise CardsimError(f"all {deals:,} deals were thrown in; ask for a larger --n")
    names = table_seat_names(players)
    suits = P.trump_suits(style)
    swaps = [f"exchanged by {names[s]}" for s in rules.exchangers()]
    deal = [estimate_frame(["thrown in (no trump card)"], parts["thrown"], deals)] if players == 6 else []
    deal += [estimate_frame(["turned Perlagg"] + swaps, np.concatenate([parts["turned_perlagg"],
                                                                       parts["swapper"][1 + rules.exchangers()]]),
                            played)]
    if style in D.EICHEL_DEALS + ("straf",):
        deal.append(estimate_frame(["upgrade", "acorn swap"], np.concatenate([parts["upgrades"], parts["acorn_swaps"]]),
                                   played))
    k_max = int(np.nonzero(parts["cutter_k"])[0].max())
    sizes = pd.concat([estimate_frame(["none"] + [str(k) for k in range(1, 8)], parts["best_size"][f], played,
                                      figure=fig) for f, fig in enumerate(FIGURES)], ignore_index=True)
    tables = {
        "deal": pd.concat(deal, ignore_index=True),
        "trump": estimate_frame(list(suits), parts["trump"][[P.DECK.suits.index(t) for t in suits]], played),
        "cutter_k": estimate_frame([str(k) for k in range(k_max + 1)], parts["cutter_k"][:k_max + 1], played),
        "perlaggen_by_seat": _mean_frame(parts["perlaggen"][:players], played, names),
        "best_size": sizes[(sizes.label == "none") | (sizes.successes > 0)].reset_index(drop=True),
        "seat_best": pd.concat([estimate_frame(["strictly best", "tied best"], parts["seat_best"][s, f], played,
                                               seat=s, name=names[s], figure=fig)
                                for s in range(players) for f, fig in enumerate(FIGURES)], ignore_index=True),
    }
    if players == 6:
        tables["team"] = pd.concat([estimate_frame(OUTCOMES, parts["team"][f], played, figure=fig)
                                    for f, fig in enumerate(FIGURES)], ignore_index=True)
    for table in tables.values():
        table.attrs.update(game=GAME, n=deals, played=played, seed=seed, players=players, style=style,
                           hand_size=rules.hand_size, packets=rules.packets, exchange=exchange,
                           exchange_gives=exchange_gives)
    return tables


def table_stats_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["deal"].attrs
    keys = ("game", "n", "played", "seed", "players", "style", "hand_size", "packets", "exchange", "exchange_gives")
    return {**{k: a[k] for k in keys}, "level": "L0", "tables": table_records(tables)}


def format_table_stats(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["deal"].attrs
    lines = [f"Perlaggen ({a['style']}), {a['players']} players, {a['hand_size']} cards each, packets {a['packets']}: "
             f"n = {a['n']:,} deals ({a['played']:,} played), seed {a['seed']}, exchange {a['exchange']} "
             f"({a['exchange_gives']}), L0, 95% intervals"]
    for name, title in (("deal", "Deal"), ("trump", "Trump suit"), ("cutter_k", "Perlaggen the cutter took")):
        lines += ["", title] + [f"  {r['label']:<28}{format_cell(r)}" for _, r in tables[name].iterrows()]
    lines += _seat_lines(tables)
    lines += ["", "Seat's figure is the best at the table"]
    lines += [f"  {r['name']:<9}{r['figure']:<8}{r['label']:<15}{format_cell(r)}"
              for _, r in tables["seat_best"].iterrows()]
    if "team" in tables:
        lines += ["", "Figure won by (team D = seats 0, 2, 4)"]
        lines += [f"  {r['figure']:<8}{r['label']:<8}{format_cell(r)}" for _, r in tables["team"].iterrows()]
    return "\n".join(lines)


def format_stats(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["trump"].attrs
    level = a["level"] + (f" (stakes {a['stakes'][0]:g}:{a['stakes'][1]:g})" if a["stakes"] else "")
    lines = [f"Perlaggen ({a['style']}) table statistics, {level}: n = {a['n']:,} deals as played, seed {a['seed']}, "
             f"exchange {a['exchange']} ({a['exchange_gives']}){options_note(a['options'])}, 95% intervals"]
    sections = (("trump", "Trump suit"), ("cutter_k", "Perlaggen the cutter took"), ("deal", "Turn-up and exchanges"))
    for name, title in sections:
        lines += ["", title] + [f"  {r['label']:<22}{format_cell(r)}" for _, r in tables[name].iterrows()]
    lines += _seat_lines(tables)
    won_by = [("outcome", f"Figure won by ({a['level']})")]
    if "outcome_l0" in tables:
        won_by.append(("outcome_l0", "Figure won by at L0 (each figure with every free Perlagg)"))
    for name, title in won_by:
        lines += ["", title] + [f"  {r['figure']:<8}{r['label']:<20}{format_cell(r)}"
                                for _, r in tables[name].iterrows()]
    lines += ["", "Seat's figure is the best at the table (L0)"]
    lines += [f"  {r['name']:<9}{r['figure']:<8}{r['label']:<15}{format_cell(r)}"
              for _, r in tables["seat_best"].iterrows()]
    lines += ["", f"Team wins the figure, by Perlaggen in the team's two hands ({a['level']})",
              f"  {'team':<5}{'j':>3}{'Gleich':>26}{'Hanger':>26}{'n':>12}"]
    wins = tables["team_perlaggen"].query("label == 'win'")
    for (team, j), rows in wins.groupby(["team", "perlaggen"], sort=False):
        cells = "".join(f"{format_cell(r):>26}" for _, r in rows.iterrows())
        lines.append(f"  {team:<5}{j:>3}{cells}{int(rows['n'].iloc[0]):>12,}")
    least, length_only = D.gestrichen_args(a["style"])
    lines += ["", f"Both teams gestrichen (§8.13, spec Q14; L0): the best figure of {least}+ cards wins the game"
                  + (" (length only, A-26)" if length_only else "")]
    lines += [f"  {GESTRICHEN_LABELS[r['label']].format(least=least):<44}{format_cell(r)}"
              for _, r in tables["gestrichen"].iterrows()]
    return "\n".join(lines)


OWN_BEST = ("gleich.single", "gleich.tied", "hanger.single", "hanger.tied")
"""`odds`' rows of the seat's own L0 figure: the single best at the table, or tied for the best (four players)."""
GESTRICHEN_LABELS = {"team_d": "team D's figure wins (seats 0 and 2)", "team_o": "team O's figure wins",
                     "none": "nobody holds a {least}+ figure: play", "tie": "the best ones tie: play"}
"""`stats`' both-gestrichen rows (`perlaggen_deal.STATS_PARTS["gestrichen"]` order) and their text."""


# --- exact enumeration (§11.1) -------------------------------------------------------------------
def _all_hands() -> np.ndarray:
    """Every 5-card hand of the 33-card pack as masks: (237336,) uint64."""
    return subset_masks(range(P.DECK.n_cards), D.HAND_SIZE)


def _size_rows(codes: np.ndarray, **columns) -> list[dict]:
    """Hands per figure size (code // 16; 0 = none) as rows."""
    sizes = np.bincount(codes.astype(np.int64) // 16, minlength=6)
    return [{**columns, "size": "none" if size == 0 else str(size), "hands": int(sizes[size]),
             "p": sizes[size] / codes.size} for size in (0, 2, 3, 4, 5)]


def exact() -> dict[str, pd.DataFrame]:
    """Exact facts of §11.1: the cutter's Perlaggen, Perlaggen per hand and the best-figure sizes of
    all C(33,5) hands per style and trump, with Perlaggen used for each figure alone or not at all."""
    hands = _all_hands()
    cutter = [{"style": style, "k": k, "fraction": str(f), "p": float(f)}
              for style in P.STYLES for k, f in enumerate(D.cutter_k_exact(style))]
    held, figures = [], {"gleich": [], "hanger": []}
    every_hand = hands
    for style in P.STYLES:
        hands = every_hand if P.has_weli(style) else every_hand[(every_hand >> np.uint64(P.WELI)) & np.uint64(1) == 0]
        for trump in P.trump_suits(style):
            pmask = np.uint64(P.perlagg_mask(style, trump))
            counts = np.bincount(np.bitwise_count(hands & pmask), minlength=6)
            held += [{"style": style, "trump": trump, "perlaggen": int(bin(int(pmask)).count("1")), "j": j,
                      "hands": int(counts[j]), "p": counts[j] / hands.size, "of": int(hands.size)} for j in range(6)]
            for kind, masks in (("with P", hands), ("natural", hands & ~pmask)):
                codes = P.figure_codes(masks, style, trump)
                for f, fig in enumerate(FIGURES):
                    figures[fig] += _size_rows(codes[:, f], style=style, trump=trump, kind=kind)
    tables = {"deals": _deal_counts(), "cutter_k": pd.DataFrame(cutter), **_trump_card_tables(),
              "perlaggen_in_hand": pd.DataFrame(held),
              "best_gleich": pd.DataFrame(figures["gleich"]), "best_hanger": pd.DataFrame(figures["hanger"])}
    for table in tables.values():
        table.attrs.update(game=GAME, hands=int(every_hand.size))
    return tables


def _deal_counts() -> pd.DataFrame:
    """Spec §11.1's counts: hands of every size from the 33 cards (and 5 from the 32 besides the trump card), and
    deals to 4, 3 and 2 players (hands told apart by seat, the cards left unordered)."""
    cards = D.N_CARDS
    sizes = {D.SEATS: D.HAND_SIZE} | {players: min(sizes) for players, (sizes, _) in V.VARIANTS.items()
                                      if players != 6}
    rows = [{"quantity": f"{size}-card hands from the {cards} cards", "count": math.comb(cards, size)}
            for size in sorted({*sizes.values(), *V.VARIANTS[6][0]})]
    rows.append({"quantity": f"{D.HAND_SIZE}-card hands from the {cards - 1} cards besides the trump card",
                 "count": math.comb(cards - 1, D.HAND_SIZE)})
    for players, size in sorted(sizes.items(), reverse=True):
        rows.append({"quantity": f"{players}-player deals ({players} x {size} cards)",
                     "count": counting.multinomial(cards, (size,) * players + (cards - players * size,))})
    return pd.DataFrame(rows)


ACORNS_SHOWN = 5
"""`format_exact` prints P(j acorns laid aside) for j below this and P(this many or more), as spec §11.1."""


def _trump_card_tables() -> dict[str, pd.DataFrame]:
    """Spec §11.1's trump card, ignoring the cut, per four-player style (`perlaggen_deal.trump_card_exact`):
    ``trump_suit`` (style, suit, fraction, p), ``turned_perlagg`` (style, fraction, p) and, for the Eichel deals,
    ``acorns_before`` (style, j acorns laid aside, fraction, p)."""
    suits, perlagg, acorns = [], [], []
    for style in D.FOUR_PLAYER_STYLES:
        by_suit, turned, before = D.trump_card_exact(style)
        suits += [{"style": style, "suit": suit, "fraction": str(p), "p": float(p)} for suit, p in by_suit.items()]
        perlagg.append({"style": style, "fraction": str(turned), "p": float(turned)})
        if style in D.EICHEL_DEALS:
            acorns += [{"style": style, "j": j, "fraction": str(p), "p": float(p)} for j, p in before.items()]
    return {"trump_suit": pd.DataFrame(suits), "turned_perlagg": pd.DataFrame(perlagg),
            "acorns_before": pd.DataFrame(acorns)}


def exact_json(tables: dict[str, pd.DataFrame]) -> dict:
    return {"game": GAME, "hands": tables["cutter_k"].attrs["hands"],
            "tables": table_records(tables)}


def format_exact(tables: dict[str, pd.DataFrame]) -> str:
    lines = [f"Perlaggen exact facts (§11.1): enumeration of all {tables['cutter_k'].attrs['hands']:,} hands", "",
             "Hands and deals"]
    lines += [f"  {r.quantity:<52}{r.count:>30,}" for r in tables["deals"].itertuples()]
    lines += ["", "Perlaggen the cutter takes"]
    lines += [f"  {r['style']:<10} k={r['k']}  {r['fraction']:>12}  {r['p']:.6f}"
              for _, r in tables["cutter_k"].iterrows()]
    lines += ["", "The trump card (ignoring the cut): the trump suit, and P(the trump card is a Perlagg)"]
    perlagg = tables["turned_perlagg"].set_index("style")
    for style, rows in tables["trump_suit"].groupby("style", sort=False):
        cells = "  ".join(f"{r.suit} {r.fraction:>5} = {r.p:.4f}" for r in rows.itertuples())
        lines.append(f"  {style:<14}{cells:<70}   Perlagg {perlagg.fraction[style]:>5} = {perlagg.p[style]:.4f}")
    lines += ["", "Eichel deals: acorns laid aside before the trump card"]
    for style, rows in tables["acorns_before"].groupby("style", sort=False):
        shares = [r.p for r in rows.itertuples() if r.j < ACORNS_SHOWN] + [rows.p[rows.j >= ACORNS_SHOWN].sum()]
        lines.append(f"  {style:<14}" + "  ".join(f"{j}{'+' if j == ACORNS_SHOWN else ''}: {p:.4f}"
                                                  for j, p in enumerate(shares)))
    lines += ["", "Perlaggen in one hand (trump fixed)"]
    held = tables["perlaggen_in_hand"]
    for (style, trump), rows in held.groupby(["style", "trump"], sort=False):
        lines.append(f"  {style:<10} {trump}  " + "  ".join(f"{j}:{h:,}" for j, h in zip(rows["j"], rows["hands"])))
    for fig in FIGURES:
        lines += ["", f"Best {fig.capitalize()} size (hands: none, 2, 3, 4, 5)"]
        for (style, trump, kind), rows in tables[f"best_{fig}"].groupby(["style", "trump", "kind"], sort=False):
            lines.append(f"  {style:<10} {trump} {kind:<8}" + "".join(f"{h:>9,}" for h in rows["hands"]))
    return "\n".join(lines)


# --- commands ---------------------------------------------------------------------------------------
def _stakes(text: str) -> tuple[float, float]:
    """argparse type: '2:1' -> (2.0, 1.0), the values of Gleich and Hanger (1..7 each)."""
    parts = text.split(":")
    try:
        if len(parts) != 2 or None in map(decimal_value, parts):
            raise CardsimError(f"expected G:H such as 1:1 (values of Gleich and Hanger), got '{text}'")
        return L.check_stakes(parts)
    except CardsimError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--style", action=NotedStore, default="innsbruck", type=one_of(P.STYLES),
                        help="innsbruck (default), eichel (§9.1), schlanders (the S8 wild, A-04), schlanders_e8 (the "
                             "E8 wild, as the seed S1 reads) or deutschnofen (§9.6); straf is the "
                             "three-player Strafperlaggen (§9.5), see 'cardsim stats perlaggen --players 3'")
    parser.add_argument("--exchange-policy", action=NotedStore, default="always", type=one_of(D.EXCHANGE_POLICIES),
                        help="A-07: team D exchanges a turned Perlagg whenever allowed (default) or never")
    parser.add_argument("--exchange-gives", action=NotedStore, default="keep_figures", type=one_of(D.GIVE_POLICIES),
                        help="A-07: which natural card is given up (default: lowest keeping the best figures)")
    parser.add_argument("--level", default="L0", type=one_of(L.LEVELS),
                        help="§11.6 figure level: L0 each figure with every free Perlagg (default), L1 each "
                             "player one identity per Perlagg, the teams' choices solved as a matrix game")
    parser.add_argument("--stakes", default=None, type=_stakes, metavar="G:H",
                        help="L1: values of Gleich and Hanger the teams play for (default 1:1, both unbet)")


def _stakes_of(args: argparse.Namespace) -> tuple[float, float]:
    """--stakes (default 1:1); CardsimError when given without --level L1, which alone uses it."""
    check_only_with(["--stakes"] if args.stakes is not None else [], "--level L1", args.level == "L1")
    return (1, 1) if args.stakes is None else args.stakes


def _add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help='your cards after any exchange, e.g. "S6 LA LK L8 E10"')
    parser.add_argument("--seat", type=whole_number, default=1,
                        help="your seat: dealer 0, leader 1, partner 2, cutter 3 (other tables: dealer 0, "
                             "seat 1 leads, the cutter is the last seat)")
    parser.add_argument("--turnup", default=None, help="the turned-up trump card (its suit is trump)")
    parser.add_argument("--trump", default=None, help="the trump suit E/L/H/S when the turned card is not known")
    parser.add_argument("--cutter-took", default=None, help='the Perlaggen the cutter showed, e.g. "S7" (default none)')
    parser.add_argument("--exchange", action="append", default=[], metavar="SEAT:GAVE[=TOOK]",
                        help="a swap of team D, e.g. '0:H9' (dealer gave H9 for the turn-up) or '2:E10=EU'; "
                             "repeatable, in the order played (an Eichel upgrade before the acorn swap that takes "
                             "its card); default: no exchange")
    parser.add_argument("--acorns", default=None, help="Eichel: acorns laid aside before the trump card")
    parser.add_argument("--stopper", default=None, help="cutter only: the card he saw under his packet (§3.2)")
    parser.add_argument("--players", type=one_of(D.PLAYER_COUNTS), action=NotedStore, default=4,
                        help="players (§9.2-§9.5): 4 (default), 2, 3 (each for himself; --style straf for "
                             "Strafperlaggen) or 6 (two teams of three); L0 figures, the Spiel by --spiel greedy")
    parser.add_argument("--hand-size", type=positive_int, action=NotedStore, default=None,
                        help="cards each: 7 with 2 or 3 players, 4 (default) or 5 with 6 players")
    parser.add_argument("--known", action="append", metavar="SEAT:CARDS",
                        help='cards seen in another seat\'s hand after the exchanges (e.g. played), "2:LA"; '
                             "repeatable; four players, not with --spiel pimc (deals without them are rejected)")
    parser.add_argument("--given", action="append", default=[], metavar="'WHO FIGURE >= CLASS'",
                        help="condition on what a bet reveals, e.g. 'opponents gleich >= pair of Obers' (WHO: "
                             "opponents, partner, team, seat0..; >= or <; judged at L0 after the exchanges); "
                             "repeatable; deals failing it are rejected")
    parser.add_argument("--both-gestrichen", action="store_true",
                        help="also §8.13 (Q14): P(your team wins / loses the game by the best figure of >= 3 "
                             "cards (Eichel 4), or the cards are played)")
    spiel_play.add_spiel_arguments(parser)
    _add_rule_arguments(parser)
    add_run_arguments(parser, default_n=200_000)
    add_option_argument(parser, GAME)


RULE_FLAGS = {"style": "style", "exchange": "exchange_policy", "exchange_gives": "exchange_gives"}
"""Options of the deal rules with a flag of their own (`analysis.commands.command_options`)."""
DEAL_READS = ("style", "exchange", "exchange_gives")
"""The options every simulated deal reads. Not six_below_bells_seven: with every Perlagg free (L0, L1) it changes only
figures of 9 cards or more, so no odds or statistics of hands of 4 to 7 cards (it tells in the betting game, where a
Weli played without a baptism counts as the natural S6, A-06)."""


def _odds_reads(args: argparse.Namespace) -> tuple[str, ...]:
    """The options ``cardsim odds perlaggen`` reads: the deal's, players, and at six the hand size
    six_player_cards."""
    return DEAL_READS + ("players",) + (("six_player_cards",) if args.players == 6 else ())


def _odds_of(args: argparse.Namespace) -> pd.DataFrame:
    rules = command_options(args, GAME, "odds", _odds_reads, RULE_FLAGS | {"players": "players",
                                                                          "six_player_cards": "hand_size"})
    given = option_items(args.option).get("six_player_cards")
    if given is not None and args.hand_size is None:  # at its default 4 the option sets no flag: the hand would tell
        args.hand_size = given
    options = spiel_play.pimc_options(args)  # checks --concede-below and the PIMC options before any run
    four = args.players == D.SEATS
    frame = odds(args.hand, args.seat, args.turnup, args.trump, args.cutter_took, tuple(args.exchange), args.acorns,
                 args.style, args.exchange_policy, args.exchange_gives, args.stopper, args.n, args.seed,
                 args.level, _stakes_of(args), rules, args.players, args.hand_size, tuple(args.given),
                 args.both_gestrichen, None if four else args.spiel, seat_cards(args.known), **run_options(args))
    return frame if args.spiel is None or not four else spiel_play.add_spiel(frame, args.spiel, options,
                                                                            **run_options(args))


def _run_odds(args: argparse.Namespace) -> int:
    return emit(args, _odds_of(args), odds_json, format_odds)


def _odds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """The odds as estimates gleich.win, ..., hanger.void (for sweeps)."""
    return long_frame(_odds_of(args), ["figure", "outcome"])


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exact", action="store_true",
                        help="exact per-hand facts of §11.1 by enumeration (no sampling)")
    parser.add_argument("--players", type=one_of(D.PLAYER_COUNTS), action=NotedStore, default=4,
                        help="players (§9.2-§9.5): 4 (default, partnerships), 2, 3 (each for himself; --style "
                             "straf for Strafperlaggen) or 6 (two teams of three)")
    parser.add_argument("--hand-size", type=positive_int, action=NotedStore, default=None,
                        help="cards each: 7 with 2 or 3 players, 4 (default) or 5 with 6 players")
    parser.add_argument("--packets", action=NotedStore, default=None, type=one_of(tuple(V.PACKETS)),
                        help="packet schedule, T = trump turned: 2-3-T-2 (default for 7 cards), 3-T-4 (Straf), "
                             "2-2 (6 players, 4 cards), 2-3 (6 players, 5 cards)")
    parser.add_argument("--card-values", action="store_true",
                        help="Q8: what each card is worth to its holder's team: P(win Gleich, Hanger, Spiel) with it "
                             "minus the same deals with it swapped for a random card of the face-down stock (four "
                             "players, L0; default --n 200,000, 4,000 with --spiel dd)")
    parser.add_argument("--spiel", action=NotedStore, default=None, type=one_of(spiel_play.SPIEL_METHODS),
                        help="with --card-values: how the Spiel is played: greedy (default), g2, random or dd "
                             "(double dummy; default --n 4,000)")
    parser.add_argument("--trump", action=NotedStore, default=None,
                        help="with --card-values: print the table of one trump suit only (default: every trump); "
                             "the deals of every trump are still dealt, as the trump card decides")
    parser.add_argument("--versus", action=NotedStore, default=None, metavar="CARDS",
                        help="with --card-values: compare these 2-8 cards with each other instead (e.g. HK,S6,LA): on "
                             "the deals where a hand holds one of two and the face-down stock the other, the hand is "
                             "judged with either card (paired; default --n 1,000,000, 50,000 with --spiel dd)")
    _add_rule_arguments(parser)
    add_run_arguments(parser, default_n=2_000_000)
    add_option_argument(parser, GAME)


def _stats_reads(args: argparse.Namespace) -> tuple[str, ...]:
    """The options ``cardsim stats perlaggen`` reads: none with --exact (every style, unexchanged), else the
    deal's and the table's packets (2, 3 players) or six-player hand size."""
    if args.exact:
        return ()
    table = {4: (), 6: ("six_player_cards",)}.get(args.players, ("packets_seven",))
    return DEAL_READS + ("players",) + table


def _stats_of(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
    """The tables of ``cardsim stats perlaggen``: `table_stats` for 2, 3 or 6 players, else `exact` or `stats`."""
    rules = command_options(args, GAME, "stats", _stats_reads, RULE_FLAGS | {
        "players": "players", "packets_seven": "packets", "six_player_cards": "hand_size"})
    stakes = _stakes_of(args)
    check_only_with(given_flags(args, "spiel", "trump", "versus"), "--card-values", args.card_values)
    if args.card_values:
        return _card_values_of(args, rules)
    if args.players != 4:
        if args.exact or args.level != "L0":
            raise CardsimError("--players 2, 3 or 6 gives the L0 per-seat statistics; --exact and --level L1 are "
                               "for the four-player game")
        return table_stats(args.players, args.style, args.hand_size, args.packets, args.n, args.seed,
                           args.exchange_policy, args.exchange_gives, **run_options(args))
    if args.hand_size not in (None, D.HAND_SIZE) or args.packets is not None:
        raise CardsimError("the four-player game deals 5 cards in packets of 2 and 3 (§3.3); --hand-size and "
                           "--packets are for --players 2, 3 or 6")
    if args.exact:
        if args.level != "L0":
            raise CardsimError("--exact enumerates single-hand facts, which have no figure level; drop --level")
        check_exact_alone(args, "style", "exchange_policy", "exchange_gives")  # exact() covers every style, unexchanged
        return exact()
    return stats(args.style, args.n, args.seed, args.exchange_policy, args.exchange_gives, args.level, stakes, rules,
                 **run_options(args))


def _card_values_of(args: argparse.Namespace, options: dict) -> pd.DataFrame:
    """`card_values` of the command line; CardsimError for the flags it does not combine with."""
    if (args.players != D.SEATS or args.exact or args.level != "L0" or args.hand_size is not None
            or args.packets is not None):
        raise CardsimError("--card-values swaps cards on four-player deals of 5 cards as played and judges the figures "
                           "at L0; drop --players, --hand-size, --packets, --exact and --level (or their --option)")
    spiel = args.spiel or "greedy"
    n = args.n if given_flags(args, "n") else default_deals(spiel, args.versus is not None)
    run = (args.style, spiel, n, args.seed, args.exchange_policy, args.exchange_gives, options, args.trump)
    if args.versus is not None:
        return card_pairs(args.versus, *run, **run_options(args))
    return card_values(*run, **run_options(args))


def _run_stats(args: argparse.Namespace) -> int:
    tables = _stats_of(args)
    if args.card_values and args.versus is not None:
        return emit(args, tables, card_pairs_json, format_card_pairs)
    if args.card_values:
        return emit(args, tables, card_values_json, format_card_values)
    if args.players != 4:
        return emit(args, tables, table_stats_json, format_table_stats)
    if args.exact:
        return emit(args, tables, exact_json, format_exact)
    return emit(args, tables, stats_json, format_stats)


STATS_KEYS = {"trump": ["label"], "cutter_k": ["label"], "deal": ["label"], "best_size": ["figure", "label"],
              "outcome": ["figure", "label"], "seat_best": ["name", "figure", "label"], "team": ["figure", "label"],
              "gestrichen": ["label"]}
"""Key columns of each proportion table of the stats, naming its estimates (e.g. outcome.gleich.D); 2, 3 or 6
players have no outcome table, six a team table."""


def _stats_frame(args: argparse.Namespace) -> pd.DataFrame:
    """The stats as estimates (for sweeps); per seat also perlaggen_mean.<seat> and perlaggen_none.<seat>."""
    no_exact(args)
    tables = _stats_of(args)
    if args.card_values:
        return card_values_long(tables) if args.versus is None else card_pairs_long(tables)
    by_seat = tables["perlaggen_by_seat"]
    return pd.concat([tables_long(tables, {k: v for k, v in STATS_KEYS.items() if k in tables}),
                      long_frame(by_seat, ["name"], "perlaggen_mean", value="mean", lo="mean_lo", hi="mean_hi"),
                      long_frame(by_seat, ["name"], "perlaggen_none")], ignore_index=True)


register_command("odds", GAME, Command("L0/L1 figure odds of a Perlaggen hand", _add_odds_arguments, _run_odds,
                                        _odds_frame))
register_command("stats", GAME, Command("table-level Perlaggen statistics (L0/L1)", _add_stats_arguments, _run_stats,
                                         _stats_frame))
