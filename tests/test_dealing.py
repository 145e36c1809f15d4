"""Dealing: the kernel deals exactly like the plain-Python reference, every deal is a legal partition,
DealSpec validates its input, the deal is uniform, and accept predicates filter."""

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.cards import Deck
from simcore.dealing import BATCH, SPARE_WORDS, DealSpec, Layout, batch_tables, draw_batches, accepted, deal
from simcore.errors import CardsimError
from simcore.games.giltspiel import DECK, LAYOUT, Known
from simcore.rng import block_words

import naive

SIZES = [size for _, size in LAYOUT.places]  # 5, 5, 5, 5, 1, 11
NAMES = list(LAYOUT.names)
word = st.integers(0, 2**32 - 1)


@st.composite
def fixed_cards(draw):
    """Random known cards in random places, respecting the place sizes.

    A random arrangement of the pack into the places, of which a random subset of positions is known.
    """
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    order = rng.permutation(32)
    known = rng.random(32) < draw(st.sampled_from([0.0, 0.1, 0.3, 0.7, 1.0]))
    fixed: dict[str, tuple[int, ...]] = {}
    start = 0
    for name, size in zip(NAMES, SIZES):
        cards = tuple(int(c) for c, k in zip(order[start:start + size], known[start:start + size]) if k)
        if cards or draw(st.booleans()):
            fixed[name] = cards
        start += size
    return fixed


def naive_deals(spec: DealSpec, words: np.ndarray):
    fixed = [list(spec.fixed.get(name, ())) for name in NAMES]
    return [naive.deal(list(row), 32, SIZES, fixed) for row in words]


def check_partition(spec: DealSpec, slots: np.ndarray):
    """Every row: places disjoint, together the whole pack, right sizes, fixed cards in place."""
    n = slots.shape[0]
    union = np.zeros(n, dtype=np.uint64)
    for p, (name, size) in enumerate(LAYOUT.places):
        column = slots[:, p]
        assert ((union & column) == 0).all()
        union |= column
        counts = np.array([bin(int(m)).count("1") for m in column])
        assert (counts == size).all()
        want = np.uint64(DECK.mask(spec.fixed.get(name, ())))
        assert ((column & want) == want).all()
    assert (union == np.uint64(DECK.full_mask)).all()


# --- kernel == reference --------------------------------------------------------------------------
@given(fixed_cards(), st.integers(0, 2**32 - 1), st.integers(1, 4),
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 64)), max_size=12))
def test_kernel_deal_equals_naive_deal(fixed, seed, n, small):
    spec = DealSpec(LAYOUT, fixed)
    words = np.random.default_rng(seed).integers(0, 2**32, size=(n, spec.words_per_deal), dtype=np.uint32)
    # words near 0 make Lemire's method reject and read spare words: plant some anywhere
    for position, value in small:
        words.flat[position % words.size] = value
    slots = deal(spec, words)
    check_partition(spec, slots)
    for got, want in zip(slots, naive_deals(spec, words)):
        assert [naive.cards_of(m) for m in got] == [sorted(place) for place in want]


@settings(max_examples=25)
@given(fixed_cards(), st.integers(0, 10**6))
def test_kernel_deal_equals_naive_deal_on_stream_words(fixed, seed):
    spec = DealSpec(LAYOUT, fixed)
    words = block_words(seed, 0, 20, spec.words_per_deal)
    slots = deal(spec, words)
    check_partition(spec, slots)
    for got, want in zip(slots, naive_deals(spec, words)):
        assert [naive.cards_of(m) for m in got] == [sorted(place) for place in want]


def test_planted_small_words_do_cause_rejections():
    # guard for the tests above: a zero word is rejected when the batch's threshold is positive
    spec = DealSpec(LAYOUT)
    batches = -(-spec.draws // BATCH)
    product = 32 * 31 * 30
    assert ((1 << 32) - product) % product > 0
    words = np.full((1, spec.words_per_deal), 2**31 + 12345, dtype=np.uint32)
    words[0, 0] = 0  # first batch, bounds 32, 31, 30: final low part 0 < threshold -> rejected
    draws, spare = naive.batch(list(map(int, words[0])), 0, batches, 32, 3)
    assert spare == batches + 1
    got = deal(spec, words)[0]
    want = naive_deals(spec, words)[0]
    assert [naive.cards_of(m) for m in got] == [sorted(p) for p in want]


def test_naive_deal_on_hand_worked_words():
    # 4 cards into places of 2, 1, 1: three draws with bounds 4, 3, 2 from one word.
    # word 0xC0000001: *4 = 3 * 2**32 + 4 -> j0 = 3, low 4; *3 = 12 -> j1 = 0, low 12;
    # *2 = 24 -> j2 = 0, low 24 >= threshold (2**32 - 24) % 24 = 16: accepted.
    places = naive.deal([0xC0000001, 7, 7, 7], 4, [2, 1, 1], [[], [], []])
    # pool [0,1,2,3] -> i=0 swap with 3 -> [3,1,2,0]; i=1 keeps 1; i=2 keeps 2; the rest is [0]
    assert places == [[3, 1], [2], [0]]


def kernel_batch(words, first_bound, size):
    """The kernel's decoding of one batch of ``size`` draws (bounds first_bound, first_bound-1, ...)."""
    padded, _, thresholds = batch_tables(first_bound - np.arange(size).astype(np.uint64))
    js = np.zeros(padded.shape[0], dtype=np.int64)
    draw_batches(np.array(words, dtype=np.uint32), padded, thresholds, js)
    return [int(j) for j in js[:size]]


@pytest.mark.parametrize("first_bound,size", [(32, 3), (31, 2), (7, 3), (64, 3), (5, 1)])
def test_batch_rejects_and_takes_spare_words(first_bound, size):
    product = 1
    for t in range(size):
        product *= first_bound - t
    threshold = ((1 << 32) - product) % product
    assert threshold > 0
    words = [0, 2**32 - 1, 12345]  # word 0 ends with low part 0 < threshold: rejected, spare word 1 decides
    want, spare = naive.batch(words, 0, 1, first_bound, size)
    assert spare == 2 and kernel_batch(words, first_bound, size) == want
    accepted_words = [2**32 - 1, 0]  # accepted at once
    want, spare = naive.batch(accepted_words, 0, 1, first_bound, size)
    assert spare == 1 and kernel_batch(accepted_words, first_bound, size) == want
    want, spare = naive.batch([0], 0, 1, first_bound, size)  # no spare left: the candidate is kept
    assert spare == 1 and want == [0] * size == kernel_batch([0], first_bound, size)


@given(st.lists(word, min_size=1, max_size=4), st.integers(1, 64), st.integers(1, BATCH))
def test_batch_equals_naive(words, first_bound, size):
    size = min(size, first_bound)
    want, _ = naive.batch(words, 0, 1, first_bound, size)
    assert kernel_batch(words, first_bound, size) == want
    assert all(0 <= j < first_bound - t for t, j in enumerate(want))


SCALED_DOWN = [(bits, bounds) for bits in (8, 10, 12)
               for bounds in ((5, 4, 3), (7, 6, 5), (9, 8), (3,), (11, 10, 9)) if np.prod(bounds) <= 2**bits]


@pytest.mark.parametrize("bits,bounds", SCALED_DOWN)
def test_batched_draws_are_exact_on_scaled_down_words(bits, bounds):
    # Enumerate every w-bit word: each tuple of draws must come from the same number of accepted words.
    hits = {}
    for x in range(2**bits):
        draws, spare = naive.batch([x], 0, 1, bounds[0], len(bounds), bits=bits)
        product = int(np.prod(bounds))
        low = x
        for b in bounds:
            low = (low * b) % 2**bits
        if low >= (2**bits - product) % product:
            hits[tuple(draws)] = hits.get(tuple(draws), 0) + 1
    assert len(hits) == int(np.prod(bounds))
    assert len(set(hits.values())) == 1


# --- DealSpec ---------------------------------------------------------------------------------------
def test_dealspec_derived_sizes():
    spec = DealSpec(LAYOUT, {"seat1": (0, 1, 2), "turnup": (31,), "stock": (5,)})
    assert list(spec.room) == [5, 2, 5, 5, 0, 10]
    assert spec.draws == 17
    assert spec.words_per_deal == -(-17 // BATCH) + SPARE_WORDS
    assert list(spec.free_cards) == [c for c in range(32) if c not in (0, 1, 2, 31, 5)]
    masks = spec.fixed_masks
    assert masks.dtype == np.uint64 and int(masks[1]) == 0b111 and int(masks[4]) == 1 << 31


def test_dealspec_card_placed_twice_is_an_error():
    with pytest.raises(CardsimError, match="placed twice") as err:
        DealSpec(LAYOUT, {"seat0": (7, 8), "seat2": (8,)})
    assert "L7" in str(err.value) and "seat0" in str(err.value) and "seat2" in str(err.value)
    with pytest.raises(CardsimError, match="placed twice"):
        DealSpec(LAYOUT, {"seat0": (3, 3)})


def test_dealspec_too_many_cards_for_a_place_is_an_error():
    with pytest.raises(CardsimError, match="turnup holds 1"):
        DealSpec(LAYOUT, {"turnup": (1, 2)})
    with pytest.raises(CardsimError, match="seat3 holds 5 cards but 6"):
        DealSpec(LAYOUT, {"seat3": tuple(range(6))})


@pytest.mark.parametrize("card", [-1, 32, 40, 63])
def test_dealspec_card_outside_the_pack_is_an_error(card):
    # a card index beyond the pack used to give a stock of 12 cards without a word
    with pytest.raises(CardsimError, match="outside"):
        DealSpec(LAYOUT, {"seat0": (card,)})


def test_dealspec_unknown_place_is_an_error():
    with pytest.raises(CardsimError, match="unknown place 'seat4'"):
        DealSpec(LAYOUT, {"seat4": (1,)})


def test_layout_must_cover_the_pack():
    with pytest.raises(ValueError, match="32"):
        Layout(DECK, (("a", 16), ("b", 15)))


def test_deal_rejects_wrong_word_shape():
    spec = DealSpec(LAYOUT)
    with pytest.raises(ValueError):
        deal(spec, np.zeros((3, spec.words_per_deal - 1), dtype=np.uint32))


def test_fully_fixed_deal_needs_no_randomness():
    fixed = {name: tuple(range(start, start + size))
             for name, size, start in zip(NAMES, SIZES, np.cumsum([0] + SIZES[:-1]))}
    spec = DealSpec(LAYOUT, fixed)
    assert spec.draws == 0
    slots = deal(spec, np.zeros((2, spec.words_per_deal), dtype=np.uint32))
    check_partition(spec, slots)


# --- uniformity -------------------------------------------------------------------------------------
def _words(spec, n, seed):
    blocks = -(-n // 65536)
    rows = [block_words(seed, b, min(65536, n - 65536 * b), spec.words_per_deal) for b in range(blocks)]
    return np.concatenate(rows)


def _place_card_counts(slots):
    """(n_slots, 32): how often every card lands in every place."""
    bits = (slots[:, :, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)
    return bits.sum(axis=0).astype(np.int64)


@pytest.mark.parametrize("known", [Known(), Known({1: (7, 15, 18, 25, 0)}, turnup=22)])
def test_card_place_marginals_are_uniform(known):
    n = 200_000
    spec = known.deal_spec()
    slots = deal(spec, _words(spec, n, seed=99))
    counts = _place_card_counts(slots)
    free = set(int(c) for c in spec.free_cards)
    k = len(free)
    z_max = 4.5  # Bonferroni over <= 192 cells at a ~1e-3 family level (two-sided)
    for p, name in enumerate(NAMES):
        for card in range(32):
            if card not in free:
                expected_all = card in spec.fixed.get(name, ())
                assert counts[p, card] == (n if expected_all else 0)
                continue
            prob = spec.room[p] / k
            if prob == 0:
                assert counts[p, card] == 0
                continue
            z = (counts[p, card] - n * prob) / np.sqrt(n * prob * (1 - prob))
            assert abs(z) < z_max, (name, card, z)


def test_suit_count_in_a_hand_is_hypergeometric():
    # number of Herz cards in seat 2's hand: C(8,k) C(24,5-k) / C(32,5)
    n = 200_000
    spec = DealSpec(LAYOUT)
    slots = deal(spec, _words(spec, n, seed=5))
    herz = ((slots[:, 2] >> np.uint64(16)) & np.uint64(0xFF))
    k = np.array([bin(int(m)).count("1") for m in herz])
    observed = [int((k == i).sum()) for i in range(6)]
    expected = [comb(8, i) * comb(24, 5 - i) / comb(32, 5) for i in range(6)]
    assert naive.chi2_test(observed, expected) > 1e-4


def test_every_arrangement_of_a_tiny_pack_is_equally_likely():
    tiny = Deck("tiny", suits=("A", "B"), ranks=("1", "2", "3"))  # 6 cards
    layout = Layout(tiny, (("x", 2), ("y", 1), ("z", 3)))
    for fixed, n_outcomes in (({}, comb(6, 2) * comb(4, 1)), ({"z": (0,)}, comb(5, 2) * 3)):
        spec = DealSpec(layout, fixed)
        n = 120_000
        words = np.random.default_rng(2024).integers(0, 2**32, size=(n, spec.words_per_deal), dtype=np.uint32)
        slots = deal(spec, words)
        keys, counts = np.unique(slots[:, 0] * np.uint64(64) + slots[:, 1], return_counts=True)
        assert len(keys) == n_outcomes
        assert naive.chi2_test(counts.tolist(), [1 / n_outcomes] * n_outcomes) > 1e-4


# --- accept predicates --------------------------------------------------------------------------------
def holds(seat, card):
    bit = np.uint64(1 << card)
    return lambda slots: (slots[:, seat] & bit) != 0


def test_accept_predicates_filter_and_combine():
    spec = DealSpec(LAYOUT, accept=(holds(0, 7), holds(1, 15)))
    slots = deal(spec, _words(spec, 50_000, seed=3))
    keep = accepted(spec, slots)
    want = ((slots[:, 0] >> np.uint64(7)) & np.uint64(1)).astype(bool) & \
           ((slots[:, 1] >> np.uint64(15)) & np.uint64(1)).astype(bool)
    assert keep.dtype == bool and (keep == want).all()
    assert 0 < keep.sum() < len(keep)
    # no predicate keeps everything
    assert accepted(DealSpec(LAYOUT), slots).all()


def test_rejection_and_fixed_cards_agree():
    # P(seat 1 holds LA | seat 0 holds EA) is 5/31 both by filtering and by fixing EA in seat 0
    n = 200_000
    spec = DealSpec(LAYOUT, accept=(holds(0, 7),))
    slots = deal(spec, _words(spec, n, seed=8))
    kept = slots[accepted(spec, slots)]
    fixed_spec = DealSpec(LAYOUT, {"seat0": (7,)})
    fixed_slots = deal(fixed_spec, _words(fixed_spec, n, seed=9))
    for sample in (kept, fixed_slots):
        m = len(sample)
        hits = int((((sample[:, 1] >> np.uint64(15)) & np.uint64(1)) == 1).sum())
        p = 5 / 31
        assert abs(hits - m * p) < 4.5 * np.sqrt(m * p * (1 - p))
    assert abs(len(kept) - n * 5 / 32) < 4.5 * np.sqrt(n * 5 / 32 * 27 / 32)


@pytest.mark.parametrize("words", [np.zeros((3, 9), dtype=np.int64) - 1, np.full((3, 9), 0.5), [[0] * 9] * 3,
                                   np.zeros(9, dtype=np.uint32)])
def test_deal_refuses_words_that_are_not_uint32_rows(words):
    """Before, signed words of -1 crashed the process (segmentation fault), words of 0.5 dealt cards, a list raised
    AttributeError."""
    spec = Known(seat_cards={1: tuple(DECK.parse_cards("LA SA H10 E9 E8"))}).deal_spec()
    assert spec.words_per_deal == 9
    with pytest.raises(CardsimError, match=r"words must be an \(n, 9\) uint32 array"):
        deal(spec, words)


def test_deal_refuses_a_spec_that_is_not_a_dealspec():
    with pytest.raises(CardsimError, match="spec must be a DealSpec"):
        deal(None, np.zeros((2, 9), dtype=np.uint32))


@pytest.mark.parametrize("seed, words_per_deal", [(-1, 9), ("x", 9), (1.5, 9), (7, 0), (7, -1), (7, 1.5),
                                                  (7, "3"), (7, 10**6)])
def test_block_words_refuses_a_bad_seed_or_word_count(seed, words_per_deal):
    """Before: ValueError/TypeError from numpy, an empty (n, 0) array for 0 words, a MemoryError for 10**6."""
    with pytest.raises(CardsimError, match="seed must be|words_per_deal must be"):
        block_words(seed, 0, 5, words_per_deal)
