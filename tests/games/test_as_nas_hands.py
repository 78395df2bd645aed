"""As-Nas hand ranking: every category, every tie-break of the rules table, and an exhaustive check.

Hands are written as letters, one per card: ``C`` Couli, ``S`` Sarbaz, ``B`` Bibi, ``K`` Shah,
``A`` As (ranks 0..4, As highest). Comparisons go through :func:`hand_key` (only its order is
used, never its layout) and, where both hands fit in one 20-card deck, through a real showdown.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from croupier.games import get_game
from croupier.games.as_nas.rules import Action, Category, hand_category, hand_key

G = get_game("as-nas")
RANK = {"C": 0, "S": 1, "B": 2, "K": 3, "A": 4}
CALL, FOLD, HOLD = int(Action.CALL), int(Action.FOLD), int(Action.HOLD)


def ranks(text: str) -> tuple[int, ...]:
    return tuple(RANK[c] for c in text)


def stronger(a: str, b: str) -> bool:
    return hand_key(ranks(a)) > hand_key(ranks(b))


# -- categories ------------------------------------------------------------------------------------

CATEGORY_EXAMPLES = [
    ("AAAAK", Category.FOUR_OF_A_KIND),
    ("CSCCC", Category.FOUR_OF_A_KIND),
    ("KKKBB", Category.FULL_HOUSE),
    ("CACAC", Category.FULL_HOUSE),
    ("BBBAC", Category.THREE_OF_A_KIND),
    ("SKSAS", Category.THREE_OF_A_KIND),
    ("AAKKC", Category.TWO_PAIR),
    ("CSCBS", Category.TWO_PAIR),
    ("BBAKC", Category.PAIR),
    ("ACKSC", Category.PAIR),
    ("ABKSC", Category.HIGH_CARD),
    ("CSBKA", Category.HIGH_CARD),
]


@pytest.mark.parametrize(("hand", "category"), CATEGORY_EXAMPLES)
def test_category_of_each_hand_shape(hand: str, category: Category) -> None:
    assert hand_category(ranks(hand)) == category


# The weakest hand of each category beats the strongest hand of the category below.
CATEGORY_BOUNDARIES = [
    ("CCCCS", "AAAKK", "weakest four of a kind beats the best full house"),
    ("CCCSS", "AAAKB", "weakest full house beats the best three of a kind"),
    ("CCCSB", "AAKKB", "weakest three of a kind beats the best two pair"),
    ("SSCCB", "AAKBS", "weakest two pair beats the best pair"),
    ("CCSBK", "AKBSC", "weakest pair beats high card"),
]

# (stronger, weaker): each isolates one step of the rules table.
TIE_BREAKS = [
    # four of a kind: quad rank, then the kicker
    ("KKKKC", "BBBBA", "higher quad beats a higher kicker"),
    ("BBBBA", "BBBBK", "same quad: higher kicker"),
    ("SSSSC", "CCCCA", "quad rank outranks the kicker (low ranks)"),
    # full house: triple rank, then pair rank
    ("KKKCC", "BBBAA", "higher triple beats a higher pair"),
    ("BBBAA", "BBBKK", "same triple: higher pair"),
    # three of a kind: triple rank, then the 2 kickers high to low
    ("KKKCS", "BBBAK", "higher triple beats higher kickers"),
    ("BBBAC", "BBBKS", "same triple: first kicker decides"),
    ("BBBAS", "BBBAC", "same triple and first kicker: second kicker"),
    # two pair: higher pair, lower pair, kicker
    ("KKCCS", "BBSSA", "higher top pair beats a higher bottom pair and kicker"),
    ("KKBBC", "KKSSA", "same top pair: higher bottom pair beats a higher kicker"),
    ("KKBBA", "KKBBS", "same two pairs: higher kicker"),
    ("AACCS", "KKBBS", "top pair compared before bottom pair"),
    # pair: pair rank, then the 3 kickers high to low
    ("SSCBK", "CCAKB", "higher pair beats higher kickers"),
    ("BBACS", "BBKSC", "same pair: first kicker decides"),
    ("BBAKC", "BBASC", "same pair and first kicker: second kicker"),
    ("BBAKS", "BBAKC", "same pair and two kickers: third kicker"),
    ("KKACS", "KKBSC", "first kicker beats later kickers"),
]

TIES = [
    ("ABKSC", "CSBKA", "every high-card hand is one of each identity: all tie"),
    ("AAKKB", "KAKAB", "same two pair and kicker"),
    ("BBBBS", "SBBBB", "same quad and kicker"),
    ("KKKCC", "CKCKK", "same full house"),
    ("SSACB", "BCASS", "same pair and kickers"),
    ("AAABK", "KBAAA", "same trips and kickers"),
]


@pytest.mark.parametrize(
    ("high", "low"), [pytest.param(a, b, id=why) for a, b, why in CATEGORY_BOUNDARIES]
)
def test_categories_are_ordered(high: str, low: str) -> None:
    assert stronger(high, low)
    assert not stronger(low, high)
    assert hand_category(ranks(high)) > hand_category(ranks(low))


@pytest.mark.parametrize(("high", "low"), [pytest.param(a, b, id=why) for a, b, why in TIE_BREAKS])
def test_tie_breaks_inside_a_category(high: str, low: str) -> None:
    assert hand_category(ranks(high)) == hand_category(ranks(low))
    assert stronger(high, low)
    assert not stronger(low, high)


@pytest.mark.parametrize(("a", "b"), [pytest.param(a, b, id=why) for a, b, why in TIES])
def test_identical_comparison_keys_tie(a: str, b: str) -> None:
    assert hand_key(ranks(a)) == hand_key(ranks(b))


def test_key_ignores_the_order_the_cards_are_given_in() -> None:
    rng = random.Random(5)
    for hand in MULTISETS:
        expected = hand_key(hand)
        for _ in range(5):
            shuffled = list(hand)
            rng.shuffle(shuffled)
            assert hand_key(shuffled) == expected
            assert hand_key(tuple(shuffled)) == expected


# -- the same comparisons at a real showdown -------------------------------------------------------


def fits_one_deck(a: str, b: str) -> bool:
    return all(n <= 4 for n in (Counter(a) + Counter(b)).values())


def showdown(a: str, b: str) -> tuple[int, ...]:
    """Winners of a deal where seat 1 holds ``a``, the dealer (seat 0) holds ``b``, 3 and 2 fold."""
    cards: dict[int, list[int]] = {1: [], 0: []}
    next_copy = [0] * 5
    for seat, text in ((1, a), (0, b)):
        for r in ranks(text):
            cards[seat].append(4 * r + next_copy[r])
            next_copy[r] += 1
    rest = [c for c in range(20) if c not in cards[0] + cards[1]]
    cards[3], cards[2] = rest[:5], rest[5:]
    order = (3, 2, 1, 0)  # dealer 0: dealt to its right first
    deck = tuple(cards[order[i % 4]][i // 4] for i in range(20))
    s = G.apply_chance(G.apply_chance(G.initial_state({}), (0,)), deck)
    for action in (FOLD, FOLD, CALL, HOLD):
        s = G.apply(s, action)
    result = G.observe(s, None).last_deal
    assert result is not None
    assert result.revealed[1] == tuple(sorted(ranks(a), reverse=True))
    assert result.revealed[0] == tuple(sorted(ranks(b), reverse=True))
    return result.winners


DECIDED_AT_SHOWDOWN = [
    pytest.param(a, b, id=why)
    for a, b, why in CATEGORY_BOUNDARIES + TIE_BREAKS
    if fits_one_deck(a, b)
]
TIED_AT_SHOWDOWN = [pytest.param(a, b, id=why) for a, b, why in TIES if fits_one_deck(a, b)]


def test_enough_cases_fit_in_one_deck() -> None:
    assert len(DECIDED_AT_SHOWDOWN) >= 10
    assert len(TIED_AT_SHOWDOWN) >= 3


@pytest.mark.parametrize(("high", "low"), DECIDED_AT_SHOWDOWN)
def test_stronger_hand_wins_the_showdown(high: str, low: str) -> None:
    assert showdown(high, low) == (1,)
    assert showdown(low, high) == (0,)


@pytest.mark.parametrize(("a", "b"), TIED_AT_SHOWDOWN)
def test_equal_hands_split_the_showdown(a: str, b: str) -> None:
    assert showdown(a, b) == (0, 1)


# -- exhaustive check against a reference evaluator ------------------------------------------------

# Every 5-card rank multiset with at most 4 copies of a rank (C(9,5) = 126 minus five of a kind).
MULTISETS = [
    hand
    for hand in itertools.combinations_with_replacement(range(5), 5)
    if max(Counter(hand).values()) <= 4
]

REF_CATEGORIES = [
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "full house",
    "four of a kind",
]


def reference(hand: tuple[int, ...]) -> tuple[str, list[int]]:
    """The rules table read literally: the category and the list compared inside it."""
    count = Counter(hand)
    with_count = {
        n: sorted((r for r in count if count[r] == n), reverse=True) for n in (1, 2, 3, 4)
    }
    singles, pairs, triples, quads = with_count[1], with_count[2], with_count[3], with_count[4]
    if quads:
        return "four of a kind", [quads[0], singles[0]]
    if triples and pairs:
        return "full house", [triples[0], pairs[0]]
    if triples:
        return "three of a kind", [triples[0], singles[0], singles[1]]
    if len(pairs) == 2:
        return "two pair", [pairs[0], pairs[1], singles[0]]
    if pairs:
        return "pair", [pairs[0], singles[0], singles[1], singles[2]]
    return "high card", sorted(hand, reverse=True)


def reference_compare(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """-1, 0 or 1 as hand ``a`` is weaker than, ties with or beats hand ``b``."""
    cat_a, list_a = reference(a)
    cat_b, list_b = reference(b)
    if cat_a != cat_b:
        return 1 if REF_CATEGORIES.index(cat_a) > REF_CATEGORIES.index(cat_b) else -1
    for x, y in zip(list_a, list_b, strict=True):
        if x != y:
            return 1 if x > y else -1
    return 0


def test_multiset_enumeration_is_complete() -> None:
    assert len(MULTISETS) == 121
    assert len(set(MULTISETS)) == 121
    assert Counter(reference(h)[0] for h in MULTISETS) == {
        "four of a kind": 20,  # 5 quad ranks x 4 kickers
        "full house": 20,
        "three of a kind": 30,  # 5 x C(4,2)
        "two pair": 30,  # C(5,2) x 3
        "pair": 20,  # 5 x C(4,3)
        "high card": 1,
    }


def test_every_category_matches_the_reference() -> None:
    names = {
        Category.HIGH_CARD: "high card",
        Category.PAIR: "pair",
        Category.TWO_PAIR: "two pair",
        Category.THREE_OF_A_KIND: "three of a kind",
        Category.FULL_HOUSE: "full house",
        Category.FOUR_OF_A_KIND: "four of a kind",
    }
    for hand in MULTISETS:
        assert names[hand_category(hand)] == reference(hand)[0], hand


def test_every_pair_of_hands_compares_as_the_reference_says() -> None:
    keys = {hand: hand_key(hand) for hand in MULTISETS}
    mismatches = []
    for a in MULTISETS:
        for b in MULTISETS:
            expected = reference_compare(a, b)
            got = (keys[a] > keys[b]) - (keys[a] < keys[b])
            if got != expected:
                mismatches.append((a, b, expected, got))
    assert mismatches == []


def test_only_identical_multisets_tie() -> None:
    # Inside one category every comparison list differs unless the multisets are equal, except
    # that there is a single high-card multiset: so equal keys mean equal multisets.
    keys = [hand_key(hand) for hand in MULTISETS]
    assert len(set(keys)) == len(MULTISETS)
