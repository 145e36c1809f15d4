"""Seeds and random streams.

One ``seed`` enters the API and is normalised once (`normalize_seed`). Deals are grouped in blocks of
`BLOCK_DEALS`; block ``b`` draws from its own stream, the ``b``-th child of ``SeedSequence(seed)``
(the same child ``SeedSequence(seed).spawn(b + 1)[b]`` gives). Every deal of a block reads a fixed
number of 32-bit words, so a deal's cards depend only on the seed, its block and its place in the
block: never on how blocks are grouped into chunks or spread over workers.
"""

from __future__ import annotations

import numpy as np

from simcore.errors import CardsimError, is_whole_int

BLOCK_DEALS = 1 << 16
"""Deals per random stream. Part of the stream definition: changing it changes every result."""

MAX_WORDS_PER_DEAL = 256
"""The most random words a deal may read (`block_words`); the games' deals read 9-60."""

STREAM_VERSION = f"pcg64-block{BLOCK_DEALS}-batch3-v1-numpy{np.__version__}"
"""Names everything that maps a seed to deals (generator, block size, draw method, numpy build);
checkpoints record it so chunks of an older definition are never mixed into a resumed run."""


def normalize_seed(seed) -> int:
    """A non-negative int seed; ``None`` draws fresh entropy (report it so the run can be repeated)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % (1 << 63))
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        value = int(seed)
    elif isinstance(seed, str) and seed.strip().isascii() and seed.strip().isdigit():
        value = int(seed)
    else:
        value = -1
    if value < 0:
        raise CardsimError(f"seed must be a non-negative whole number, got {seed!r}")
    return value


def block_stream(seed: int, block: int) -> np.random.Generator:
    """Generator of block ``block``: equal to the ``block``-th child that ``SeedSequence(seed).spawn`` gives."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,))))


def block_substream(seed: int, block: int, index: int) -> np.random.Generator:
    """A further stream of block ``block``, e.g. a policy's random choices: ``SeedSequence(seed,
    spawn_key=(block, index))``, the ``index``-th child of the block's seed sequence, so it depends on
    the seed and block only, like the cards. Index 0 is reserved; streams start at 1."""
    if index < 1:
        raise ValueError("sub-stream indices start at 1")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block, index))))


def block_words(seed: int, block: int, n_deals: int, words_per_deal: int) -> np.ndarray:
    """Random words of the first ``n_deals`` deals of a block: (n_deals, words_per_deal) uint32.

    A block's words are generated for the whole block, so the first k deals are the same whether
    k or all deals are asked for. CardsimError unless 0 <= n_deals <= `BLOCK_DEALS` and block >= 0.
    """
    if not is_whole_int(n_deals) or not 0 <= n_deals <= BLOCK_DEALS:
        raise CardsimError(f"a block holds 0-{BLOCK_DEALS:,} deals; n_deals must be a whole number in that range, "
                           f"got {n_deals!r} (use more blocks for more deals)")
    if not is_whole_int(block) or block < 0:
        raise CardsimError(f"block must be a non-negative whole number, got {block!r}")
    if not is_whole_int(seed) or seed < 0:
        raise CardsimError(f"seed must be a non-negative whole number (normalize_seed), got {seed!r}")
    if not is_whole_int(words_per_deal) or not 1 <= words_per_deal <= MAX_WORDS_PER_DEAL:
        raise CardsimError(f"words_per_deal must be a whole number from 1 to {MAX_WORDS_PER_DEAL} (a DealSpec's "
                           f"words_per_deal), got {words_per_deal!r}")
    gen = block_stream(seed, block)
    half = (BLOCK_DEALS * words_per_deal + 1) // 2
    raw = gen.bit_generator.random_raw(half).view(np.uint32)
    return raw[: n_deals * words_per_deal].reshape(n_deals, words_per_deal)
