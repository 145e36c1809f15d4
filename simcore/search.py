"""Transposition-table helpers shared by the double-dummy solvers: the slot hash, cache-aligned
storage, the window steps of an alpha-beta written as nested loops (`cut_off`, `narrow`) and the
words of a shape-lead table (a move-ordering hint per position shape: the lead that last cut off at
a trick start of the same shape). The solvers keep their own keys, tags, entry layouts and what their
shapes and lead codes hold."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from simcore import checks
from simcore.config import njit_inline
from simcore.errors import CardsimError

CACHE_LINE = 64
"""Bytes of a cache line: tables are aligned to it so that a bucket never straddles two lines."""


@njit_inline
def table_slot(k1, k2, tag, size):
    """Table index of the key (k1, k2) under ``tag`` in a table of ``size`` (a power of two) rows.
    Every key bit reaches the index: a product's low bits depend only on the factor's low bits, so
    each product is folded (high half onto low half) before the low bits are taken. (Taking the low
    bits of plain products made positions differing only in high key bits share one slot: 1.8x more
    nodes in the Bauernstoss solver.)"""
    h = (k1 ^ np.uint64(tag)) * np.uint64(0x9E3779B97F4A7C15)
    h = (h ^ (h >> np.uint64(32)) ^ k2) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(size - 1))


@njit_inline
def cut_off(best, lo, hi, maximise):
    """True if ``best`` of a node of the side that maximises (or minimises) lies outside (lo, hi)."""
    return best >= hi if maximise else best <= lo


@njit_inline
def narrow(best, lo, hi, maximise):
    """The window (lo, hi) of a node's next child given the node's ``best`` so far."""
    return (max(lo, best), hi) if maximise else (lo, min(hi, best))


def _prefetch_intrinsic(typingctx, address):
    """Ask the CPU to start loading the cache line at ``address`` (an integer) without waiting for it
    (llvm.prefetch: read, keep in all cache levels)."""
    if not isinstance(address, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [ir.PointerType(), i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(fn, [builder.inttoptr(args[0], ir.PointerType()), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(address), codegen


def _unowned_intrinsic(typingctx, array):
    """The same array without its owner (meminfo and parent null): numba's reference counts of such a
    view skip the atomic add and subtract."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(signature.return_type)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


def _bmi2_intrinsic(instruction: str):
    """The typer of an intrinsic running the BMI2 ``instruction`` ("pext" or "pdep") on two uint64 words."""
    def typer(typingctx, value, mask):
        def codegen(context, builder, signature, args):
            word = ir.IntType(64)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(word, [word, word]),
                                                f"llvm.x86.bmi.{instruction}.64")
            return builder.call(fn, args)

        return types.uint64(types.uint64, types.uint64), codegen

    return typer


def _set_bits(mask) -> list[int]:
    """The places of the set bits of a 64-bit ``mask``, lowest first."""
    return [bit for bit in range(64) if (int(mask) >> bit) & 1]


def extract_bits(value, mask) -> int:
    """The bits of ``value`` at the set bits of ``mask``, packed to the low bits in order (x86 BMI2 pext); Python
    integers, the reference of `bit_extract`."""
    return sum(((int(value) >> bit) & 1) << place for place, bit in enumerate(_set_bits(mask)))


def deposit_bits(value, mask) -> int:
    """The low bits of ``value`` spread in order to the set bits of ``mask`` (x86 BMI2 pdep); Python integers, the
    reference of `bit_deposit`."""
    return sum(((int(value) >> place) & 1) << bit for place, bit in enumerate(_set_bits(mask)))


def _fast_bit_gather() -> bool:
    """Whether the kernels are compiled for a CPU with fast pext and pdep: BMI2 (Intel from Haswell, AMD from
    Zen 1), except AMD Zen 1 and 2, which run them in microcode (tens to hundreds of cycles). False where numba is
    told to compile for another CPU (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES), whose code may lack them."""
    from llvmlite import binding

    if config.CPU_NAME or config.CPU_FEATURES:
        return False
    try:
        features, name = binding.get_host_cpu_features(), binding.get_host_cpu_name()
    except RuntimeError:  # no feature list on this platform
        return False
    return bool(features.get("bmi2")) and name not in ("znver1", "znver2")


FAST_BIT_GATHER = _fast_bit_gather()
"""True where `bit_extract` and `bit_deposit` are one fast instruction each; kernels that use them keep a portable
path for the other CPUs (compiling them there would fail)."""


if config.DISABLE_JIT:  # the kernels run as Python (simcore.config): a prefetch is only a hint
    def prefetch(address):
        """Nothing: Python has no cache line to ask for."""

    def unowned(array):
        """The array itself: Python counts references its own way."""
        return array

    def bit_extract(value, mask):
        """`extract_bits` as a uint64."""
        return np.uint64(extract_bits(value, mask))

    def bit_deposit(value, mask):
        """`deposit_bits` as a uint64."""
        return np.uint64(deposit_bits(value, mask))
else:
    bit_extract = intrinsic(_bmi2_intrinsic("pext"))
    """uint64 ``value``'s bits at ``mask``'s set bits packed low (`extract_bits`), one instruction; only where
    `FAST_BIT_GATHER`."""
    bit_deposit = intrinsic(_bmi2_intrinsic("pdep"))
    """uint64 ``value``'s low bits spread to ``mask``'s set bits (`deposit_bits`), one instruction; only where
    `FAST_BIT_GATHER`."""
    prefetch = intrinsic(_prefetch_intrinsic)
    """Start loading the cache line at integer ``address`` (e.g. ``table.ctypes.data`` + byte offset) without
    waiting for it: a table bucket's lines fetched while the caller computes something else."""
    unowned = intrinsic(_unowned_intrinsic)
    """A view of ``array`` that numba does not reference-count (its owner pointer null), for arrays handed to
    kernels called at many nodes: each such hand-over otherwise raises and lowers the owner's count, an atomic
    add and subtract. The caller must keep ``array`` itself alive while the view is in use: an argument of the
    caller is, but numba frees a local array after its last use in the source, which a later use of the view
    does not extend."""


MOST_TABLE_BITS = 30
"""The largest transposition table `table_rows` makes: 2**30 rows (32 GiB of 32-byte entries)."""


def table_rows(bits, bucket: int = 1) -> int:
    """2**bits, the rows of a new transposition table whose buckets hold ``bucket`` rows (a power of two), for whole
    ``bits`` from log2(bucket) to `MOST_TABLE_BITS`; CardsimError otherwise."""
    least = bucket.bit_length() - 1
    return 1 << checks.whole(bits, "table bits (the table holds 2**bits entries)", least, MOST_TABLE_BITS)


def checked_table(table, new_table, bucket: int = 1, what: str = "table"):
    """``table``, a scratch transposition table a caller keeps from call to call (None: the solver makes its own),
    once it is laid out as ``new_table(bits)`` lays one out: a tuple of C-ordered writable arrays of its dtypes and
    row widths, the rows a power of two and at least ``bucket``, so that no kernel reads or writes past it.
    CardsimError otherwise. What the entries hold is not checked: give a table of ``new_table``, kept for this
    solver only."""
    if table is None:
        return None
    model = new_table(4)
    size = table[0].shape[0] if isinstance(table, tuple) and table and getattr(table[0], "ndim", 0) else 0
    if not (size >= bucket and size & (size - 1) == 0 and len(table) == len(model)
            and all(laid_out_as(array, like, size if like.shape[0] == model[0].shape[0] else like.shape[0])
                    for array, like in zip(table, model))):
        raise CardsimError(f"{what} must be a transposition table made by {new_table.__module__}.{new_table.__name__}"
                           f"() (or None for a new one), got {layout_text(table)}")
    return table


def layout_text(value) -> str:
    """What a scratch argument is, for an error message: its arrays' dtypes and shapes ("a tuple of uint64 (6, 4),
    int64 (2,)"), not their contents."""
    def one(item) -> str:
        return f"{item.dtype} {item.shape}" if isinstance(item, np.ndarray) else checks.shown(item, 20)
    if isinstance(value, tuple):
        return f"a tuple of {', '.join(one(item) for item in value[:8])}{', ...' if len(value) > 8 else ''}"
    return one(value)


def laid_out_as(array, like: np.ndarray, rows: int) -> bool:
    """Whether ``array`` is a C-ordered writable array of ``like``'s dtype, ``rows`` rows and ``like``'s row shape."""
    return (isinstance(array, np.ndarray) and array.dtype == like.dtype and array.shape == (rows, *like.shape[1:])
            and array.flags.c_contiguous and array.flags.writeable)


def aligned_zeros(rows: int, columns: int) -> np.ndarray:
    """(rows, columns) uint64 zeros whose first byte starts a cache line."""
    words = rows * columns
    raw = np.zeros(words + CACHE_LINE // 8, dtype=np.uint64)
    start = (-raw.ctypes.data % CACHE_LINE) // 8
    return raw[start:start + words].reshape(rows, columns)


SHAPE_MIX = np.uint64(0x9E3779B97F4A7C15)
_LOW_BYTE = np.uint64(255)


@njit_inline
def shape_mix(shape, count):
    """A running shape hash (uint64) with the small count ``count`` (0 or more) folded in."""
    return shape * SHAPE_MIX + np.uint64(count)


@njit_inline
def shape_done(shape):
    """The finished shape hash: the high bits folded onto the low ones (the table slot is the low bits)."""
    return shape ^ (shape >> np.uint64(29))


@njit_inline
def shape_word(shape, code):
    """A shape-lead table word: the shape's upper 56 bits and ``code`` (0-254) + 1 in the low byte."""
    return (shape & ~_LOW_BYTE) | np.uint64(code + 1)


@njit_inline
def shape_code(word, shape):
    """The code (0-254) of a shape-lead table word written for ``shape``; -1 for another shape or an empty
    word (0)."""
    if word == 0 or (word ^ shape) & ~_LOW_BYTE:
        return -1
    return np.int64(word & _LOW_BYTE) - 1
