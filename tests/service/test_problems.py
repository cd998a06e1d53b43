"""The errors of the use cases are facts; ``service.http.problems`` is the one table that
says how each is answered. And the rate charge a request leaves to its game's first Redis
script reaches it through a request-scoped slot (``limits.pending``), never through a
use case."""

import inspect
import threading

import gevent

from service import errors
from service.http.problems import INTERNAL, KINDS, kind_of, problem
from service.limits.pending import left_to_store, pending, withdraw


def every_error_class() -> set[type]:
    """Every subclass of ``ServiceError`` the service defines (its modules imported)."""
    import service.http.app  # noqa: F401 - imports every use case

    found, todo = set(), [errors.ServiceError]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("service.") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def test_every_error_of_the_service_has_its_line_in_the_table():
    classes = every_error_class()
    assert len(classes) >= 30
    missing = sorted(c.__name__ for c in classes if c not in KINDS)
    assert missing == []
    assert all(kind_of(c.__new__(c)) is not INTERNAL for c in classes)


def test_no_error_class_carries_a_status_a_title_or_header_fields():
    for cls in every_error_class():
        for name in ("status", "slug", "title", "headers"):
            assert name not in vars(cls), f"{cls.__name__}.{name}"


def test_a_401_says_how_to_authenticate_and_a_wait_becomes_retry_after():
    assert problem(errors.Unauthorized())[2] == {"WWW-Authenticate": 'Bearer realm="spitlog"'}
    assert problem(errors.BadCredentials("unknown token"))[0] == 401
    from service.apps import BadAppKey

    assert problem(BadAppKey())[2]["WWW-Authenticate"].startswith("ApiKey ")
    assert problem(errors.RatedPairCapped(wait_s=3600))[2] == {"Retry-After": "3600"}
    assert problem(errors.RateLimited(wait_s=1.2, limits=("actions",)))[2]["Retry-After"] == "2"
    assert problem(errors.Busy())[2] == {}  # says no wait: none
    assert problem(errors.Busy(retry_after_s=1))[2] == {"Retry-After": "1"}
    assert problem(errors.ArchiveUnavailable())[2] == {"Retry-After": "5"}
    status, body, _headers = problem(errors.Unauthorized())
    assert (status, body["title"], body["detail"]) == (401, "No valid token", "No valid token")


def test_a_rules_refusal_is_raised_complete_at_its_version():
    e = errors.at_version(errors.domain.IllegalAction("P-1", "no"), 7, replayed=True)
    status, body, headers = problem(e)
    assert (status, body["rule"], body["version"]) == (422, "P-1", 7)
    assert headers == {"Idempotent-Replayed": "true"}
    over = errors.at_version(errors.domain.GameOver("the game is finished"), 9)
    assert problem(over)[:2] == (409, {"type": "/docs#problem-game-over", "title":
                                       "The game is over", "status": 409, "detail":
                                       "the game is finished", "version": 9})  # fmt: skip


def test_no_use_case_takes_a_bill():
    import service.http.app  # noqa: F401

    adapters = ("http", "limits", "store", "cli", "archive", "outbound")
    modules = [m for name, m in vars(service).items()
               if inspect.ismodule(m) and name not in adapters]  # fmt: skip
    seen = 0
    for module in modules:
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for meth_name, meth in inspect.getmembers(cls, inspect.isfunction):
                seen += 1
                assert "bill" not in inspect.signature(meth).parameters, (cls, meth_name)
    assert seen > 100


class Bill:
    charged = None


def test_a_bill_left_to_the_store_is_its_own_requests_in_each_thread():
    bills, seen = [Bill(), Bill()], {}
    both = threading.Barrier(2)

    def request(n):
        with left_to_store(bills[n]):
            both.wait()
            seen[n] = pending()
        seen[f"after {n}"] = pending()

    threads = [threading.Thread(target=request, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {0: bills[0], 1: bills[1], "after 0": None, "after 1": None}


def test_a_bill_left_to_the_store_is_its_own_requests_in_each_greenlet():
    """Under gunicorn's gevent workers the requests of a process are greenlets of one
    thread: each greenlet has its own slot, and one that switches to another mid-request
    finds its own bill again."""
    bills, seen = [Bill(), Bill()], {}

    def request(n):
        with left_to_store(bills[n]):
            gevent.sleep(0)  # the other request runs meanwhile
            seen[n] = pending()
            gevent.sleep(0)
            seen[f"again {n}"] = pending()

    gevent.joinall([gevent.spawn(request, n) for n in (0, 1)])
    assert seen == {0: bills[0], 1: bills[1], "again 0": bills[0], "again 1": bills[1]}
    assert pending() is None


def test_a_charged_or_withdrawn_bill_is_charged_by_no_later_script():
    bill = Bill()
    with left_to_store(bill):
        assert pending() is bill
        bill.charged = object()
        assert pending() is None
    other = Bill()
    with left_to_store(other):
        withdraw()  # (a replayed answer)
        assert pending() is None
    assert pending() is None
