"""How the page feels to play, in a real browser (the fixtures, checker and helpers of
test_browser.py): one action a card, drag and drop, refusals that name their cause, a table
that does not jump, a quiet live region, a connection banner, and the smaller screens.

The games that count actions are played against a second seat taken through the API that
never moves (a friend who joined and said ready), so that no race with a bot can change
what a click does between the page drawing it and the test clicking it."""

import re
import time

import pytest
import requests

from tests.e2e import test_browser as tb
from tests.e2e.test_browser import (
    DESKTOP,
    ENABLED,
    PHONE,
    expect,
    new_game,
    shot,
    wait_for_change,
)

# the browser, the server and the watched pages of test_browser.py
server, browser, open_page = tb.server, tb.browser, tb.open_page
pytestmark = tb.pytestmark

MINE = "[data-testid=table] .area-me .card"


def _game_with_an_idle_friend(page, server, game="spit", **selects):
    """A game against a second seat taken through the API, ready, that never moves; the
    page's seat is ready too and the game is playing. Returns the game's id."""
    page.goto(server + "/")
    gid = new_game(page, game, opponent="human", **selects)
    friend = requests.post(f"{server}/v1/games/{gid}/seats", json={}, timeout=5).json()
    auth = {"Authorization": f"Bearer {friend['token']}"}
    r = requests.post(f"{server}/v1/games/{gid}/actions", json={"type": "ready"}, headers=auth,
                      timeout=5)  # fmt: skip
    assert r.ok, r.text
    page.locator(f"[data-testid=btn-ready]{ENABLED}").click()
    page.locator("[data-testid=table][data-phase=playing]").wait_for()
    return gid, friend["token"]


def _friend_moves(server, gid, token) -> None:
    """The friend's seat makes its first legal move but resigning, if it has one."""
    auth = {"Authorization": f"Bearer {token}"}
    view = requests.get(f"{server}/v1/games/{gid}", headers=auth, timeout=5).json()
    acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
    if acts:
        requests.post(f"{server}/v1/games/{gid}/actions", json=acts[0], headers=auth, timeout=5)


def _one_pile_card(page):
    """The first card of the page's seat whose name says it plays on one pile (or None)."""
    cards = page.locator(f"{MINE}[aria-label*='plays on pile']{ENABLED}")
    return cards.first if cards.count() else None


@pytest.mark.timeout(150)
def test_one_click_plays_a_card_where_it_fits_and_a_card_that_fits_nowhere_says_so(
    open_page, server
):
    """A click on a card that fits exactly one pile plays it there: one action a card (the
    figure: clicks on such cards / plays they sent, printed). A click on a face-up card
    that fits nowhere says why in the notice, naming the piles' cards."""
    page = open_page(DESKTOP)
    page.goto(server + "/")
    gid = new_game(page, "spit", opponent="human", stockpiles="5")
    friend = requests.post(f"{server}/v1/games/{gid}/seats", json={}, timeout=5).json()
    requests.post(f"{server}/v1/games/{gid}/actions", json={"type": "ready"}, timeout=5,
                  headers={"Authorization": f"Bearer {friend['token']}"})  # fmt: skip
    # before the round: a click on a face-up card says it has to wait
    page.locator(f"{MINE}[data-card]").first.click(force=True)  # aria-disabled
    expect(page.locator("[data-testid=notice]")).to_contain_text(
        "has to wait: cards are played once both players are ready"
    )
    page.locator(f"[data-testid=btn-ready]{ENABLED}").click()
    page.locator("[data-testid=table][data-phase=playing]").wait_for()

    clicks = plays = 0
    told_nowhere = False
    end = time.monotonic() + 90
    while (plays < 8 or not told_nowhere) and time.monotonic() < end:
        if page.locator("[data-testid=end]").count():
            break
        nowhere = page.locator(f"{MINE}[aria-label*='fits no pile now']")
        if nowhere.count() and not told_nowhere:
            v = page.get_attribute("[data-testid=table]", "data-version")
            nowhere.first.click(force=True)  # aria-disabled: told why
            notice = page.locator("[data-testid=notice]")
            expect(notice).to_contain_text(re.compile(r"fits neither \S+ nor \S+|does not fit on"))
            assert page.get_attribute("[data-testid=table]", "data-version") == v  # nothing sent
            told_nowhere = True
            continue
        card = _one_pile_card(page)
        if card is not None:
            before = page.locator(".card.selected").count()
            with page.expect_response(f"{server}/v1/games/{gid}/actions") as answer:
                clicks += 1
                card.click()
            body = answer.value.request.post_data_json
            assert body["type"] == "play", body
            assert answer.value.ok, answer.value.text()
            plays += 1
            assert before == 0 == page.locator(".card.selected").count()
            continue
        # nothing fits one pile: turn up, pick a card that fits both, or spit
        buttons = f"[data-testid=btn-spit]{ENABLED}, [data-testid=btn-ready]{ENABLED}"
        other = page.locator(f"{MINE}.legal{ENABLED}, {buttons}")
        if other.count():
            v = int(page.get_attribute("[data-testid=table]", "data-version"))
            other.first.click()
            target = page.locator(f"[data-testid=table] .card.target{ENABLED}")
            if page.locator(".card.selected").count() and target.count():
                target.first.click()
            wait_for_change(page, v)
            continue
        # the page has nothing to do: the friend moves (only now, so no race with the page)
        v = int(page.get_attribute("[data-testid=table]", "data-version") or -1)
        _friend_moves(server, gid, friend["token"])
        wait_for_change(page, v, timeout=15_000)
    # (five face-up cards against two piles: one fits neither at some point of every deal
    # but a vanishing few; the opponent never moves, so no race changes what a click does)
    assert told_nowhere, "no card that fits nowhere was ever shown"
    assert plays >= 5, f"only {plays} one-pile plays"
    print(f"\nactions per card played when one pile fits: {clicks}/{plays} = {clicks / plays}")
    assert clicks == plays
    shot(page, "one-click")


def _until_one_pile_card(page, server, gid, token):
    """Turns up cards, and lets the friend move, until a card of the page's fits one pile
    whose other pile shows a card; returns (the card's locator, its pile, the other)."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        card = _one_pile_card(page)
        if card is not None:
            k = "ab".index(re.search(r"plays on pile ([ab])", card.get_attribute("aria-label"))[1])
            if page.get_attribute(f"[data-testid=pile-{1 - k}]", "data-card"):
                return card, k, 1 - k
        v = int(page.get_attribute("[data-testid=table]", "data-version"))
        turn = page.locator(f"{MINE}[aria-label*='turn it up']{ENABLED}")
        if turn.count():
            turn.first.click()
        else:
            _friend_moves(server, gid, token)
        wait_for_change(page, v, timeout=15_000)
    pytest.fail("no card that fits one pile in time")


def _centre(page, testid):
    box = page.locator(f"[data-testid={testid}]").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _mouse_drag(page, src, dst):
    page.mouse.move(*_centre(page, src))
    page.mouse.down()
    x, y = _centre(page, dst)
    page.mouse.move(x, y, steps=8)
    page.mouse.up()


def _touch_drag(page, src, dst):
    """A finger's drag (touch events through the DevTools protocol: the browser makes the
    pointer events of pointerType "touch" from them, as from a phone's screen)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = _centre(page, src), _centre(page, dst)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 9):
        x, y = x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8
        cdp.send(touch, {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.timeout(150)
@pytest.mark.parametrize("how", ["mouse", "touch"])
def test_a_card_dragged_onto_a_pile_plays_there_and_onto_the_wrong_pile_says_why(
    open_page, server, how
):
    """Drag and drop by mouse (desktop) and by finger (the phone's viewport, touch): a
    card dropped on a pile it does not fit sends nothing and says why, naming the pile's
    card; dropped on the pile it fits, it is played there."""
    phone = {"has_touch": True, "is_mobile": True}
    page = open_page(DESKTOP) if how == "mouse" else open_page(PHONE, **phone)
    drag = _mouse_drag if how == "mouse" else _touch_drag
    gid, friend = _game_with_an_idle_friend(page, server)
    posts = []
    page.on("request", lambda r: r.method == "POST" and "/actions" in r.url and posts.append(r))
    card, k, other = _until_one_pile_card(page, server, gid, friend)
    testid = card.get_attribute("data-testid")
    j = int(testid.rsplit("-", 1)[1])
    name = page.get_attribute(f"[data-testid={testid}]", "data-card")
    sent = len(posts)
    drag(page, testid, f"pile-{other}")
    expect(page.locator("[data-testid=notice]")).to_contain_text(
        re.compile(rf"does not fit on \S+ \(pile {'ab'[other]}\)")
    )
    assert len(posts) == sent and page.locator(".card.ghost").count() == 0
    with page.expect_response(f"{server}/v1/games/{gid}/actions") as answer:
        drag(page, testid, f"pile-{k}")
    assert answer.value.request.post_data_json == {"type": "play", "from": j, "to": k}
    assert answer.value.ok, answer.value.text()
    expect(page.locator(f"[data-testid=pile-{k}]")).to_have_attribute("data-card", name)
    assert page.locator(".card.ghost, .card.dragged").count() == 0
