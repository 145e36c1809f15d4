"""Argument checks shared by the documented Python entry points.

Each check returns the value in the form the engine wants (an int, a float, a bool, an array) or raises a
`CardsimError` whose one line names the argument, the values it takes and the value given. Call them once per
API call, before any kernel: never inside a hot loop.
"""
import math
from collections.abc import Mapping

import numpy as np

from simcore.errors import CardsimError, is_whole_int, unknown_name


def is_whole_number(value) -> bool:
    """Whether ``value`` is a whole number as the API takes one: an int or numpy integer (not a bool), or a float
    with no fraction (2.0, 1e6; not nan, inf or 1.5)."""
    return is_whole_int(value) or (isinstance(value, (float, np.floating)) and float(value).is_integer())


def whole(value, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int when it is a whole number (an int, a numpy integer, or a float such as 1e6 or 2.0 with no
    fraction) from ``low`` to ``high`` (None: unbounded); CardsimError naming ``what`` otherwise (1.5, nan, inf,
    True, "1")."""
    if not is_whole_number(value):
        raise CardsimError(f"{what} must be a whole number{_range_text(low, high, ' of')}, got {shown(value)}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise CardsimError(f"{what} must be{_range_text(low, high)}, got {value}")
    return value


def shown(value, most: int = 80) -> str:
    """``value``'s repr on one line (runs of white space, such as an array's line breaks, made one space), cut to
    about ``most`` characters with "..." for an error message."""
    text = " ".join(repr(value).split())
    return text if len(text) <= most else text[:most - 3] + "..."


def shape_of(values) -> tuple:
    """np.shape of ``values``, or ("ragged",) for nested lists of unequal lengths (where np.shape raises)."""
    try:
        return np.shape(values)
    except ValueError:
        return ("ragged",)


def wholes(values, what: str, count: int, low: int | None, high: int | None, why: str = "") -> tuple[int, ...]:
    """``values`` (a sequence of ``count`` whole numbers from ``low`` to ``high``, None: unbounded, as `whole` takes
    them) as a tuple of ints; CardsimError naming ``what`` (and ``why``, the reason for the range) otherwise."""
    numbers = ()
    if isinstance(values, (list, tuple, np.ndarray)) and len(values) == count:
        try:
            numbers = tuple(whole(v, what, low, high) for v in values)
        except CardsimError:
            pass
    if len(numbers) != count:
        raise CardsimError(f"{what} must be {count} whole numbers{_range_text(low, high, ' of')}{why}, got "
                           f"{shown(values)}")
    return numbers


def _range_text(low, high, of: str = "") -> str:
    """" from low to high", " at least low" or " at most high" (after ``of`` for the open ranges); "" for none."""
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f"{of} at least {low}"
    return "" if high is None else f"{of} at most {high}"


def column(values, n: int, what: str, count: int | None) -> np.ndarray:
    """``values`` (one whole number, or ``n`` of them) as a writable (n,) int64 array of 0 to ``count`` - 1 (None:
    any whole numbers), as the kernels take a per-deal seat, suit, code or target; CardsimError naming ``what``
    otherwise (1.7, True, a wrong length)."""
    values = np.asarray(values)
    whole = whole_numbers(values)
    if _past_int64(values, whole):
        raise CardsimError(f"{what} must be within -2**63 to 2**63 - 1 (64-bit integers), got {shown(values)}")
    if not whole or values.shape not in ((), (1,), (n,)):
        raise CardsimError(f"{what} must be a whole number or {n} of them, got {shown(values)}")
    if count is not None and values.size and (values.min() < 0 or values.max() >= count):
        bad = (values < 0) | (values >= count)
        raise CardsimError(f"{what} must be 0-{count - 1}, got {values if values.ndim == 0 else values[bad][0]}")
    return np.array(np.broadcast_to(values.astype(np.int64, copy=False), (n,)))


def _past_int64(values: np.ndarray, whole: bool) -> bool:
    """Whether ``values`` are whole numbers of which one lies outside int64, where ``astype(np.int64)`` would wrap it:
    a uint64 of 2**63, a float of 1e19 (whole numbers as floats are taken), a Python int of 10**30. ``whole``:
    `whole_numbers` of them (False for Python ints, which numpy keeps as objects)."""
    if not values.size:
        return False
    if values.dtype == object:
        return all(map(is_whole_int, values.flat)) and not -2**63 <= values.min() <= values.max() < 2**63
    if values.dtype.kind == "u":
        return int(values.max()) >= 2**63
    if values.dtype.kind == "f" and whole:
        return not (-2.0**63 <= float(values.min()) and float(values.max()) < 2.0**63)
    return False


def whole_numbers(values: np.ndarray) -> bool:
    """Whether ``values`` are integers, or floats that are all whole (2.0; not nan, inf or 1.5); bools are not."""
    if values.dtype.kind == "f":
        return bool(np.all(np.isfinite(values) & (values == np.round(values))))
    return values.dtype.kind in "iu"


def probability(value, what: str, below_one: bool = False) -> float:
    """``value`` as a float from 0 to 1 (to just below 1 with ``below_one``); CardsimError naming ``what`` for
    anything else (nan, -0.1, "0.5", True)."""
    number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    top = "below 1" if below_one else "to 1"
    if not number or math.isnan(value) or not 0 <= value <= 1 or (below_one and value == 1):
        raise CardsimError(f"{what} must be a number from 0 {top}, got {shown(value)}")
    return float(value)


def uniforms(values, what: str, count: int) -> np.ndarray:
    """``values`` as a float64 array of at least ``count`` numbers in [0, 1) (the random draws a policy reads);
    CardsimError otherwise."""
    values = np.asarray(values)
    if values.dtype.kind not in "fiu":
        raise CardsimError(f"{what} must be random numbers in [0, 1), got {shown(values)}")
    if values.ndim != 1 or values.size < count:
        raise CardsimError(f"{what} must be {count} or more random numbers in [0, 1), got "
                           f"{values.size if values.ndim == 1 else 'shape ' + str(values.shape)}")
    values = values.astype(np.float64)
    if np.isnan(values).any() or (values < 0).any() or (values >= 1).any():
        raise CardsimError(f"{what} must hold numbers in [0, 1) only, got {values[~((values >= 0) & (values < 1))][0]}")
    return values


def uniform_rows(values, what: str, rows: int, count: int) -> np.ndarray:
    """``values`` as a (rows, count) float64 array of numbers in [0, 1) (one row of random draws per deal);
    CardsimError otherwise."""
    values = np.asarray(values)
    if values.shape != (rows, count):
        raise CardsimError(f"{what} must be ({rows}, {count}) random numbers in [0, 1), one row per deal, got shape "
                           f"{values.shape}")
    return uniforms(values.ravel(), what, values.size).reshape(values.shape)


def draws_given(u, random: bool, how: str) -> None:
    """CardsimError when a ``random`` policy is to play without its draws ``u`` (None), which would make it play the
    first legal card every time; ``how``: the draws it reads, for the message."""
    if u is None and random:
        raise CardsimError(f"the random policy reads u: give {how}")


def flag(value, what: str) -> bool:
    """``value`` as a bool when it is True or False (numpy bools too); CardsimError naming ``what`` for "no", 1 or
    None, which would otherwise read as true or false by accident."""
    if not isinstance(value, (bool, np.bool_)):
        raise CardsimError(f"{what} must be True or False, got {shown(value)}")
    return bool(value)


def one_of(value, what: str, names):
    """``value`` when it is one of ``names``; the "unknown ..., did you mean ...?" CardsimError otherwise."""
    if not isinstance(value, str) or value not in names:
        raise unknown_name(what, value, names)
    return value


def texts(values, what: str, example: str) -> tuple[str, ...]:
    """``values`` (None, one text, or a list or tuple of texts, such as --given conditions) as a tuple of texts;
    CardsimError naming ``what`` and an ``example`` text otherwise (a number, a dict, a list holding None)."""
    if values is None:
        return ()
    if isinstance(values, str):
        return (values,)
    if isinstance(values, (list, tuple)) and all(isinstance(v, str) for v in values):
        return tuple(values)
    raise CardsimError(f"{what} must be a text or a list of texts such as [{example!r}], got {shown(values)}")


def card_text(value, what: str, example: str) -> str:
    """``value`` as the text of cards the parsers read: a text ("LA SA H10") or a list or tuple of card tokens
    (["LA", "SA", "H10"], joined); CardsimError naming ``what`` and an ``example`` otherwise (None, card numbers)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    raise CardsimError(f"{what} must be cards as a text such as {example!r} (or a list of card names), got "
                       f"{shown(value)}")


def options_dict(options, what: str = "options") -> dict:
    """``options`` (None, a dict, or NAME, VALUE pairs) as a dict; CardsimError for anything else, such as
    "NAME=VALUE" strings, which are the command line's form."""
    if options is None:
        return {}
    if isinstance(options, Mapping):
        return dict(options)
    try:
        pairs = list(options)
        if all(isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in pairs):
            return dict(pairs)
    except TypeError:
        pass
    strings = isinstance(options, str) or any(isinstance(item, str) for item in _items(options))
    raise CardsimError(f"{what} must be a dict such as {{'name': value}} or (name, value) pairs, got {shown(options)}"
                       + ("; NAME=VALUE strings are the command line's form (--option NAME=VALUE)" if strings else ""))


def _items(values) -> list:
    """The items of ``values`` if it is a list or tuple, else []."""
    return list(values) if isinstance(values, (list, tuple)) else []


def card_masks(values, what: str, deck_bits: int, disjoint: bool = True) -> np.ndarray:
    """``values`` (a sequence or array of card masks, any shape, hands along the last axis) as a uint64 array of
    masks of ``deck_bits`` cards, with ``disjoint`` no card in two hands of a row; CardsimError otherwise
    (negative or float masks, bits past the deck, a card held twice)."""
    if isinstance(values, (list, tuple)) and all(type(v) is int and 0 <= v < 2 ** 64 for v in values):
        masks = np.array(values, dtype=np.uint64)  # plain masks: not through an object array (6 us less)
    else:
        masks = values if isinstance(values, np.ndarray) else np.array(values, dtype=object)
    if masks.dtype == object:
        if not all(is_whole_int(v) and 0 <= v < 2 ** 64 for v in masks.ravel()):
            raise CardsimError(f"{what} must be integer masks of the {deck_bits} cards (bits 0-{deck_bits - 1}), "
                               f"got {shown(values)}")
        masks = masks.astype(np.uint64)
    if masks.dtype.kind not in "iu" or (masks.dtype.kind == "i" and (masks < 0).any()) \
            or (deck_bits < 64 and (np.bitwise_or.reduce(masks.astype(np.uint64, copy=False), axis=None)
                                    >> np.uint64(deck_bits))):
        raise CardsimError(f"{what} must be integer masks of the {deck_bits} cards (bits 0-{deck_bits - 1}), "
                           f"got {shown(values)}")
    masks = masks.astype(np.uint64)  # a copy: callers' kernels may change the masks in place
    if disjoint and masks.ndim:
        shared = _shared_cards(masks)
        if np.any(shared):
            where = "" if masks.ndim == 1 else f" (row {int(np.argmax(shared.ravel()))})"
            raise CardsimError(f"{what}: a card is held by two hands{where}; each card can be in one hand only")
    return masks


def _shared_cards(masks: np.ndarray):
    """Whether a card lies in two hands of ``masks`` (uint64, hands along the last axis), per row: for one row (1-D)
    a bool from Python integers (numpy's reductions took 6 us of a position's checks), else a bool array."""
    if masks.ndim == 1:
        held = masks.tolist()
        union = 0
        for hand in held:
            union |= hand
        return union.bit_count() != sum(hand.bit_count() for hand in held)
    return np.bitwise_count(np.bitwise_or.reduce(masks, axis=-1)) != np.bitwise_count(masks).sum(axis=-1)


def hand_masks(hands, what: str, deck_bits: int, seats: int, sizes, rows: bool = False, equal: bool = True,
               disjoint: bool = True, empty: bool = False) -> np.ndarray:
    """``hands`` as contiguous uint64 masks of the ``deck_bits`` cards (`card_masks`; with ``disjoint`` no card in two
    hands of a deal), shaped (n, seats) with ``rows`` (many deals, n >= 1, n >= 0 with ``empty``) else (seats,),
    every hand holding one of ``sizes`` (a range) cards and with ``equal`` all as many; CardsimError otherwise."""
    shape = shape_of(hands)
    if len(shape) != 1 + rows or shape[-1] != seats or (rows and shape[0] < (not empty)):
        many = f"(n, {seats}) array of card masks, one row of seats 0-{seats - 1} per deal" \
            + ("" if empty else ", n >= 1") if rows else f"{seats} card masks, one per seat 0-{seats - 1}"
        if isinstance(hands, str):
            got = f"got the text {shown(hands)}: give masks, e.g. DECK.mask(DECK.parse_cards(text)) of the game's " \
                "module, per hand"
        else:
            got = f"got {shown(hands)}" if hands is None else f"got shape {shape}"
        raise CardsimError(f"{what} must be an {many}; {got}" if rows else f"{what} must be {many}; {got}")
    hands = np.ascontiguousarray(card_masks(hands, what, deck_bits, disjoint))
    counts = np.bitwise_count(hands).reshape(-1, seats)
    allowed = np.uint64(sum(1 << int(size) for size in sizes))  # one bit per size (np.isin took 15 us a call)
    bad = ~((allowed >> counts) & np.uint64(1)).astype(bool).all(axis=1) \
        | (equal & (counts != counts[:, :1]).any(axis=1))
    if bad.any():
        many = f"{sizes[0]} to {sizes[-1]} cards" + (", all as many" if equal else "") if len(sizes) > 1 \
            else f"{sizes[0]} cards"
        raise CardsimError(f"{what}: every seat must hold {many}, got {counts[np.argmax(bad)].tolist()}"
                           + (f" (deal {int(np.argmax(bad))})" if rows else ""))
    return hands


def position_sizes(hands, leader: int, played: int, won, tricks: int) -> None:
    """CardsimError unless the seats of ``hands`` that played to the current trick (``played`` cards from ``leader``
    on) hold one card fewer than the others and the tricks ``won`` (per team) add up to the tricks already played of
    a hand of ``tricks`` tricks."""
    seats = len(hands)
    sizes = [int(h).bit_count() + ((seat - leader) % seats < played) for seat, h in enumerate(hands)]
    if len(set(sizes)) > 1 or sum(won) != tricks - sizes[0]:
        raise CardsimError(f"the seats hold {', '.join(str(int(h).bit_count()) for h in hands)} cards with {played} on "
                           f"the trick led by seat {leader} and won {tuple(won)}: the seats that played to the trick "
                           f"hold one card fewer than the others, and won adds up to the tricks played")


def suit_indices(values, what: str, count: int, allowed, note: str = "") -> np.ndarray:
    """``values`` as (count,) int64 suit indices, each one of ``allowed``; CardsimError naming ``what`` (and
    ``note``, why those suits) otherwise."""
    suits = np.asarray(values)
    if suits.shape != (count,) or not whole_numbers(suits) or not np.isin(suits, allowed).all():
        many = "1 suit index" if count == 1 else f"{count} suit indices"
        raise CardsimError(f"{what} must be {many}, one per deal, of {', '.join(map(str, allowed))}{note}, got "
                           f"{shown(values)}")
    return suits.astype(np.int64)


def trick_positions(hands, tricks, counts, deck_bits: int, seats: int, most: int) -> tuple[np.ndarray, ...]:
    """Many positions of a player to move, checked (CardsimError otherwise): (hands (n,) uint64 masks of the mover's
    1 to ``most`` cards, n >= 1; tricks (n, seats) int64, the first counts[i] cards of row i on the trick in play
    order, distinct, none in the hand, the slots past the count (not read) made 0; counts (n,) int64 0 to
    ``seats`` - 1)."""
    hands = card_masks(np.atleast_1d(hands), "hands", deck_bits, disjoint=False)  # separate positions
    held = np.bitwise_count(hands)
    if hands.ndim != 1 or not hands.size or not ((held >= 1) & (held <= most)).all():
        raise CardsimError(f"hands must be (n,) masks of the mover's 1 to {most} cards, one per position, got "
                           f"{shown(hands.tolist())}")
    n = hands.size
    counts = column(counts, n, "counts (the cards already on the trick)", seats)
    tricks = np.asarray(tricks)
    on_table = np.arange(seats) < counts[:, None]
    if tricks.shape != (n, seats) or tricks.dtype.kind not in "iu" \
            or (on_table & ((tricks < 0) | (tricks >= deck_bits))).any():
        raise CardsimError(f"tricks must be ({n}, {seats}) cards 0-{deck_bits - 1} in play order (the first counts "
                           f"of each row), got {shown(tricks)}")
    tricks = np.where(on_table, tricks, 0).astype(np.int64)
    in_hand = ((hands[:, None] >> tricks.astype(np.uint64)) & np.uint64(1)).astype(bool)
    twice = [len(set(row[:k])) < k for row, k in zip(tricks.tolist(), counts.tolist())]
    if (on_table & in_hand).any() or any(twice):
        raise CardsimError("a card on the trick is also in the hand, or on the trick twice; each card is in one place")
    return hands, tricks, counts
