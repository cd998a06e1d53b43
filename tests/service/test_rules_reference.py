"""The rules reference (docs/rules.md, served at ``/docs/rules``): every rule ID the service
can emit has an entry there, with an anchor, and every refusal and result links to it.

The IDs are collected from the code itself, two ways: every string constant of the
domain's, the service's and the workers' modules that reads as a rule ID (the rules of
the ``IllegalAction`` raises, the reasons of ``GameEnded``, ``GameAborted``,
``RoundEnded`` and ``GameScored``, the timers), with the constants they name
(``UNPLAYED``) and the built-in games' own tables (``START_RULE``, ``PHASE_DEADLINES``,
each option's rule); and by running the built-in games: simulated games with every
table option, every action of each game tried at states along them (the refusals), every
timer fired at them, and the games no one plays to the end (joined by no one, resigned
before the second seat, idle, aborted by the operator, rated and unplayed).
"""

import ast
import random
import re
from pathlib import Path

import fakeredis
import pytest

import domain
from domain import simulate
from domain.actions import CARD
from domain.game import Ctx, deadlines, run
from service.http import docs, markdown
from service.http.app import create_app
from service.rulebook import rule_url
from tests.support.api import act, app_settings, bearer, new_game, problem_of

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"[A-Z]-\d+[a-z]?")
BUILT_INS = {name: r for name, r in domain.RULES.items() if r.__name__.startswith("domain.")}
# what an event or a raise names a rule or a ruling by
NAMING = {"IllegalAction", "GameEnded", "GameAborted", "RoundEnded", "GameScored",
          "DeadlineExpired", "Deadline", "Timeout", "SpitCalled", "PlayerReady"}  # fmt: skip
SEED = bytes(range(32))
OPTIONS = {
    "spit": [{}, {"stockpiles": 4}, {"pile_choice": "choose"}, {"alternate_colors": True},
             {"stockpiles": 4, "pile_choice": "choose", "max_rounds": 3}],
    "speed": [{}, {"side_piles": 5}, {"alternate_colors": True}, {"target_score": 20},
              {"side_piles": 5, "target_score": 60, "max_rounds": 2}],
}  # fmt: skip


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def ids_in_source() -> dict[str, str]:
    """ID -> the module that names it (see the module's doc)."""
    found: dict[str, str] = {}
    for folder in ("domain", "service", "workers"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            where = str(path.relative_to(ROOT))
            skip = _docstrings(tree)
            constants = {  # module-level NAME = "..."
                t.id: node.value.value
                for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                for t in node.targets
                if isinstance(t, ast.Name) and isinstance(node.value.value, str)
            }
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    if id(node) not in skip and ID.fullmatch(node.value):
                        found.setdefault(node.value, where)
                elif isinstance(node, ast.Call) and _called(node) in NAMING:
                    args = [*node.args, *(k.value for k in node.keywords
                                          if k.arg in ("rule", "reason", "by"))]  # fmt: skip
                    for a in args:
                        if isinstance(a, ast.Name) and a.id in constants:
                            found.setdefault(constants[a.id], where)
    for name, rules in BUILT_INS.items():
        found.setdefault(rules.START_RULE, name)
        for rule, _option in rules.PHASE_DEADLINES.values():
            found.setdefault(rule, name)
        for spec in rules.OPTIONS:
            found.setdefault(spec.rule, name)
    return found


def _named(events, out: dict[str, str], where: str) -> None:
    """The rules and rulings ``events`` name: reasons, timers, who acted for a seat."""
    for e in events:
        for attr in ("reason", "rule", "by"):
            v = getattr(e, attr, None)
            if isinstance(v, str) and v not in ("operator", "service"):
                out.setdefault(v, f"{where}: {type(e).__name__}.{attr}")


def _wires(rules) -> list[dict]:
    """Every action of a game's wire table with every value of its fields (a card: each
    of the deck), resign aside."""
    out = []
    for kind, (_cls, fields) in rules.ACTIONS.items():
        if kind == "resign":
            continue
        bodies = [{"type": kind}]
        for f in fields:
            if f.kind is CARD:
                values = [c.name for c in domain.DECK]
            else:
                values = list(range(f.kind.schema["minimum"], f.kind.schema["maximum"] + 1))
            if not f.required:
                values.append(None)
            bodies = [{**b, f.wire: v} for b in bodies for v in values]
        out += bodies
    return out


def _probe(state, wires, now: float, out: dict[str, str], where: str) -> None:
    """Every action of ``wires`` by each seat (and by no seat), and every timer at once and
    late, tried at ``state``: the rules of the refusals, and what the accepted ones name."""
    if state.over:
        return
    for d in deadlines(state):
        out.setdefault(d.rule, f"{where}: a deadline")
    tries = [(domain.parse_action(state.game, w), seat) for w in wires for seat in (None, 0, 1)]
    tries += [(domain.Timeout(f"T-{n}", seat), None) for n in range(1, 7) for seat in (None, 0, 1)]
    for action, seat in tries:
        for at in (now, now + 10**6):
            try:
                events, _ = run(state, action, Ctx(seat, at, SEED))
            except domain.IllegalAction as e:
                out.setdefault(e.rule, f"{where}: refused {action}")
            except (domain.MalformedAction, domain.GameOver, domain.SeatUnavailable):
                pass
            else:
                _named(events, out, where)


def _started(game: str, now: float, **kw) -> list:
    return domain.create_game(game_id="g_0123456789abcdef", game=game, now=now, server_seed=SEED,
                              commitment=domain.commitment(SEED), **kw)  # fmt: skip


def _then(log: list, action, seat, now: float) -> list:
    events, _ = run(domain.replay(log), action, Ctx(seat, now, SEED))
    return log + events


def _idle_to_the_end(log: list, out: dict[str, str], where: str) -> None:
    """Fire the soonest deadline until the game is over (no seat ever acts)."""
    state = domain.replay(log)
    while not state.over:
        d = deadlines(state)[0]
        events, state = run(state, domain.Timeout(d.rule, d.seat), Ctx(None, d.at, SEED))
        _named(events, out, where)
        out.setdefault(state.result, where) if state.over else None


def ids_of_games() -> dict[str, str]:
    """ID -> where running the built-in games met it (see the module's doc)."""
    out: dict[str, str] = {}
    rng = random.Random(28)
    pols = simulate.policies()
    for game, rules in BUILT_INS.items():
        wires = _wires(rules)
        for opts in OPTIONS[game]:
            for levels in (("random", "random"), ("easy", "random")):
                where = f"{game} {opts} {levels}"
                res = simulate.play_game(game, [pols[lv] for lv in levels], rng,
                                         options=opts, keep_log=True)  # fmt: skip
                out.setdefault(res.result, where)
                state = None
                for i, e in enumerate(res.log):
                    _named([e], out, where)
                    state = domain.evolve(state, e) if state is not None else domain.replay([e])
                    if i % 25 == 0 or i == len(res.log) - 2:
                        _probe(state, wires, e.at, out, where)
        now = 1_800_000_000.0
        created = _started(game, now)
        _probe(domain.replay(created), wires, now, out, f"{game} waiting")
        ended = _then(created, domain.Resign(), 0, now)  # before the second seat: E-5
        out.setdefault(domain.replay(ended).result, f"{game} resigned while waiting")
        _idle_to_the_end(created, out, f"{game} nobody joins")  # T-5
        joined = _then(created, domain.Join(), 1, now)
        _idle_to_the_end(joined, out, f"{game} two idle people")  # T-2, then T-4
        _idle_to_the_end(_started(game, now, opponent="bot:easy"), out, f"{game} an idle bot")
        aborted = _then(joined, domain.Abort("a test"), None, now)  # T-6, the operator's
        out.setdefault(domain.replay(aborted).result, f"{game} aborted")
        rated = _then(_started(game, now, rated=True, options={"idle_forfeit_s": 30}),
                      domain.Join(), 1, now)  # fmt: skip
        unplayed = _then(rated, domain.Resign(), 1, now)  # before both moved: unplayed
        out.setdefault(domain.replay(unplayed).result, f"{game} rated, resigned at once")
    out.pop(None, None)
    return out


@pytest.fixture(scope="module")
def served() -> tuple[object, set[str]]:
    """The app, and the anchors of its ``/docs/rules`` page."""
    redis = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    app = create_app(app_settings(), redis_client=redis)
    r = app.test_client().get("/docs/rules")
    assert r.status_code == 200 and r.mimetype == "text/html"
    return app, set(re.findall(r'\bid="([^"]+)"', r.get_data(as_text=True)))


@pytest.mark.slow  # every module's source read and every game's rules: about 4 s
def test_every_rule_id_the_code_can_emit_has_an_entry_and_an_anchor(served):
    """The rules (C-*..Q-*, H-*, T-1..T-6) and the rulings (unplayed) of the built-in games:
    docs/rules.md has an entry for each, and /docs/rules an anchor."""
    _app, anchors = served
    entries = set(docs.rule_ids((ROOT / "docs" / "rules.md").read_text()))
    emitted = {**ids_in_source(), **ids_of_games()}
    # the collection finds refusals, results, round ends and timers, of both games
    assert {"P-1", "S-4", "Q-3", "Q-4", "N-2", "V-2", "T-6"} <= set(emitted)
    assert {"E-2", "E-4", "E-5", "Q-7", "Q-9", "T-4", "T-5", "unplayed"} <= set(emitted)
    assert {"N-1a", "N-1b", "T-1", "T-2", "T-3"} <= set(emitted)
    missing = {i: where for i, where in emitted.items() if i not in entries}
    assert not missing, f"no entry in docs/rules.md for {missing}"
    unanchored = sorted(set(emitted) - anchors)
    assert not unanchored, f"no anchor at /docs/rules for {unanchored}"


def test_the_reference_is_docs_rules_md_and_names_every_id_once():
    """docs/rules.md is the file the server renders, each ID one entry, and the H-*
    rules (promises, not emitted) and every C-*, D-* entry are there too."""
    source = (ROOT / "docs" / "rules.md").read_text()
    assert source == docs.rules_source()
    ids = docs.rule_ids(source)
    assert len(ids) == len(set(ids))
    for prefix, n in (("C", 3), ("D", 4), ("P", 5), ("S", 4), ("N", 5), ("E", 5), ("V", 4),
                      ("Q", 9), ("H", 6), ("T", 6)):  # fmt: skip
        assert {f"{prefix}-{k}" for k in range(1, n + 1)} <= set(ids), prefix


def test_D4_a_refusal_links_to_its_rule(served):
    """A 422 names its rule and links to its entry, an anchor of /docs/rules (D-4: a play
    before both players are ready)."""
    app, anchors = served
    client = app.test_client()
    gid, t0, _t1 = new_game(client)
    body = problem_of(act(client, gid, t0, {"type": "turn_up", "stockpile": 0}), 422)
    assert (body["rule"], body["rule_url"]) == ("D-4", "/docs/rules#D-4")
    assert body["rule_url"].split("#")[1] in anchors


def test_E5_a_result_links_to_its_rule(served):
    """A game's view links its result to its entry (E-5: resigned), and is null before."""
    app, anchors = served
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    before = client.get(f"/v1/games/{gid}", headers=bearer(t0)).get_json()
    assert (before["result"], before["result_url"]) == (None, None)
    act(client, gid, t1, {"type": "resign"})
    view = client.get(f"/v1/games/{gid}").get_json()
    assert (view["result"], view["result_url"]) == ("E-5", rule_url("E-5"))
    assert "E-5" in anchors


def test_the_docs_page_links_to_the_rules(served):
    app, _anchors = served
    page = app.test_client().get("/docs").get_data(as_text=True)
    assert 'href="/docs/rules"' in page


def test_the_converter_lets_no_html_through():
    """The source's markup is escaped: a tag, an attribute, a script link, an entity."""
    source = (
        '### X-1 <img src=x onerror="alert(1)">\n\n'
        "<script>alert(2)</script> **<b>x</b>** [a](javascript:alert(3)) [b](/docs)\n"
        '&amp; `<i>` [c](https://example.org/"onclick=x)\n\n- <u>item</u>\n'
    )
    out = markdown.to_html(source, {"X-1"})
    assert "<script" not in out and "<img" not in out and "<b>" not in out
    assert "<u>" not in out and "<i>" not in out
    assert 'href="javascript' not in out and 'href="https://example.org' not in out
    assert '<a href="/docs">b</a>' in out and "&amp;amp;" in out
    assert '<h3 id="X-1">' in out


def test_the_converter_links_an_id_in_prose_only_and_no_other_site():
    """A rule ID in the text (in bold too) links to its anchor; in a heading, a code span or
    a link's own text it stays text; a link to another site without https, or
    protocol-relative, stays text."""
    source = (
        "## About P-1\n\nSee **P-1**, P-10, `P-1`, [P-1 here](/docs/rules#P-1) and P-1.\n\n"
        "[x](//evil.example/a) [y](http://evil.example/) [z](https://example.org/a b)\n"
    )
    out = markdown.to_html(source, {"P-1"})
    assert '<h2 id="about-p-1">About P-1</h2>' in out
    assert (
        '<p>See <strong><a href="#P-1">P-1</a></strong>, P-10, <code>P-1</code>, '
        '<a href="/docs/rules#P-1">P-1 here</a> and <a href="#P-1">P-1</a>.</p>'
    ) in out
    assert "evil" not in "".join(re.findall(r'href="([^"]*)"', out))
    assert "[x](//evil.example/a)" in out and "[y](http://evil.example/)" in out
    assert markdown.headings(source) == [(2, "about-p-1", "About P-1")]
