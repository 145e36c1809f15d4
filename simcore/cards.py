"""Declarative decks, card tokens and the bitmask encoding shared by every game.

A deck is a grid of suits x ranks (ranks listed weakest first), optionally with `copies` identical
copies of every card (Pinochle) and extra cards outside the grid (the Perlaggen Weli).

Encoding, identical for every deck:

* a *face* is a card identity: ``face = suit * n_ranks + rank`` for grid cards, then the extras;
* a *card* is one physical card: ``card = face * copies + copy``; decks without duplicates have
  ``card == face``;
* a *hand* is a bitmask of cards in a ``uint64`` (bit ``card``), so every pack up to 64 cards fits.

Tokens are the suit letter followed by the rank (``HK``, ``S6``, ``L10``), case-insensitive, with
per-deck rank aliases (``T`` for 10, ``B``/``J``, ``D``/``Q``, ``N`` for 9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from simcore.errors import CardsimError, is_whole_int


def _places(where: list[str]) -> str:
    """Where a card was given: "in --hand", or "(--hand twice, --kitty)" for several places."""
    labels = list(dict.fromkeys(where))
    if len(labels) == 1:
        return f"in {labels[0]}"
    counts = {label: where.count(label) for label in labels}
    return "(" + ", ".join(label + {1: "", 2: " twice"}.get(n, f" {n} times") for label, n in counts.items()) + ")"


@dataclass(frozen=True)
class Deck:
    """A pack of cards described as data.

    suits: suit letters in index order; ranks: rank tokens weakest first; copies: physical copies of
    every face; extras: tokens of faces outside the grid (appended after the grid faces);
    rank_aliases: alternative spellings, alias -> canonical rank token; suit_names: display names.
    """

    name: str
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    copies: int = 1
    extras: tuple[str, ...] = ()
    rank_aliases: dict[str, str] = field(default_factory=dict)
    suit_names: tuple[str, ...] = ()

    def __post_init__(self):
        if self.n_cards > 64:
            raise ValueError(f"deck {self.name}: {self.n_cards} cards do not fit a 64-bit hand mask")

    @property
    def n_suits(self) -> int:
        return len(self.suits)

    @property
    def n_ranks(self) -> int:
        return len(self.ranks)

    @property
    def n_faces(self) -> int:
        return self.n_suits * self.n_ranks + len(self.extras)

    @property
    def n_cards(self) -> int:
        return self.n_faces * self.copies

    @property
    def face_tokens(self) -> tuple[str, ...]:
        grid = tuple(s + r for s in self.suits for r in self.ranks)
        return grid + self.extras

    @property
    def full_mask(self) -> int:
        return (1 << self.n_cards) - 1

    # --- faces and cards -------------------------------------------------------------------
    def face_of(self, card: int) -> int:
        return card // self.copies

    def suit_of_face(self, face: int) -> int:
        """Suit index of a grid face; extras report -1."""
        return face // self.n_ranks if face < self.n_suits * self.n_ranks else -1

    def rank_of_face(self, face: int) -> int:
        """Rank index (0 = weakest) of a grid face; extras report -1."""
        return face % self.n_ranks if face < self.n_suits * self.n_ranks else -1

    def token(self, card: int) -> str:
        """Canonical token of a physical card (copies share a token)."""
        if not is_whole_int(card) or not 0 <= card < self.n_cards:
            raise CardsimError(f"card index {card} is outside the {self.name} pack (0..{self.n_cards - 1})")
        return self.face_tokens[self.face_of(card)]

    # --- parsing ---------------------------------------------------------------------------
    def parse_face(self, token: str) -> int:
        """Face index of one token such as ``HK`` or ``l10``; raises CardsimError if unknown."""
        text = token.strip().upper()
        extras = [e.upper() for e in self.extras]
        if text in extras:
            return self.n_suits * self.n_ranks + extras.index(text)
        suits = [s.upper() for s in self.suits]
        ranks = [r.upper() for r in self.ranks]
        aliases = {a.upper(): r.upper() for a, r in self.rank_aliases.items()}
        if len(text) >= 2 and text[0] in suits:
            rank = aliases.get(text[1:], text[1:])
            if rank in ranks:
                return suits.index(text[0]) * self.n_ranks + ranks.index(rank)
        raise CardsimError(
            f"'{token}' is not a card of the {self.name} pack; write suit then rank, "
            f"suits {'/'.join(self.suits)}, ranks {'/'.join(self.ranks)}"
            + (f", extra cards {'/'.join(self.extras)}" if self.extras else "")
            + " (e.g. " + self.face_tokens[-1] + ")"
        )

    def parse_cards(self, text: str, what: str = "cards") -> list[int]:
        """Physical card indices of a space- or comma-separated token list (see `parse_groups`)."""
        return self.parse_groups({what: text})[what]

    def parse_groups(self, groups: dict[str, str]) -> dict[str, list[int]]:
        """Parse several labelled token lists that must not share a physical card.

        groups: label -> text, e.g. {"--hand": "LA SA H10 E9 E8", "--turnup": "HK"}. Repeated faces
        take successive copies; naming a face more often than the pack holds it is an error that
        names the places.
        """
        for label, text in groups.items():
            if not isinstance(text, str):
                raise CardsimError(f"{label} takes the cards as one string, names separated by spaces, got {text!r}")
        tokens = {label: text.replace(",", " ").split() for label, text in groups.items()}
        faces = {label: [self.parse_face(tok) for tok in listed] for label, listed in tokens.items()}
        places: dict[int, list[str]] = {}
        written: dict[int, str] = {}  # a face's first token as typed, for the error
        for label, listed in faces.items():
            for face, token in zip(listed, tokens[label]):
                places.setdefault(face, []).append(label)
                written.setdefault(face, token)
        for face, where in places.items():
            if len(where) > self.copies:
                times = "once" if self.copies == 1 else f"{self.copies} times"
                name = self.face_tokens[face]
                name += f" (written {written[face]})" if written[face].upper() != name.upper() else ""
                raise CardsimError(f"{name} is given {len(where)} times {_places(where)} but the "
                                   f"{self.name} pack holds it {times}; each card can be in one place only")
        taken: dict[int, int] = {}
        parsed: dict[str, list[int]] = {}
        for label, listed in faces.items():
            parsed[label] = []
            for face in listed:
                parsed[label].append(face * self.copies + taken.get(face, 0))
                taken[face] = taken.get(face, 0) + 1
        return parsed

    def format_cards(self, cards) -> str:
        return " ".join(self.token(int(c)) for c in cards)

    # --- masks -----------------------------------------------------------------------------
    def mask(self, cards) -> int:
        """The bit mask of physical ``cards`` (card indices 0 to n_cards - 1, each once); CardsimError for anything
        else (a card past the pack made a mask of no card, 1.5 was read as card 1, a card listed twice became one)."""
        m = 0
        for c in cards:
            if not is_whole_int(c) or not 0 <= c < self.n_cards:
                raise CardsimError(f"card index {c!r} is not a card of the {self.name} pack (0..{self.n_cards - 1})")
            if (m >> int(c)) & 1:
                raise CardsimError(f"card {self.token(int(c))} (index {int(c)}) is listed twice; each physical card "
                                   "can be in one place only")
            m |= 1 << int(c)
        return m

    def cards_of(self, mask: int) -> list[int]:
        """The physical cards of ``mask`` in order; CardsimError unless it is a whole-number mask of the pack."""
        if not is_whole_int(mask) or not 0 <= mask < 1 << self.n_cards:
            raise CardsimError(f"{mask!r} is not a card mask of the {self.name} pack ({self.n_cards} cards)")
        return [c for c in range(self.n_cards) if (int(mask) >> c) & 1]

    def card_table(self) -> np.ndarray:
        """(n_cards, 3) int16 of (face, suit, rank) per physical card; extras have suit = rank = -1."""
        rows = []
        for card in range(self.n_cards):
            face = self.face_of(card)
            rows.append((face, self.suit_of_face(face), self.rank_of_face(face)))
        return np.array(rows, dtype=np.int16)


def subset_masks(cards, k: int) -> np.ndarray:
    """Every set of ``k`` cards out of ``cards`` (card numbers) as bitmasks: (C(len(cards), k),) uint64, in
    `itertools.combinations` order (k = 0: the one empty set)."""
    subsets = list(combinations(cards, k))
    combos = np.array(subsets, dtype=np.uint64).reshape(len(subsets), k)
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), combos), axis=1, initial=np.uint64(0))
