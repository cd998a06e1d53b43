from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deadline_rule import DeadlineRule

T = TypeVar("T", bound="Deadline")


@_attrs_define
class Deadline:
    """The soonest of the viewer's own deadlines and the game-wide ones (never another seat's T-4 in Speed, RULES H-5).

    Attributes:
        rule (DeadlineRule): the timer's rule
        at (datetime.datetime): when it fires: RFC 3339, UTC, milliseconds
        seat (int | None): T-4, T-6: whose idle clock; null: the game's
    """

    rule: DeadlineRule
    at: datetime.datetime
    seat: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rule = self.rule.value

        at = self.at.isoformat()

        seat: int | None
        seat = self.seat

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rule": rule,
                "at": at,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rule = DeadlineRule(d.pop("rule"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        deadline = cls(
            rule=rule,
            at=at,
            seat=seat,
        )

        deadline.additional_properties = d
        return deadline

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
