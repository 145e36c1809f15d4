"""`cardsim odds perlaggen --players 2|3|6`, `--given` and `--both-gestrichen`: the counts against a plain-Python
recount of the same sampled deals (tests/naive_perlaggen_deal.py: exchanges and L0 codes), the §8.13 key as the
spec writes it, the same numbers whatever --jobs / --chunk-size, and the one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import naive_perlaggen_deal as naive
from analysis.cli import main
from analysis.games import perlaggen as AP
from simcore.dealing import deal
from simcore.games import perlaggen as P
from simcore.games import perlaggen_betting as PB
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_variants as V
from simcore.errors import CardsimError
from simcore.rng import block_words

N = 4096
SEED = 11
CASES = [  # players, style, hand size, seat, hand, turn-up, given
    (2, "innsbruck", 7, 1, "S6 LA LK L8 E10 H9 H8", "L10", ()),
    (3, "innsbruck", 7, 0, "HK EA LA SA E8 S9 S10", "H8", ("opponents gleich >= three As",)),
    (3, "straf", 7, 2, "S7 EU E9 E8 H10 HA L7", "HO", ()),
    (6, "innsbruck", 4, 3, "S6 LA LK L8", "L10", ("partner hanger < A-K-O",)),
    (6, "eichel", 5, 2, "HK E9 EA S10 SK", "LA", ()),
]


def spec_key_winner(codes, least: int, length_only: bool):
    """§8.13 as the spec writes it: key = (size, 1 if Gleich else 0, code) of figures of >= least cards, the
    team (seat % 2) with the larger best key wins; equal or none -> None (A-26: length only)."""
    best = []
    for team in (0, 1):
        keys = [(-1,)]
        for seat in range(team, len(codes), 2):
            for code, is_gleich in ((codes[seat][0], 1), (codes[seat][1], 0)):
                if code // 16 >= least:
                    keys.append((code // 16,) if length_only else (code // 16, is_gleich, code))
        best.append(max(keys))
    return None if best[0] == best[1] else int(best[1] > best[0])


def recount(players, style, size, seat, hand, turnup, given) -> np.ndarray:
    """The TableOddsJob counts of block 0 (N deals, SEED) recounted in plain Python on the same sampled places."""
    known = AP.parse_known(hand, seat, turnup, style=style, players=players, hand_size=size)
    conditions = AP.parse_given(given, seat, players, size)
    spec = known.deal_spec(P.has_weli(style))
    slots = deal(spec, block_words(SEED, 0, N, spec.words_per_deal))
    trump = P.DECK.suits[known.trump]
    wild = P.perlaggen(style, trump)
    side = V.side_mask(players, seat)
    out = np.zeros(12, dtype=np.int64)
    for row in slots:
        stopper = P.DECK.cards_of(int(row[players + 1]))[0]
        if stopper in P.permanent_perlaggen(style):
            continue
        turned = [P.DECK.token(c) for c in P.DECK.cards_of(int(row[players]))]
        eichel = style in D.EICHEL_DEALS + ("straf",)
        trump_card = [c for c in turned if not (eichel and c[0] == "E")]
        if len(trump_card) != 1 or trump_card[0][0] != trump:
            continue
        table = {"trump": trump, "turned": trump_card[0], "exposed": [c for c in turned if c != trump_card[0]],
                 "table": set(turned), "swapper": None, "upgrades": 0, "acorn_swaps": 0,
                 "hands": {s: [P.DECK.token(c) for c in P.DECK.cards_of(int(row[s]))] for s in range(players)}}
        naive._exchange_table(table, style, (0, 2, 4) if players == 6 else (0,), True)
        if sorted(table["hands"][seat]) != sorted(hand.split()) or table["table"] != set(turned):
            continue  # the seat's hand, and "no exchange": the face-up cards stay as turned
        codes = [naive.l0(table["hands"][s], style, trump) for s in range(players)]
        if not all((max([codes[s][f] for s in range(players) if mask >> s & 1]) < code) == bool(below)
                   for mask, f, code, below in conditions):
            continue
        out[0] += 1
        for f in range(2):
            mine = max(codes[s][f] for s in range(players) if side >> s & 1)
            theirs = max(codes[s][f] for s in range(players) if not side >> s & 1)
            out[1 + 4 * f + (0 if mine > theirs else 2 if theirs > mine else 3 if mine == 0 else 1)] += 1
        if players != 3:
            winner = spec_key_winner(codes, *D.gestrichen_args(style))
            out[9 + (2 if winner is None else 0 if winner == seat % 2 else 1)] += 1
    assert wild  # the style's Perlaggen exist for this trump
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p-{c[1]}-{c[2]}")
def test_counts_equal_plain_recount(case):
    players, style, size, seat, hand, turnup, given = case
    known = AP.parse_known(hand, seat, turnup, style=style, players=players, hand_size=size)
    question = V.TableOdds(known, V.TableRules(players, style, size), AP.parse_given(given, seat, players, size))
    counts = V.TableOddsJob(question).run_block(SEED, 0, N)
    assert counts[0] > N // 4
    assert counts.tolist() == recount(*case).tolist()


def test_four_player_given_and_gestrichen_equal_recount():
    """Four players: --given rejects exactly the deals whose opponents' best Gleich is below the class, the
    both-gestrichen counts follow the spec's §8.13 key, and the seat's own figure is counted single or tied best as
    a plain reading of the four hands says (on the played rows of the Spiel job's replay)."""
    from simcore.games import perlaggen_play as PP

    known = AP.parse_known("S6 LA LK L8 E10", 2, "L10")
    conditions = AP.parse_given(("opponents gleich >= pair of Os",), 2)
    job = D.OddsJob(known, D.DealRules(), conditions=conditions)
    counts = job.run_block(SEED, 0, N)
    spiel = PP.SpielJob(known, D.DealRules(), "greedy", conditions=conditions)
    rows, keep = spiel._rows(SEED, 0, N)
    assert keep.sum() == counts[0] > 0
    codes = [[naive.l0([P.DECK.token(c) for c in P.DECK.cards_of(int(r[s]))], "innsbruck", "L") for s in range(4)]
             for r in rows[keep]]
    assert all(max(c[1][0], c[3][0]) >= 16 * 2 + 6 for c in codes)
    winners = [spec_key_winner(c, 3, False) for c in codes]
    assert counts[9:12].tolist() == [winners.count(0), winners.count(1), winners.count(None)]
    own = [0, 0, 0, 0]  # seat 2's own L0 Gleich, Hanger: the single best at the table, tied for the best
    for c in codes:
        for f in range(2):
            top = max(c[s][f] for s in range(4))
            if c[2][f] == top > 0:
                own[2 * f + (0 if [c[s][f] for s in range(4)].count(top) == 1 else 1)] += 1
    assert counts[12:].tolist() == own and sum(own) > 0
    plain = D.OddsJob(known).run_block(SEED, 0, N)
    assert plain[0] > counts[0]


def test_both_gestrichen_winner_is_the_spec_key():
    """The betting engine's §8.13 comparison (now on perlaggen_deal._gestrichen) against the spec's key."""
    rng = np.random.default_rng(3)
    for style in ("innsbruck", "eichel"):
        for _ in range(300):
            hands, trump = PB.kit(style).draw_deal(rng)
            cards = PB.cards_for(style, trump)
            codes = [tuple(max(c, 0) for c in cards.codes(h)) for h in hands]
            assert cards.both_gestrichen_winner(hands) == spec_key_winner(codes, *D.gestrichen_args(style))


def test_both_gestrichen_counts_a_played_perlagg_as_its_baptism():
    """B3: a baptism holds for the deal, so when both teams become gestrichen during it (§8.13), a Perlagg already
    played as LA is no longer free: the Martl made four 9s of seat 0 (beating three Kings), as LA only three."""
    cards = PB.cards_for("innsbruck", P.DECK.suits.index("H"))
    hands = [P.DECK.parse_cards(t) for t in ("HK E9 L9 S9 EA", "EK LK SK E8 L8", "E10 LA SU L10 H9", "SA LO EU SO H8")]
    martl, ace = P.DECK.parse_cards("HK LA")
    assert cards.both_gestrichen_winner(hands) == 0
    assert cards.both_gestrichen_winner(hands, [{martl: ace}, {}, {}, {}]) == 1


@pytest.mark.parametrize("extra", [["--players", "3"], ["--players", "6", "--both-gestrichen"]])
def test_same_numbers_whatever_jobs_and_chunks(extra, capsys):
    hand = "S6 LA LK L8 E10 H9 H8" if extra[1] == "3" else "S6 LA LK L8"
    base = ["odds", "perlaggen", "--hand", hand, "--turnup", "L10", "--n", "150000", "--seed", "3", "--json",
            "--no-progress", *extra]
    outs = []
    for run in ([], ["--jobs", "2", "--chunk-size", "65536"], ["--chunk-size", "131072"]):
        assert main(base + run) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] == outs[2]


def test_table_spiel_greedy(capsys):
    """--spiel greedy at three players: win + lose + hin = 1 over its own sample; the JSON names the table."""
    assert main(["odds", "perlaggen", "--players", "3", "--style", "straf", "--hand", "HK S6 S7 HA H10 H9 LA",
                 "--turnup", "H8", "--n", "600", "--seed", "2", "--spiel", "greedy", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    est = data["estimates"]
    assert data["players"] == 3 and data["hand_size"] == 7 and data["spiel"] == "greedy"
    assert abs(est["spiel.win"]["p"] + est["spiel.lose"]["p"] + est["spiel.void"]["p"] - 1) < 1e-12
    assert est["spiel.win"]["p"] > 0.5


ERRORS = [
    (["--players", "5", "--hand", "S6 LA LK L8 E10"], "--players"),
    (["--players", "3", "--hand", "S6 LA LK L8 E10"], "--hand must list 7 cards at 3 players"),
    (["--players", "6", "--hand", "S6 LA LK"], "--hand must list 4 or 5 cards at 6 players"),
    (["--players", "6", "--hand-size", "4", "--hand", "S6 LA LK L8 E10"], "--hand must list exactly 4 cards"),
    (["--players", "6", "--option", "six_player_cards=4", "--hand", "S6 LA LK L8 E10"],
     "--hand must list exactly 4 cards"),
    (["--style", "straf", "--hand", "S6 LA LK L8 E10"], "Strafperlaggen is for three"),
    (["--players", "3", "--style", "straf", "--hand-size", "5", "--hand", "S6 LA LK L8 E10"], "hold 7 cards"),
    (["--players", "3", "--both-gestrichen", "--hand", "S6 LA LK L8 E10 H9 H8"], "each for himself"),
    (["--players", "6", "--spiel", "dd", "--hand", "S6 LA LK L8"], "G1 only: --spiel greedy"),
    (["--players", "2", "--level", "L1", "--hand", "S6 LA LK L8 E10 H9 H8"], "L1 is for the four-player"),
    (["--players", "3", "--given", "partner gleich >= pair of As", "--hand", "S6 LA LK L8 E10 H9 H8"],
     "each plays for himself"),
    (["--given", "seat1 gleich >= three As", "--given", "opponents gleich < pair of As", "--seat", "2",
      "--hand", "S6 LA LK L8 E10"], "contradict each other"),
    (["--given", "opponents gleich >= six As", "--hand", "S6 LA LK L8 E10"], "not a gleich class of a 5-card"),
    (["--given", "partner gleich >= five As", "--given", "seat0 hanger >= A-K-O-U-10", "--n", "2000",
      "--hand", "S6 LA LK L8 E10"], "fits these public facts and --given"),
    (["--given", "opponents flush >= 3", "--hand", "S6 LA LK L8 E10"], "is not understood"),
    (["--given", "opponents gleich <= three As", "--hand", "S6 LA LK L8 E10"], "is not understood"),
    (["--players", "6", "--exchange", "1:L8", "--hand", "S6 LA LK L8"], "only seat(s) 0, 2, 4 may exchange"),
    (["--given", "opponents gleich >= pair of Os", "--spiel", "pimc", "--hand", "S6 LA LK L8 E10"],
     "does not condition the PIMC Spiel"),
]


@pytest.mark.parametrize("args, message", ERRORS, ids=lambda x: x if isinstance(x, str) else None)
def test_one_line_errors(args, message, capsys):
    code = main(["odds", "perlaggen", "--turnup", "L10", "--seed", "1", "--no-progress", *args])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and "\n" not in err


def test_six_player_hand_size_from_the_hand_flag_or_option(capsys):
    """Six players hold 4 or 5 cards (§9.3): a 5-card hand, --hand-size 5 and --option six_player_cards=5 give the
    same run."""
    outputs = []
    for extra in ([], ["--hand-size", "5"], ["--option", "six_player_cards=5"]):
        code = main(["odds", "perlaggen", "--players", "6", "--hand", "S6 LA LK L8 E10", "--turnup", "L10",
                     "--n", "500", "--seed", "3", "--no-progress", "--json", *extra])
        assert code == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0]["hand_size"] == 5 and outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize("spellings", [("pair of Obers", "pair of Os", "PAIR OF OBERS (38)", "38"),
                                       ("three Aces", "three As", "three aces (56)"),
                                       ("pair of 10s", "pair of 10s (36)", "36")])
def test_given_gleich_classes_by_name_letter_or_code(spellings):
    """A Gleich class in --given reads the same whether written as the printed name (Giltspiel's words), by the
    rank's letter as on the cards, with its code in brackets or as the bare code (§5.2)."""
    parsed = [AP.parse_given((f"opponents gleich >= {text}",), 2) for text in spellings]
    assert all((p == parsed[0]).all() for p in parsed)
    assert P.gleich_name(int(parsed[0][0, 2])).rsplit(" (", 1)[0].lower() == spellings[0].lower()


def test_four_player_known_cards_keep_exactly_the_deals_that_put_them_there():
    """--known "1:LO H9": of the deals consistent with the public facts, the job keeps those whose replayed
    exchanges leave seat 1 holding both cards (the Spiel job's replay of the same deals, read plainly), and its
    Gleich and Hanger outcomes for seat 2's team are those of the four hands' L0 codes."""
    from simcore.games import perlaggen_play as PP

    known = AP.parse_known("S6 LA LK L8 E10", 2, "L10", held={1: "LO H9"})
    counts = D.OddsJob(known).run_block(SEED, 0, N)
    rows, keep = PP.SpielJob(AP.parse_known("S6 LA LK L8 E10", 2, "L10"), D.DealRules(), "greedy")._rows(SEED, 0, N)
    mask = P.DECK.mask(P.DECK.parse_cards("LO H9"))
    kept = [r for r in rows[keep] if int(r[1]) & mask == mask]
    assert counts[0] == len(kept) > 0 and len(kept) < keep.sum()
    outcomes = np.zeros(8, dtype=np.int64)
    for r in kept:
        codes = [naive.l0([P.DECK.token(c) for c in P.DECK.cards_of(int(r[s]))], "innsbruck", "L") for s in range(4)]
        for f in range(2):
            mine, theirs = max(codes[0][f], codes[2][f]), max(codes[1][f], codes[3][f])
            outcomes[4 * f + (0 if mine > theirs else 2 if theirs > mine else 3 if mine == 0 else 1)] += 1
    assert counts[1:9].tolist() == outcomes.tolist()
    assert D.OddsJob(known).key() != D.OddsJob(AP.parse_known("S6 LA LK L8 E10", 2, "L10")).key()
    spiel = PP.SpielJob(known, D.DealRules(), "greedy")
    held_rows, held_keep = spiel._rows(SEED, 0, N)
    assert np.array_equal(held_keep, keep & ((rows[:, 1] & np.uint64(mask)) == mask))
    assert spiel.run_block(SEED, 0, N)[0] == len(kept) and spiel.key() != PP.SpielJob(
        AP.parse_known("S6 LA LK L8 E10", 2, "L10"), D.DealRules(), "greedy").key()


@pytest.mark.parametrize("args, message", [
    (["--known", "2:LA"], "also in your --hand"),
    (["--known", "1:LO", "--known", "3:LO"], "also in --known 1"),
    (["--known", "1:L10"], "lies face up"),
    (["--known", "1:S7", "--cutter-took", "S7"], "cutter's shown Perlaggen"),
    (["--known", "0:HA"], "your own seat"),
    (["--known", "5:HA"], "seats are 0-3"),
    (["--known", "1:HA HK HO HU H9 H8"], "lists 6 cards: more than a hand's 5"),
    (["--known", "1:HA", "--spiel", "pimc"], "--known does not condition the PIMC Spiel"),
    (["--known", "1:HA", "--players", "2", "--hand", "S6 LA LK L8 E10 H9 H8"], "four-player odds only"),
    (["--known", "1 HA"], "SEAT:CARDS"),
])
def test_known_cards_bad_input_is_one_line(args, message, capsys):
    hand = [] if "--hand" in args else ["--hand", "S6 LA LK L8 E10"]
    argv = ["odds", "perlaggen", *hand, "--seat", "0", "--turnup", "L10", "--n", "100", "--seed", "1", "--no-progress",
            *args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


@pytest.mark.parametrize("argv, message", [
    (["--hand", "S6 LA LK L8 E10", "--seat", "1", "--turnup", "H7", "--exchange", "0:H9", "--known", "0:H9"],
     "lies face up"),                       # the dealer gave H9 for the turn-up: it lies face up now
    (["--hand", "S6 LA LK L8 E10", "--seat", "3", "--turnup", "H8", "--stopper", "HA", "--cutter-took", "S6",
      "--known", "1:HA"], "stays in the stock"),
    (["--hand", "LA LK L8 E10 H9", "--seat", "0", "--turnup", "L10", "--cutter-took", "S6 S7",
      "--known", "3:HA HK HO HU"], "more than a hand's 5"),
])
def test_known_cards_that_cannot_be_there_are_refused_before_any_deal(argv, message, capsys):
    assert main(["odds", "perlaggen", *argv, "--n", "100", "--seed", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_known_cards_api_refuses_no_cards():
    with pytest.raises(CardsimError, match="--known 2"):
        AP.odds("S6 LA LK L8 E10", 1, "H7", known={2: None}, n=10, seed=1, checkpoint=False, progress=False)


def test_known_cards_in_text_and_json(capsys):
    argv = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "H7", "--known", "2:LO", "--n", "20000",
            "--seed", "3", "--no-progress"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "seat 2 holds LO" in text and "consistent with the public facts and --known" in text
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["known"] == {"2": "LO"} and out["n"] < out["attempted"]
