"""``cardsim odds dreeg --players 2``: the duel odds of one hand (spec §3.1.2, §3.2.2, §3.3.2, §6.2)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import dreeg as api
from simcore import runner
from simcore.games import dreeg_play
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import DECK, rule_options
from simcore.games.dreeg_duel_odds import DUEL_COUNTS, DuelOddsJob, DuelQuestion, duel_slots
from simcore.games.dreeg_play import deal_for, play_hand
from simcore.games.dreeg_policies import Committed, GreedyPolicy
from simcore.rng import block_stream

RUN = dict(progress=False, checkpoint=False)
HAND = "HA H10 HK EA E10 S9"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cards(text: str) -> tuple[int, ...]:
    return tuple(DECK.parse_cards(text, "cards"))


@pytest.mark.parametrize("args, message", [
    (["--phase", "4", "--hand", HAND], "phase 4 is Kamerun, which has no 2-player hand"),
    (["--phase", "5", "--hand", HAND], "has no 2-player hand"),
    (["--phase", "1", "--hand", "HA H10 HK"], "--hand must list 6 cards with 2 players, got 3"),
    (["--phase", "1", "--hand", "HA H10 HK EA E10 S9 L9 LU"], "--hand must list 6 cards with 2 players, got 8"),
    (["--phase", "3", "--hand", "SA S10 SK", "--position", "1"], "a Rufen forehand may give his first packet"),
    (["--phase", "1", "--hand", HAND, "--position", "2"], "--position must be 0 (forehand) or 1 (dealer)"),
    (["--phase", "3", "--hand", HAND, "--call", "EK"], "--call does not exist with 2 players"),
    (["--phase", "2", "--hand", HAND, "--turnup", "S9"], "--turnup (the trump indicator) exists only in the 66 duel"),
    (["--phase", "1", "--hand", HAND, "--turnup", "HA"], "must not be one of --hand"),
    (["--phase", "1", "--hand", HAND, "--trump", "H"], "--trump does not exist in the 66 duel"),
    (["--phase", "3", "--hand", HAND, "--trump", "H", "--position", "1"], "only forehand (--position 0) names"),
    (["--phase", "3", "--hand", "SA S10 SK", "--trump", "surrender"], "Rufen has no surrender"),
    (["--phase", "2", "--hand", "EA E10 LK HO E9 L9", "--trump", "S"], "only the holder of the heart ace"),
    (["--phase", "2", "--hand", HAND, "--trump", "surrender"], "2-player Rot Assen has no surrender"),
    (["--phase", "3", "--hand", "EA E10 LK HO E9 L9", "--trump", "S", "--option", "duel_rufen_suit_in_packet=true"],
     "illegal trump S"),
    (["--phase", "1", "--hand", HAND, "--option", "ra_solo_win_3=true"],
     "option ra_solo_win_3=true does not change one 2-player hand of phase 1 (Sechsundsechzig)"),
    (["--phase", "2", "--hand", HAND, "--option", "duel66_indicator=bottom"],
     "option duel66_indicator=bottom does not change one 2-player hand of phase 2 (Rot Assen)"),
    (["--phase", "1", "--hand", HAND, "--option", "kamerun_bei_nacht=phase4"],
     "option kamerun_bei_nacht=phase4 does not change one 2-player hand of phase 1"),
    (["--phase", "1", "--hand", HAND, "--players", "5"],
     "argument --players: invalid choice: '5' (choose from 2, 3, 4)"),
])
def test_bad_input(capsys, args, message):
    code, out, err = run_cli(capsys, "odds", "dreeg", "--players", "2", "--n", "20", "--no-progress", *args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("args, given", [
    (["--phase", "2", "--hand", "HA E10 LK HO E9 L9", "--trump", "E"], "at forehand (trump E)"),
    (["--phase", "2", "--hand", "HA E10 LK HO E9 L9", "--trump", "surrender"], "at forehand (surrenders)"),
    (["--phase", "3", "--hand", "EA E10 LK HO E9 L9", "--call", "EK"], "at forehand (calls EK)"),
    (["--phase", "1", "--hand", "HA H10 HK HO E9 L9", "--turnup", "H9"], "at forehand (turn-up H9)"),
])
def test_the_title_names_what_the_question_fixes(capsys, args, given):
    """Three and four players too: the turn-up, the call and the trump chosen (or surrender) are in the title."""
    code, out, _ = run_cli(capsys, "odds", "dreeg", *args, "--n", "50", "--seed", "1", "--no-progress")
    assert code == 0 and given in out.splitlines()[0]


def test_text_names_the_duel_and_the_policy(capsys):
    code, out, _ = run_cli(capsys, "odds", "dreeg", "--players", "2", "--phase", "1", "--hand", HAND, "--turnup",
                           "SU", "--position", "1", "--n", "100", "--seed", "1", "--no-progress")
    assert code == 0 and "2-player duel" in out and "at dealer (indicator SU)" in out
    assert "both seats play greedy" in out and "n = 100 deals" in out and "reaches 66 first" in out


def test_same_numbers_whatever_jobs_and_chunks(capsys):
    argv = ("odds", "dreeg", "--players", "2", "--phase", "2", "--hand", HAND, "--trump", "H", "--n", "200",
            "--seed", "9", "--json", "--no-progress", "--no-checkpoint")
    one = run_cli(capsys, *argv)[1]
    assert run_cli(capsys, *argv, "--jobs", "2", "--chunk-size", "50")[1] == one


def test_same_counts_over_several_blocks_chunks_and_processes():
    """A job with small blocks (several random streams), split in 1, 2 and 4 chunks, the last on 2 processes."""
    q = DuelQuestion(3, 2, cards("SA S10 SK"), 0, trump=r.DECK.suits.index("S"))
    job = DuelOddsJob(q, block_size=40)
    a = runner.run(job, 160, 5, chunk_deals=160, **RUN)
    b = runner.run(job, 160, 5, chunk_deals=80, **RUN)
    c = runner.run(job, 160, 5, chunk_deals=40, jobs=2, **RUN)
    assert (a == b).all() and (a == c).all() and a[0] == 160


def test_the_top_trumps_win_far_more_often_than_a_weak_hand():
    kw = dict(phase=1, players=2, n=300, seed=3, **RUN)
    strong = api.odds(hand="SA S10 SK SO HA EA", turnup="SU", **kw).set_index("quantity")
    weak = api.odds(hand="E9 EU L9 LU H9 HU", turnup="SA", **kw).set_index("quantity")
    assert strong.loc["win", "p"] > 0.9 > 0.3 > weak.loc["win", "p"]
    assert strong.loc["first66", "p"] > weak.loc["first66", "p"]
    for frame in (strong, weak):
        assert ((0 <= frame["lo"]) & (frame["lo"] <= frame["p"]) & (frame["p"] <= frame["hi"])
                & (frame["hi"] <= 1)).all()
        p = frame["p"]
        assert sum(p[f"erase.{k}"] for k in range(4)) == pytest.approx(1)
        assert sum(p[f"opp_erase.{k}"] for k in range(4)) == pytest.approx(1)
        # one side erases: the hero wins exactly when the opponent erases nothing
        assert p["win"] == pytest.approx(1 - sum(p[f"opp_erase.{k}"] for k in (1, 2, 3)))
        # losing Schwarz (no trick) and Schneider (a trick, < 33) are disjoint ways to lose
        assert p["schwarz"] + p["schneider"] <= 1 - p["win"] + 1e-12
        assert p["first66"] <= p["reach66"] + p["win"]


def test_rufen_forehand_from_three_cards_and_per_named_suit():
    """§6.2 "Rufen duel": P(win) for a named trump after 3 cards; naming the suit of A 10 K beats naming a void."""
    kw = dict(phase=3, hand="SA S10 SK", players=2, n=300, seed=4, **RUN)
    good = api.odds(trump="S", **kw).set_index("quantity").loc["win", "p"]
    bad = api.odds(trump="E", **kw).set_index("quantity").loc["win", "p"]
    assert good > bad + 0.2


def test_json_carries_the_strokes_means():
    frame = api.odds(2, HAND, players=2, position=1, trump="H", n=150, seed=2, **RUN)
    data = api.odds_json(frame)
    assert data["players"] == 2 and data["subgame"] == "Rot Assen" and data["trump"] == "H"
    p = frame.set_index("quantity")["p"]
    assert data["strokes"]["mean"] == pytest.approx(sum(k * p[f"erase.{k}"] for k in range(4)))
    assert data["net"]["mean"] == pytest.approx(data["strokes"]["mean"]
                                                - sum(k * p[f"opp_erase.{k}"] for k in range(4)))
    json.dumps(data)


# --- plain-Python references ---------------------------------------------------------------------------
@pytest.mark.parametrize("subgame, phase, indicator", [("66", 1, "between_packets"), ("66", 1, "13th_card"),
                                                       ("66", 8, "bottom"), ("RA", 2, None), ("RU", 3, None)])
def test_pack_deals_the_hero_his_cards_and_the_indicator(subgame, phase, indicator):
    options = (("duel66_indicator", indicator),) if indicator else ()
    opts = rule_options(**dict(options))
    hand = cards("EA E10 LK HO E9 L9")
    turnup = cards("S9")[0] if subgame == "66" else -1
    rng = np.random.default_rng(1)
    for position in (0, 1):
        q = DuelQuestion(phase, 2, hand, position, turnup, options=options)
        for _ in range(20):
            perm = q.pack(rng)
            assert sorted(perm) == list(range(24))
            hands, talon = deal_for(subgame, perm, 2, opts)
            assert hands[position] == sum(1 << c for c in hand)
            if subgame == "66":
                assert talon[-1] == turnup and len(talon) == 12
            if subgame == "RU" and position == 0:
                assert r.first_packet(perm) == sum(1 << c for c in hand[:3])
    assert duel_slots("RA", opts)[0] == [[0, 1, 2, 6, 7, 8], [3, 4, 5, 9, 10, 11]]  # §2.4: 3 + 3, FH first


def _reference_counts(q: DuelQuestion, n: int, seed: int, monkeypatch) -> dict:
    """The job's counts recomputed deal by deal in plain Python: the same deals (block 0's stream), greedy play
    (deterministic) without the watcher, and the first side at 66 watched inside the engine after every trick
    and announcement."""
    first: list = []

    def watch(play):
        if not first:
            first.extend(s for s in (0, 1) if play.side_score(s) >= r.TARGET)

    finish, announce = dreeg_play.Play._finish_trick, dreeg_play.Play._announce

    def finish_watched(self, winner):
        finish(self, winner)
        watch(self)

    def announce_watched(self, pos, lead):
        out = announce(self, pos, lead)
        watch(self)
        return out

    monkeypatch.setattr(dreeg_play.Play, "_finish_trick", finish_watched)
    monkeypatch.setattr(dreeg_play.Play, "_announce", announce_watched)
    opts = rule_options(**dict(q.options))
    got = dict.fromkeys(("deals", "win", "first66", "opp_first66", "schneider", "schwarz", "strokes", "net"), 0)
    cards_rng = block_stream(seed, 0)
    for _ in range(n):
        first.clear()
        players = [GreedyPolicy(), GreedyPolicy()]
        if q.trump is not None:
            players[q.position] = Committed(players[q.position], ra_trump=q.trump, name_trump=q.trump)
        res = play_hand(q.subgame, q.phase, q.pack(cards_rng), players, opts)
        me, other = res.erase[q.position], res.erase[1 - q.position]
        tricks = res.tricks[q.position] if res.tricks else 0
        lost = other > 0
        got["deals"] += 1
        got["win"] += me > 0
        if first:
            got["first66" if first[0] == q.position else "opp_first66"] += 1
        got["schwarz"] += bool(res.scores) and lost and tricks == 0
        got["schneider"] += bool(res.scores) and lost and tricks > 0 and res.scores[q.position] < r.SCHNEIDER
        got["strokes"] += me
        got["net"] += me - other
    return got


@pytest.mark.parametrize("phase, hand, position, turnup, trump", [
    (1, "HA H10 HK EA E10 S9", 0, "SU", None), (1, "EA LK HO E9 L9 SU", 1, "HU", None),
    (2, HAND, 1, None, "H"), (3, "SA S10 SK", 0, None, "S"), (6, "EA LK HO E9 L9 SU", 1, None, None),
])
def test_job_counts_match_a_plain_python_replay(phase, hand, position, turnup, trump, monkeypatch):
    n, seed = 150, 11
    q = DuelQuestion(phase, 2, cards(hand), position, cards(turnup)[0] if turnup else -1,
                     trump=None if trump is None else r.DECK.suits.index(trump))
    counts = dict(zip(DUEL_COUNTS, runner.run(DuelOddsJob(q), n, seed, **RUN).tolist()))
    want = _reference_counts(q, n, seed, monkeypatch)
    assert counts["deals"] == want["deals"] == n
    assert sum(counts[f"erase{k}"] for k in (1, 2, 3)) == want["win"]
    for name in ("first66", "opp_first66", "schneider", "schwarz", "strokes", "net"):
        assert counts[name] == want[name], name


@pytest.mark.parametrize("players, phase, hand, turnup", [(4, 3, "EA E10 LK HO E9 L9", None),
                                                          (2, 1, "SA S10 HK HO E9 L9", "SU")])
def test_both_sides_at_66_rows(players, phase, hand, turnup):
    """Two-sided hands: P(my side has 66), P(the other side has), P(neither has): every deal is in one of them or
    in both of the first two (marriages can lift both sides past 66), and the text names them."""
    frame = api.odds(phase, hand, players=players, turnup=turnup, n=300, seed=1, progress=False, checkpoint=False)
    got = frame.set_index("quantity").successes
    mine, other, neither = (int(got[k]) for k in ("reach66", "opp_reach66", "none66"))
    assert neither <= 300 - max(mine, other) and mine + other + neither >= 300 and neither > 0
    text = api.format_odds(frame)
    assert "neither side has 66" in text and ("other side reaches 66" in text or "opponent has 66 at end" in text)


@pytest.mark.parametrize("hand", ["EA E10 EK LA L10 HA", "EA LA E9 L9 SU H9"])
def test_kamerun_rows(hand):
    """Kamerun: P(the hand takes no trick), and the Durchmarsch's success among the deals that win trick 1, whose
    n is the deals winning trick 1 (the row is left out when none does)."""
    frame = api.odds(4, hand, n=200, seed=7, progress=False, checkpoint=False)
    rows = frame.set_index("quantity")
    assert 0 <= rows.loc["no_trick", "p"] <= 1
    won = int(rows.loc["trick1", "successes"])
    if won:
        row = rows.loc["durchmarsch_if_trick1"]
        assert row.n == won and row.successes == rows.loc["durchmarsch", "successes"]
    else:
        assert "durchmarsch_if_trick1" not in rows.index
    assert "takes no trick" in api.format_odds(frame)
