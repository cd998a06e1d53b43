from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_events import WebhookEvents
from ..types import UNSET, Unset

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """
    Attributes:
        url (str): an HTTPS URL resolving to public addresses only (docs/webhooks.md); `format: webhook-url` names that
            rule, which depends on DNS
        events (WebhookEvents | Unset): `lifecycle` (the default): seat.joined, game.started, game.finished; `all`:
            every event of the log too, as a spectator sees it
    """

    url: str
    events: WebhookEvents | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: str | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        _events = d.pop("events", UNSET)
        events: WebhookEvents | Unset
        if isinstance(_events, Unset):
            events = UNSET
        else:
            events = WebhookEvents(_events)

        webhook = cls(
            url=url,
            events=events,
        )

        return webhook
