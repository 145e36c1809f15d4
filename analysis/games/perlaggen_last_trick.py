"""`cardsim lasttrick perlaggen`: the fifth trick at two tricks each (spec §10 Q12, §8.5).

Each player holds one card. Yours is known, so are the cards already played to the trick, and the cards you have
seen out of play; the players after you hold distinct cards drawn from the rest. Every ordered draw is counted
(`simcore.games.perlaggen_play.last_trick_counts`), so the chances are exact fractions, not estimates. What earlier
tricks showed about the other players' suits is not used: each unseen card is as likely to be anyone's last card.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

import pandas as pd

from analysis.commands import Command, NotedStore, emit, one_of, register_command, seat_cards, whole_number
from simcore import betting, checks
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_play as PP

GAME = "perlaggen"
ESTIMATES = (("card_wins", "no opponent beats your card"), ("team_wins", "your team takes the trick: the Spiel"))
EARLIER_TRICKS = 16
"""Cards of the first four tricks, out of play at the fifth: the least ``--seen`` lists."""
BET_VALUES = range(1, 7)
"""Values of the Spiel before a bet (a bet at 7 is "Spiel aus", judged by the game, not by points: §8.1)."""


def bet_rows(team_wins: Fraction, allowed: bool) -> list[dict]:
    """Spec §11.5 at the fifth trick, where the Spiel cannot stand: for each value v before a bet, d = 2p - 1 with
    p = ``team_wins``; your bet: a value bet when d >= 0, else the concession rate above which a bluff gains
    (`betting.bluff_break_even`), None when §8.5 forbids your bet (``allowed`` False); their bet: hold iff p is above
    `betting.hold_threshold`'s P(win)."""
    d = 2 * team_wins - 1
    rows = []
    for v in BET_VALUES:
        hold_above = Fraction(1, 2 * (v + 1))  # betting.hold_threshold(v)'s P(win) with no stand, kept exact
        rows.append({"value": v, "value_bet": allowed and d >= 0,
                     "break_even_concession": betting.bluff_break_even(v, d) if allowed and d < 0 else None,
                     "hold_above": hold_above, "hold": team_wins > hold_above})
    return rows


def _play(token: str, trump: int, style: str, what: str, baptism_needed: bool) -> tuple[int, int | None]:
    """(card, identity) of a token "L9" or "S7=HA" (a Perlagg with the card it was baptised as); a Perlagg without
    one: refused when ``baptism_needed``, else identity None."""
    name, _, baptised = token.partition("=")
    card = P.DECK.parse_face(name)
    identity = P.DECK.parse_face(baptised) if baptised else None
    P.check_no_weli([card] + ([identity] if baptised else []), style, f"{what} {token}")
    if (P.perlagg_mask(style, P.DECK.suits[trump]) >> card) & 1:
        if identity is None and baptism_needed:
            raise CardsimError(f"{what} {token}: {name} is a Perlagg; give the card it was baptised as, e.g. "
                               f"{name}=HA")
        return card, identity
    if baptised and identity != card:
        raise CardsimError(f"{what} {token}: only a Perlagg is baptised; {name} is a natural card, write {name}")
    return card, card


def _trick_plays(text: str | None, trump: int, style: str) -> list[tuple[int, int]]:
    """The (card, identity) plays of ``--trick`` ("L9 S7=HA")."""
    plays = [_play(token, trump, style, "--trick", True) for token in (text or "").replace(",", " ").split()]
    if len(plays) > PP.SEATS - 1:
        raise CardsimError(f"--trick lists {len(plays)} cards; at most {PP.SEATS - 1} are played before yours")
    return plays


def may_bet(card: int, plays: list[tuple[int, int]], trump: int, style: str) -> str | None:
    """Why ``card`` lets its holder bet the Spiel in the fifth trick (§8.5: it follows the led suit, is a trump or a
    Perlagg; the leader's card is the led suit), or None when it does not."""
    if (P.perlagg_mask(style, P.DECK.suits[trump]) >> card) & 1:
        return "your last card is a Perlagg"
    suit = PP.id_suit(card)
    if suit == trump:
        return "your last card is a trump"
    if not plays:
        return "you lead: your card is the led suit"
    if suit == PP.id_suit(plays[0][1]):
        return "your last card is of the led suit"
    return None


def _barred(voids, seat: int, plays: int, trump: int, style: str, pool) -> tuple[dict[int, str], list[set]]:
    """({seat: suits} of ``voids`` ({seat: "HL"}: suits a later player showed void in earlier tricks), checked, and per
    later player in order the cards of ``pool`` he cannot hold: the natural cards of his void suits (a Perlagg is never
    compulsory, §7.2, so a void says nothing of his Perlaggen)."""
    if voids is None:
        voids = {}
    if not isinstance(voids, dict):
        raise CardsimError(f"voids must be a dict of seat -> suits such as {{3: 'H'}}, got {checks.shown(voids)}")
    later = [(seat + k) % PP.SEATS for k in range(1, PP.SEATS - plays)]
    wild = P.perlagg_mask(style, P.DECK.suits[trump])
    out = {}
    for other, suits in voids.items():
        other = checks.whole(other, "--void seat", 0, PP.SEATS - 1)
        if other not in later:
            why = "your own seat" if other == seat else "a seat that has already played to the trick"
            raise CardsimError(f"--void names seat {other}, {why}; a void tells only of the players after you")
        text = checks.card_text(suits, f"--void {other}", "H").replace(" ", "").upper()
        if not text or any(c not in P.DECK.suits for c in text):
            raise CardsimError(f"--void {other}:{suits}: give the suits he showed void in, from "
                               f"{''.join(P.DECK.suits)} (e.g. 3:H)")
        out[other] = "".join(suit for suit in P.DECK.suits if suit in text)  # a suit given twice counts once
    barred = [{c for c in pool if not (wild >> c) & 1 and P.DECK.suits[PP.id_suit(c)] in out.get(other, "")}
              for other in later]
    return out, barred


def last_trick(card: str, trump: str, seat: int = 1, trick: str | None = None, seen: str | None = None,
               style: str = "innsbruck", voids: dict | None = None) -> pd.DataFrame:
    """Exact chances of the fifth trick with one card each for ``seat`` holding ``card``: rows quantity card_wins
    (no opponent's card beats yours) and team_wins (your team takes the trick, so wins the Spiel at two tricks each),
    p, lo = hi = p (exact), successes, n (ordered draws of the later players' cards), fraction. ``card``: "S7=HA"
    when your Perlagg is already played to the trick as HA (§8.5, A-34: you may bet after playing it), else a
    Perlagg takes its strongest identity; ``trick``: the plays before yours, a Perlagg as "S7=HA" (the card it was
    baptised as); ``seen``: the cards you know are out of play, at least the first four tricks' 16; ``voids``:
    {seat: suits} a later player showed void in (§11.4 item 5: he neither followed nor trumped a lead of the suit, or
    played no trump to a trump lead), so his last card is no natural card of them. attrs: the question, the pool of
    unseen cards and `may_bet`'s reason."""
    checks.one_of(style, "style", P.STYLES)
    if style == "straf":
        raise CardsimError("Strafperlaggen has three players, each for himself (§9.5): lasttrick is the four-player "
                           "team game's fifth trick; choose another --style")
    trump_letter = checks.one_of(trump.strip().upper() if isinstance(trump, str) else trump, "trump suit",
                                 P.trump_suits(style))
    trump_index = P.DECK.suits.index(trump_letter)
    seat = checks.whole(seat, "--seat", 0, PP.SEATS - 1)
    card_tokens = checks.card_text(card, "--card", "H8").replace(",", " ").split()
    if len(card_tokens) != 1:
        raise CardsimError(f"--card takes your one last card, got {len(card_tokens)}")
    mine, identity = _play(card_tokens[0], trump_index, style, "--card", False)
    parsed = P.DECK.parse_groups({"--card": P.DECK.token(mine),
                                  "--seen": "" if seen is None else checks.card_text(seen, "--seen", "LA E10 SK ...")})
    if len(parsed["--seen"]) < EARLIER_TRICKS:
        raise CardsimError(f"--seen lists {len(parsed['--seen'])} cards; at the fifth trick the "
                           f"{EARLIER_TRICKS} cards of the first four tricks are out of play: list them (and any card "
                           "lying face up)")
    plays = _trick_plays(trick, trump_index, style)
    out_of_play = set(parsed["--seen"]) | {c for c, _ in plays}
    if mine in out_of_play or len(out_of_play) < len(parsed["--seen"]) + len(plays):
        raise CardsimError("--card, --trick and --seen name a card twice; each card is in one place")
    P.check_no_weli(parsed["--seen"], style, "--seen")
    deck = range(P.DECK.n_cards) if P.has_weli(style) else [c for c in range(P.DECK.n_cards) if c != P.WELI]
    pool = [c for c in deck if c != mine and c not in out_of_play]
    later = PP.SEATS - 1 - len(plays)
    if len(pool) < later:
        raise CardsimError(f"--seen leaves {len(pool)} unseen cards for the {later} players after you; name fewer")
    void_suits, barred = _barred(voids, seat, len(plays), trump_index, style, pool)
    card_wins, team_wins, draws = PP.last_trick_counts(mine, plays, trump_index, pool, style, identity, barred)
    if not draws:
        raise CardsimError("no draw of the later players' cards fits --void: each void seat needs an unseen card that "
                           "is not a natural card of its void suits; check --void and --seen")
    frame = pd.DataFrame([{"quantity": key, "p": wins / draws, "lo": wins / draws, "hi": wins / draws,
                           "successes": wins, "n": draws, "fraction": str(Fraction(wins, draws))}
                          for (key, _), wins in zip(ESTIMATES, (card_wins, team_wins))])
    frame.attrs.update(game=GAME, style=style, trump=trump_letter, seat=seat,
                       card=P.DECK.token(mine) + ("" if identity in (None, mine) else f"={P.DECK.token(identity)}"),
                       leader=(seat - len(plays)) % PP.SEATS,
                       trick=[P.DECK.token(c) + ("" if c == b else f"={P.DECK.token(b)}") for c, b in plays],
                       seen=len(parsed["--seen"]), pool=len(pool), later=later, voids=void_suits,
                       may_bet=may_bet(mine, plays, trump_index, style))
    frame.attrs["bets"] = bet_rows(Fraction(team_wins, draws), frame.attrs["may_bet"] is not None)
    return frame


def last_trick_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    return {**{k: a[k] for k in ("game", "style", "trump", "seat", "card", "leader", "trick", "seen", "pool",
                                 "later")}, "voids": {str(s): v for s, v in a["voids"].items()},
            "may_bet": a["may_bet"] is not None, "bet_reason": a["may_bet"],
            **{r.quantity: {"p": r.p, "successes": int(r.successes), "n": int(r.n), "fraction": r.fraction}
               for r in frame.itertuples()},
            "bets": [{"value": b["value"], "value_bet": b["value_bet"],
                      "break_even_concession": None if b["break_even_concession"] is None
                      else float(b["break_even_concession"]), "hold_above": float(b["hold_above"]), "hold": b["hold"]}
                     for b in a["bets"]]}


def format_last_trick(frame: pd.DataFrame) -> str:
    a = frame.attrs
    trick = " ".join(a["trick"]) or "nothing yet: you lead"
    lines = [f"Perlaggen ({a['style']}) fifth trick at two tricks each, trump {a['trump']}: seat {a['seat']} holds "
             f"{a['card']}; played so far {trick}" + (f" (led by seat {a['leader']})" if a["trick"] else ""),
             f"the {a['later']} later player(s)' cards: every ordered draw from the {a['pool']} cards you have not "
             f"seen" + "".join(f", seat {s} void in {'/'.join(v)}" for s, v in a["voids"].items())
             + f" ({int(frame.n.iloc[0]):,} draws, exact)", ""]
    for (key, label), row in zip(ESTIMATES, frame.itertuples()):
        lines.append(f"  {label:<40}{row.p:.4f}  ({row.fraction})")
    lines.append("")
    lines.append(f"you may bet the Spiel now (§8.5: {a['may_bet']})" if a["may_bet"] else
                 "you may not bet the Spiel now (§8.5: your last card is neither of the led suit, a trump nor a "
                 "Perlagg)")
    lines += ["", "Betting the Spiel now (spec §11.5, first order; the fifth trick has no stand, so with p = P(your "
                  "team takes the trick), d = 2p - 1):",
              f"  {'value':<7}{'your bet':<50}their bet: your answer"]
    for b in a["bets"]:
        if b["value_bet"]:
            mine = "bet: d >= 0, it gains whatever they answer"
        elif b["break_even_concession"] is not None:
            mine = f"a bluff gains if they concede more than {float(b['break_even_concession']):.3f}"
        else:
            mine = "not allowed (§8.5)"
        theirs = f"{'hold' if b['hold'] else 'concede'} (hold iff p > {float(b['hold_above']):.3f})"
        lines.append(f"  {b['value']:<7}{mine:<50}{theirs}")
    lines.append("(every Perlagg not yet played is baptised as the trump Ace, its strongest identity; your partner's "
                 "card never counts against yours; the later cards are drawn without regard to what their bets tell, "
                 "and to the suits earlier tricks showed only as far as --void gives them; the §8.6 limits near the "
                 "end of the game are not applied)")
    return "\n".join(lines)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--card", required=True, help='your last card, e.g. "H8"; a Perlagg you have already played '
                                                      'to the trick with its identity, "S7=HA" (§8.5, A-34)')
    parser.add_argument("--trump", required=True, help="the trump suit E/L/H/S")
    parser.add_argument("--seat", type=whole_number, default=1, help="your seat 0-3 (default 1)")
    parser.add_argument("--trick", default=None,
                        help='the cards played to the fifth trick before yours, in order, e.g. "L9"; a Perlagg with '
                             'the card it was baptised as, "S7=HA" (default: none, you lead)')
    parser.add_argument("--seen", required=True,
                        help="cards you know are out of play: the 16 of the first four tricks, cards lying face up")
    parser.add_argument("--void", action="append", metavar="SEAT:SUITS",
                        help="a later player who showed void in suits in earlier tricks (neither followed nor "
                             "trumped a lead of the suit, or played no trump to a trump lead), e.g. 3:H; his card is "
                             "then no natural card of them (repeatable)")
    parser.add_argument("--style", action=NotedStore, default="innsbruck", type=one_of(P.STYLES),
                        help="innsbruck (default), eichel, schlanders, schlanders_e8 or deutschnofen (the team "
                             "games)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run(args: argparse.Namespace) -> int:
    voids = seat_cards(args.void, "--void", "3:H", "SUITS")
    frame = last_trick(args.card, args.trump, args.seat, args.trick, args.seen, args.style, voids)
    return emit(args, frame, last_trick_json, format_last_trick)


register_command("lasttrick", GAME, Command("the fifth trick at two tricks each: exact chances of your last card",
                                            _add_arguments, _run))
