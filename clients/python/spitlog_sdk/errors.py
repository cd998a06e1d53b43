"""The error every call of ``Spitlog`` raises for an answer that is not a success
(``ApiError``), typed for the refusals a player handles: ``RuleRefused`` (422, the rule's
ID) and ``VersionMoved`` (412)."""

import json
import time
from collections.abc import Mapping
from typing import cast

from spitlog_client.models import Problem
from spitlog_client.types import Unset

from ._transport import retry_after_s


class ApiError(Exception):
    """An answer other than a success: its ``status``, the ``problem`` it carried
    (``application/problem+json``: ``type``, ``title``, ``detail``; ``rule``, the rule's ID,
    when the rules refused an action; ``errors``, field -> messages, for bad input;
    ``version``, the game's), and ``retry_after`` (seconds) when it asked to come back
    later (the retries ``Spitlog`` makes by itself were used up, or it asked for longer
    than they wait)."""

    def __init__(
        self, status: int, problem: Problem | None, retry_after: float | None = None
    ) -> None:
        self.status = status
        self.problem = problem
        self.retry_after = retry_after
        what = f"{problem.title}: {problem.detail}" if problem else "no problem+json body"
        if problem is not None and not isinstance(problem.errors, Unset):
            fields = problem.errors.to_dict()
            what += " (" + "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items()) + ")"
        super().__init__(f"{status} {what}" + (f" (rule {self.rule})" if self.rule else ""))

    @property
    def rule(self) -> str | None:
        """The ID of the rule that refused the action (``C-3``, ``S-6``, ...), if any."""
        if self.problem is None or isinstance(self.problem.rule, Unset):
            return None
        return self.problem.rule

    @property
    def type(self) -> str | None:
        """The problem's ``type`` (a link to what it means), if any."""
        return self.problem.type_ if self.problem else None

    @classmethod
    def from_answer(cls, status: int, headers: Mapping[str, str], content: bytes) -> "ApiError":
        """The error of an answer: its problem read from ``content`` when it is one."""
        problem = None
        try:
            body = json.loads(content)
            if isinstance(body, dict) and {"type", "title", "status", "detail"} <= body.keys():
                problem = Problem.from_dict(cast(dict[str, object], body))
        except (ValueError, KeyError, TypeError):  # not a problem (a proxy's page)
            pass
        made = cls
        if cls is ApiError and status == 422 and problem is not None:
            made = RuleRefused if not isinstance(problem.rule, Unset) else ApiError
        elif cls is ApiError and status == 412:
            made = VersionMoved
        return made(status, problem, retry_after_s(headers.get("Retry-After"), time.time()))


class RuleRefused(ApiError):
    """The rules refused the action (``422``): ``rule`` is the ID of the rule that did
    (``C-3``, ``S-6``, ...). In a real-time game it is most often a race the other seat
    won: decide again on the next view."""

    @property
    def rule(self) -> str:
        rule = super().rule
        assert rule is not None  # made only for a problem that names its rule
        return rule


class VersionMoved(ApiError):
    """The game is no longer at the version the action was decided on (``412``: its
    ``expected_version``, ``If-Match``); the problem's ``version`` is the game's now."""
