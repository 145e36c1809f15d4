"""Runner and random streams: results independent of workers and chunking, resumable runs, chunk
planning and the stream definition."""

import numpy as np
import pytest

from simcore import cache, runner
from simcore.errors import CardsimError
from simcore.games.bauernstoss_jobs import MatchJob
from simcore.games.giltspiel import FigureCondition, Known, OddsJob, StatsJob
from simcore.rng import BLOCK_DEALS, block_stream, block_words, normalize_seed

N = 3 * BLOCK_DEALS + 12_345  # not a multiple of the block size
SEED = 4242
MY_HAND = Known({1: (7, 15, 18, 25, 0)}, turnup=22)  # EA LA H9 S8 E7 at seat 1, turn-up HK


# what a bet reveals: seat 3 holds at least a pair of Obers
OPPONENT_BET = FigureCondition(seats=(3,), figure="gleich", code=5)


@pytest.fixture(scope="module")
def stats_reference():
    """StatsJob counts block by block, summed by hand: the runner's totals must equal these."""
    job = StatsJob(Known(), seat=2)
    total = np.zeros(job.n_counts, dtype=np.int64)
    for block in range(N // BLOCK_DEALS + 1):
        total += job.run_block(SEED, block, min(BLOCK_DEALS, N - block * BLOCK_DEALS))
    return total


@pytest.mark.parametrize("chunk_deals", [BLOCK_DEALS, 3 * BLOCK_DEALS, runner.DEFAULT_CHUNK_DEALS, 1000])
def test_stats_totals_do_not_depend_on_chunk_size(stats_reference, chunk_deals):
    total = runner.run(StatsJob(Known(), seat=2), N, SEED, chunk_deals=chunk_deals, checkpoint=False)
    assert total.dtype == np.int64
    assert (total == stats_reference).all()
    n, parts = StatsJob.split(total)
    assert n == N
    assert (parts["outcome"].sum(axis=1) == N).all()
    assert parts["best_gleich"].sum() == parts["best_hanger"].sum() == N
    assert parts["gleich_by_class"].sum() == parts["hanger_by_class"].sum() == N


def test_stats_totals_do_not_depend_on_workers(stats_reference):
    total = runner.run(StatsJob(Known(), seat=2), N, SEED, jobs=2, chunk_deals=BLOCK_DEALS, checkpoint=False)
    assert (total == stats_reference).all()


def test_odds_totals_do_not_depend_on_workers_or_chunks():
    job = OddsJob(MY_HAND, team=1, accept=(OPPONENT_BET,))
    results = [
        runner.run(job, N, SEED, jobs=jobs, chunk_deals=chunk, checkpoint=False)
        for jobs, chunk in ((1, BLOCK_DEALS), (1, 3 * BLOCK_DEALS), (1, runner.DEFAULT_CHUNK_DEALS),
                            (2, BLOCK_DEALS))
    ]
    for other in results[1:]:
        assert (other == results[0]).all()
    accepted = results[0][0]
    assert 0 < accepted < N  # the predicate filtered, and the tallies cover only accepted deals
    assert results[0][1:5].sum() == results[0][5:9].sum() == accepted


def test_first_deals_of_a_block_do_not_depend_on_how_many_are_asked():
    words_all = block_words(SEED, 5, BLOCK_DEALS, 25)
    words_some = block_words(SEED, 5, 1000, 25)
    assert words_all.shape == (BLOCK_DEALS, 25) and words_all.dtype == np.uint32
    assert (words_some == words_all[:1000]).all()
    job = StatsJob(Known(), seat=0)
    # a run of n deals is the prefix of a run of more deals: the extra deals only add counts
    small = runner.run(job, 1000, SEED, checkpoint=False)
    big = runner.run(job, 2000, SEED, checkpoint=False)
    assert (big >= small).all() and big[0] == 2000 and small[0] == 1000


def test_different_seeds_give_different_deals():
    job = StatsJob(Known(), seat=0)
    a = runner.run(job, 20_000, 1, checkpoint=False)
    b = runner.run(job, 20_000, 2, checkpoint=False)
    assert not (a == b).all()


# --- resume ---------------------------------------------------------------------------------------
def _subfolders(path):
    return [p for p in path.iterdir() if p.is_dir()]


def test_interrupted_run_resumes_to_the_same_totals(tmp_path, stats_reference):
    job = StatsJob(Known(), seat=2)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=1)
    (folder,) = _subfolders(tmp_path)
    assert len(list(folder.glob("chunk-*.npy"))) == 1
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=2)
    assert len(list(folder.glob("chunk-*.npy"))) == 3
    total = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (total == stats_reference).all()
    assert _subfolders(tmp_path) == []  # the checkpoint folder is removed after a finished run


def test_resume_really_loads_the_saved_chunks(tmp_path):
    job = OddsJob(Known(), team=0)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=1)
    store, chunks = _store_and_chunks(tmp_path, job)
    (index,) = store.load_finished(chunks, job.n_counts)
    # tamper, with a valid check word: a resumed run must use the file, not recompute it
    store.save(chunks[index], store.load(chunks[index], job.n_counts) + 1000)
    store.release()
    resumed = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    clean = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)
    assert (resumed == clean + 1000).all()
    assert _subfolders(tmp_path) == []


def _store_and_chunks(root, job):
    """The checkpoint store of run (job, N, SEED, BLOCK_DEALS) under ``root`` and the run's chunks."""
    chunks = runner.plan_chunks(N, BLOCK_DEALS, runner.block_size_of(job), runner.run_unit_of(job))
    return runner.Checkpoint(root, job, N, SEED, BLOCK_DEALS), chunks


def test_chunk_file_not_saved_for_that_chunk_fails_its_check_and_is_recomputed(tmp_path):
    """Counts of the right shape that are not the chunk's as saved (another chunk's file copied over it, its
    counts changed, zeros) fail the check word and are computed again, never summed into the result."""
    job = OddsJob(Known(), team=0)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=3)
    first, second, third = sorted(tmp_path.rglob("chunk-*.npy"))
    second.write_bytes(first.read_bytes())
    np.save(first, np.zeros(job.n_counts, dtype=np.int64))
    data = bytearray(third.read_bytes())
    data[-1] ^= 1  # one bit of the last count
    third.write_bytes(bytes(data))
    store, chunks = _store_and_chunks(tmp_path, job)
    assert store.load_finished(chunks, job.n_counts) == {}
    store.release()
    resumed = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (resumed == runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)).all()


def test_saved_chunk_of_another_dtype_or_shape_is_recomputed(tmp_path):
    """A chunk file that passes its check but is not (n_counts,) int64 counts as missing, not as a crash on
    resuming."""
    job = OddsJob(Known(), team=0)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=2)
    store, chunks = _store_and_chunks(tmp_path, job)
    first, second = (chunks[i] for i in store.load_finished(chunks, job.n_counts))
    counts = store.load(first, job.n_counts)
    cache.write_checked(store.path(first), counts.astype(np.float64), store._label(first))
    cache.write_checked(store.path(second), counts[:-1], store._label(second))
    assert store.load_finished(chunks, job.n_counts) == {}
    store.release()
    resumed = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (resumed == runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)).all()


def test_folder_in_place_of_a_chunk_file_is_a_cardsim_error(tmp_path):
    """A folder where a chunk is to be saved stops the run before it computes anything, naming that path."""
    job = OddsJob(Known(), team=0)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=1)
    (folder,) = _subfolders(tmp_path)
    blocker = folder / "chunk-000002.npy"
    blocker.mkdir()
    with pytest.raises(CardsimError, match="is not a file") as info:
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert str(blocker) in str(info.value) and "\n" not in str(info.value)
    assert len(list(folder.glob("chunk-*.npy"))) == 2  # the finished chunk is kept
    blocker.rmdir()
    resumed = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (resumed == runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)).all()


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")  # joblib: chunks cancelled by the interrupt
def test_interrupted_parallel_run_resumes(tmp_path, stats_reference):
    job = StatsJob(Known(), seat=2)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, jobs=2, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=1)
    total = runner.run(job, N, SEED, jobs=2, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (total == stats_reference).all()
    assert _subfolders(tmp_path) == []


def test_checkpoints_of_different_questions_do_not_mix(tmp_path):
    a, b = StatsJob(Known(), seat=0), StatsJob(Known(), seat=1)
    assert a.key() != b.key()
    assert OddsJob(Known(), team=0).key() != OddsJob(Known(), team=1).key()
    assert OddsJob(MY_HAND, team=1).key() != OddsJob(Known(), team=1).key()
    with pytest.raises(KeyboardInterrupt):
        runner.run(a, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=1)
    total_b = runner.run(b, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (total_b == runner.run(b, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)).all()
    assert len(_subfolders(tmp_path)) == 1  # a's unfinished run is still there, b's is cleaned


def test_accept_conditions_are_part_of_the_key():
    plain = OddsJob(Known(), team=0)
    assert plain.key() != OddsJob(Known(), team=0, accept=(OPPONENT_BET,)).key()
    other = FigureCondition(seats=(3,), figure="gleich", code=5, below=True)
    assert OddsJob(Known(), team=0, accept=(other,)).key() != OddsJob(Known(), team=0, accept=(OPPONENT_BET,)).key()
    assert plain.key() == OddsJob(Known(), team=0).key()


# --- planning and arguments -----------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, -1, -BLOCK_DEALS])
def test_plan_chunks_rejects_non_positive_n(n):
    with pytest.raises(CardsimError, match="positive"):
        runner.plan_chunks(n)
    with pytest.raises(CardsimError):
        runner.run(OddsJob(Known(), team=0), n, SEED, checkpoint=False)


@pytest.mark.parametrize("chunk_deals", [0, -5])
def test_plan_chunks_rejects_non_positive_chunk_size(chunk_deals):
    with pytest.raises(CardsimError, match="chunk"):
        runner.plan_chunks(100, chunk_deals)


def test_plan_chunks_refuses_more_chunks_than_it_plans(monkeypatch):
    """A run of 10**12 deals of a job of 64-deal blocks would plan 2 billion chunks (and fill the memory first):
    refused at once; the largest accepted run plans exactly `MAX_CHUNKS`."""
    with pytest.raises(CardsimError, match="make 1,953,125,000 chunks of 512, more than the 2,000,000 a run plans"):
        runner.plan_chunks(10**12, None, 64)
    monkeypatch.setattr(runner, "MAX_CHUNKS", 3)
    assert len(runner.plan_chunks(3 * 512, None, 64)) == 3
    with pytest.raises(CardsimError, match="ask for at most 1,536 deals or give a larger --chunk-size"):
        runner.plan_chunks(3 * 512 + 1, None, 64)
    assert len(runner.plan_chunks(3 * 512 + 1, 1024, 64)) == 2


def test_run_size_errors_count_the_users_units(monkeypatch):
    """A duplicate Bauernstoss match runs pairs of games: its --n counts games, so the run-size refusal
    names games and suggests the largest number of games, not of pairs (which was half of it)."""
    monkeypatch.setattr(runner, "MAX_CHUNKS", 3)
    job = MatchJob("b0", "cautious")
    assert runner.run_unit_of(job) == ("games", 2)
    pairs = 3 * runner.CHUNK_BLOCKS * job.block_size
    with pytest.raises(CardsimError, match=f"^{2 * pairs + 2:,} games make 4 chunks of "
                                           f"{2 * pairs // 3:,}, .* ask for at most {2 * pairs:,} games or"):
        runner.run(job, pairs + 1, SEED, checkpoint=False)


def test_run_rejects_less_than_one_job():
    with pytest.raises(CardsimError, match="jobs"):
        runner.run(OddsJob(Known(), team=0), 100, SEED, jobs=0, checkpoint=False)


@pytest.mark.parametrize("field, value", [("n", 1000.5), ("n", float("nan")), ("n", float("inf")), ("n", True),
                                          ("n", "100"), ("jobs", 1.5), ("chunk_deals", 512.25)])
def test_run_counts_must_be_whole_numbers(field, value):
    kwargs = {"n": 100, "jobs": 1, "chunk_deals": None, field: value}
    with pytest.raises(CardsimError, match=f"must be a whole number, got {value!r}"):
        runner.run(OddsJob(Known(), team=0), kwargs.pop("n"), SEED, checkpoint=False, **kwargs)


def test_run_takes_whole_floats_as_counts():
    job = OddsJob(Known(), team=0)
    whole = runner.run(job, 3000, SEED, chunk_deals=1024, checkpoint=False)
    assert (runner.run(job, 3e3, SEED, jobs=1.0, chunk_deals=np.int64(1024), checkpoint=False) == whole).all()


@pytest.mark.parametrize("n", [1, BLOCK_DEALS - 1, BLOCK_DEALS, BLOCK_DEALS + 1, 7 * BLOCK_DEALS + 3])
@pytest.mark.parametrize("chunk_deals", [1, BLOCK_DEALS, 2 * BLOCK_DEALS + 1, runner.DEFAULT_CHUNK_DEALS])
def test_plan_chunks_cover_the_deals_in_whole_blocks(n, chunk_deals):
    chunks = runner.plan_chunks(n, chunk_deals)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert chunks[0].start == 0 and chunks[-1].stop == n
    for before, after in zip(chunks, chunks[1:]):
        assert before.stop == after.start
        assert before.stop % BLOCK_DEALS == 0
    deals = 0
    for chunk in chunks:
        blocks = list(chunk.blocks())
        assert all(0 < size <= BLOCK_DEALS for _, size in blocks)
        assert [b for b, _ in blocks] == list(range(chunk.start // BLOCK_DEALS,
                                                    chunk.start // BLOCK_DEALS + len(blocks)))
        deals += sum(size for _, size in blocks)
    assert deals == n


# --- streams --------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed, block", [(0, 0), (1, 0), (1, 1), (20240531, 7), (2**40 + 3, 123)])
def test_block_stream_is_the_spawned_child(seed, block):
    child = np.random.SeedSequence(seed).spawn(block + 1)[block]
    want = np.random.Generator(np.random.PCG64(child)).bit_generator.random_raw(64)
    got = block_stream(seed, block).bit_generator.random_raw(64)
    assert (got == want).all()


def test_block_words_are_the_stream_as_32_bit_words():
    raw = block_stream(7, 3).bit_generator.random_raw(10)
    words = block_words(7, 3, 4, 5)
    assert (words.ravel() == raw.view(np.uint32)[:20]).all()


@pytest.mark.parametrize("seed, value", [(0, 0), (17, 17), (np.int64(5), 5), ("123", 123), (" 9 ", 9)])
def test_normalize_seed_accepts_whole_numbers(seed, value):
    assert normalize_seed(seed) == value


@pytest.mark.parametrize("seed", [-1, 1.5, "abc", "-3", True, [1]])
def test_normalize_seed_rejects_other_values(seed):
    with pytest.raises(CardsimError, match="seed"):
        normalize_seed(seed)


def test_normalize_seed_none_draws_a_fresh_reportable_seed():
    a, b = normalize_seed(None), normalize_seed(None)
    assert isinstance(a, int) and 0 <= a < 2**63
    assert a != b


@pytest.mark.parametrize("n_deals, block", [(-5, 0), (BLOCK_DEALS + 1, 0), (2.0, 0), (True, 0), (10, -1)])
def test_block_words_refuses_counts_outside_a_block(n_deals, block):
    """Before, n_deals=-5 sliced from the end (65,531 deals) and more than a block raised numpy's reshape error."""
    with pytest.raises(CardsimError, match="n_deals must be a whole number|block must be a non-negative"):
        block_words(7, block, n_deals, 10)


def test_readme_low_level_example_runs():
    from simcore.dealing import deal
    from simcore.games import giltspiel as g

    spec = g.Known(seat_cards={1: tuple(g.DECK.parse_cards("LA SA H10 E9 E8"))}).deal_spec()
    slots = deal(spec, block_words(seed=7, block=0, n_deals=50_000, words_per_deal=spec.words_per_deal))
    assert slots.shape == (50_000, 6)


def test_an_unknown_keyword_names_the_function_and_run_options():
    """Before, giltspiel.odds(..., job=2) raised Python's TypeError naming the internal run()."""
    from analysis.games import bauernstoss, giltspiel

    with pytest.raises(CardsimError, match="^unknown keyword argument 'job' \\(did you mean 'jobs'\\?\\); choose one "
                                           "of: hand, seat, turnup, .*, jobs, chunk_deals, checkpoint, .*dask_workers$"):
        giltspiel.odds("LA SA H10 E9 E8", n=100, seed=1, job=2)
    with pytest.raises(CardsimError, match="^unknown keyword argument 'sed' \\(did you mean 'seed'\\?\\); choose one "
                                           "of: hand, seat, method, n, seed, first_hand"):
        bauernstoss.odds("cB sB hA hT hK h9 s7 d8", 1, n=20, sed=1)  # run is called from an inner helper here


@pytest.mark.parametrize("kw, message", [
    ({"checkpoint": 1}, "^checkpoint must be a folder \\(a str or Path\\), True, False or None, got 1$"),
    ({"checkpoint": 3.5}, "^checkpoint must be a folder"),
    ({"progress": "no"}, "^progress must be True or False, got 'no'$"),
    ({"stop_after": 0}, "^stop_after must be at least 1, got 0$"),
    ({"stop_after": 1.5}, "^stop_after must be a whole number"),
    ({"scheduler": 8786}, "^scheduler must be a dask scheduler address"),
    ({"dask_workers": 0}, "^--dask-workers must be at least 1, got 0$"),
])
def test_run_keywords_of_a_wrong_type_are_refused(kw, message):
    """Before, checkpoint=1 raised pathlib's TypeError and progress='no' showed a bar (a non-empty text is true)."""
    from analysis.games import giltspiel

    with pytest.raises(CardsimError, match=message):
        giltspiel.odds("LA SA H10 E9 E8", n=100, seed=1, **kw)
