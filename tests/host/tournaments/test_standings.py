"""Standings and tie-breakers, checked against arithmetic done by hand (written out below)."""

from __future__ import annotations

import itertools
from fractions import Fraction as Q

from host.tournaments import Entrant, PlayedRound, TableResult, standings

A, B, C, D, E, F, G = 1, 2, 3, 4, 5, 6, 7


def _entrants(n: int) -> list[Entrant]:
    return [Entrant(id=i, name=f"P{i}", lot=i) for i in range(1, n + 1)]


def duel(winner: int, loser: int) -> TableResult:
    return TableResult(sides=((winner,), (loser,)), places=(1, 2))


def draw(a: int, b: int) -> TableResult:
    return TableResult(sides=((a,), (b,)), places=(1, 1))


def test_two_player_event_with_byes_by_hand():
    """Five players A–E, two rounds.

    Round 1: A beats B, C draws D, E has a bye.   Round 2: A beats C, E beats B, D has a bye.

    Points (a bye is 1):  A 1+1 = 2   B 0+0 = 0   C ½+0 = ½   D ½+1 = 1½   E 1+1 = 2
    Points % without byes: A 2/2 = 1  B 0/2 = 0  C ½/2 = ¼  D ½/1 = ½  E 1/1 = 1
    Floored at 1/3:        A 1        B 1/3      C 1/3      D 1/2      E 1
    OPP (opponents' floored %, once per meeting; byes add no opponent):
        A: B, C → (1/3 + 1/3)/2 = 1/3        B: A, E → (1 + 1)/2 = 1
        C: D, A → (1/2 + 1)/2 = 3/4          D: C → 1/3          E: B → 1/3
    OOPP (opponents' OPP over the same meetings):
        A: (OPP B + OPP C)/2 = (1 + 3/4)/2 = 7/8      B: (1/3 + 1/3)/2 = 1/3
        C: (OPP D + OPP A)/2 = (1/3 + 1/3)/2 = 1/3    D: OPP C = 3/4     E: OPP B = 1
    Order: A and E tie on 2 points and on OPP 1/3; OOPP puts E (1) above A (7/8),
    although A has the better lot. Then D 1½, C ½, B 0.
    """
    rounds = [PlayedRound(results=(duel(A, B), draw(C, D)), byes=(E,)),
              PlayedRound(results=(duel(A, C), duel(E, B)), byes=(D,))]
    rows = standings(_entrants(5), rounds)
    assert [r.entrant for r in rows] == [E, A, D, C, B]
    by = {r.entrant: r for r in rows}
    assert {p: by[p].points for p in by} == {A: 2, B: 0, C: Q(1, 2), D: Q(3, 2), E: 2}
    assert {p: by[p].opp for p in by} == {A: Q(1, 3), B: 1, C: Q(3, 4), D: Q(1, 3), E: Q(1, 3)}
    assert {p: by[p].oopp for p in by} == {A: Q(7, 8), B: Q(1, 3), C: Q(1, 3), D: Q(3, 4), E: 1}
    assert {p: (by[p].games, by[p].byes) for p in by} == {A: (2, 0), B: (2, 0), C: (2, 0), D: (1, 1), E: (1, 1)}
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]


def test_pod_event_with_shared_places_by_hand():
    """Seven players A–G at tables of 4 and 3 (Do Over!), two rounds.

    Round 1, table of 4: A and B share 1st, C 3rd, D 4th → A, B (1 + 2/3)/2 = 5/6; C 1/3; D 0.
             table of 3: E 1st, F and G share 2nd → E 1; F, G (1/2 + 0)/2 = 1/4.
    Round 2, table of 4: E 1st, A 2nd, C and G share 3rd → E 1; A 2/3; C, G (1/3 + 0)/2 = 1/6.
             table of 3, ended by advance (all share 1st) → B, D, F (1 + 1/2 + 0)/3 = 1/2.
    Points: A 5/6+2/3 = 3/2  B 5/6+1/2 = 4/3  C 1/3+1/6 = 1/2  D 0+1/2 = 1/2
            E 1+1 = 2        F 1/4+1/2 = 3/4  G 1/4+1/6 = 5/12
    Points % (two games each): A 3/4 B 2/3 C 1/4 D 1/4 E 1 F 3/8 G 5/24
    Floored at 1/3:            A 3/4 B 2/3 C 1/3 D 1/3 E 1 F 3/8 G 1/3
    OPP (every opponent at every table, A and C met twice so count twice):
        A: B C D, E C G → (2/3 + 1/3 + 1/3 + 1 + 1/3 + 1/3)/6 = 3/6 = 1/2
        B: A C D, D F   → (3/4 + 1/3 + 1/3 + 1/3 + 3/8)/5 = (17/8)/5 = 17/40
        C: A B D, E A G → (3/4 + 2/3 + 1/3 + 1 + 3/4 + 1/3)/6 = (23/6)/6 = 23/36
        D: A B C, B F   → (3/4 + 2/3 + 1/3 + 2/3 + 3/8)/5 = (67/24)/5 = 67/120
        E: F G, A C G   → (3/8 + 1/3 + 3/4 + 1/3 + 1/3)/5 = (17/8)/5 = 17/40
        F: E G, B D     → (1 + 1/3 + 2/3 + 1/3)/4 = (7/3)/4 = 7/12
        G: E F, E A C   → (1 + 3/8 + 1 + 3/4 + 1/3)/5 = (83/24)/5 = 83/120
    OOPP C: (OPP A + B + D + E + A + G)/6 = (1/2 + 17/40 + 67/120 + 17/40 + 1/2 + 83/120)/6
          = (372/120)/6 = 31/60
    OOPP F: (OPP E + G + B + D)/4 = (51/120 + 83/120 + 51/120 + 67/120)/4 = (252/120)/4 = 21/40
    Order: E 2, A 3/2, B 4/3, F 3/4, then C and D tie on 1/2 and OPP puts C (23/36) above
    D (67/120), then G 5/12.
    """
    r1 = PlayedRound(results=(
        TableResult(sides=((A,), (B,), (C,), (D,)), places=(1, 1, 3, 4)),
        TableResult(sides=((E,), (F,), (G,)), places=(1, 2, 2)),
    ))
    r2 = PlayedRound(results=(
        TableResult(sides=((A,), (E,), (C,), (G,)), places=(2, 1, 3, 3)),
        TableResult(sides=((B,), (D,), (F,)), places=(1, 1, 1)),
    ))
    rows = standings(_entrants(7), [r1, r2])
    by = {r.entrant: r for r in rows}
    assert [r.entrant for r in rows] == [E, A, B, F, C, D, G]
    assert {p: by[p].points for p in by} == {A: Q(3, 2), B: Q(4, 3), C: Q(1, 2), D: Q(1, 2), E: 2,
                                             F: Q(3, 4), G: Q(5, 12)}
    assert {p: by[p].opp for p in by} == {A: Q(1, 2), B: Q(17, 40), C: Q(23, 36), D: Q(67, 120),
                                          E: Q(17, 40), F: Q(7, 12), G: Q(83, 120)}
    assert by[C].oopp == Q(31, 60)
    assert by[F].oopp == Q(21, 40)


def test_partners_are_not_opponents():
    # King Pedro: A and C partner against B and D, and win. C has lost a 2-player table elsewhere
    # (pct 1/2 after two games) while B and D have 0 (floored to 1/3): if partners counted,
    # A's OPP would move away from 1/3.
    rounds = [PlayedRound(results=(TableResult(sides=((A, C), (B, D)), places=(1, 2)),)),
              PlayedRound(results=(duel(E, C), duel(A, B)))]
    by = {r.entrant: r for r in standings(_entrants(5), rounds)}
    # A met B, D (round 1) and B (round 2): all at 0 → 1/3 each.
    assert by[A].opp == Q(1, 3)
    assert len(by[A].opponents) == 3 and C not in by[A].opponents


def test_the_floor_is_one_third():
    # A beat B, who lost everything: B's 0% counts as 1/3 in A's OPP.
    rounds = [PlayedRound(results=(duel(A, B), duel(C, D))), PlayedRound(results=(duel(A, D), duel(C, B)))]
    by = {r.entrant: r for r in standings(_entrants(4), rounds)}
    # B: 0 → 1/3; D: 0 → 1/3.
    assert by[A].opp == Q(1, 3)
    # B met A (100%) and C (100%).
    assert by[B].opp == 1


def test_a_bye_counts_in_points_not_in_tiebreakers():
    # B has a bye then loses: 1 point, but its points % is 0/1 (floored to 1/3), not 1/2.
    rounds = [PlayedRound(results=(duel(A, C),), byes=(B,)), PlayedRound(results=(duel(A, B),), byes=(C,))]
    by = {r.entrant: r for r in standings(_entrants(3), rounds)}
    assert by[B].points == 1
    # A met C (0/1 → 1/3) and B (0/1 → 1/3): if the bye counted as a win A's OPP would be above 1/3.
    assert by[A].opp == Q(1, 3)


def test_the_lot_breaks_complete_ties_lower_first():
    # A beats B and C beats D: A and C tie on points, OPP (1/3) and OOPP (1).
    rounds = [PlayedRound(results=(duel(A, B), duel(C, D)))]
    entrants = [Entrant(A, "a", lot=7), Entrant(B, "b", lot=1), Entrant(C, "c", lot=3), Entrant(D, "d", lot=2)]
    rows = standings(entrants, rounds)
    assert [r.entrant for r in rows[:2]] == [C, A]
    flipped = [Entrant(A, "a", lot=0), *entrants[1:]]
    assert [r.entrant for r in standings(flipped, rounds)[:2]] == [A, C]


def test_points_come_before_opp_and_opp_before_oopp():
    # Points decide first; OPP, OOPP and the lot only order equal points.
    rounds = [PlayedRound(results=(duel(A, B), draw(C, D))),
              PlayedRound(results=(duel(B, C), duel(D, A)))]
    rows = standings(_entrants(4), rounds)
    pts = [r.points for r in rows]
    assert pts == sorted(pts, reverse=True)
    for a, b in itertools.pairwise(rows):
        if a.points == b.points:
            assert (a.opp, a.oopp, -a.lot) >= (b.opp, b.oopp, -b.lot)


def test_dropped_players_stay_in_the_standings():
    rounds = [PlayedRound(results=(duel(A, B),))]
    rows = standings(_entrants(2), rounds, dropped={B})
    assert [(r.entrant, r.dropped) for r in rows] == [(A, False), (B, True)]
