from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RoundEndedEvent")


@_attrs_define
class RoundEndedEvent:
    """Spit: a round ended; `next` says how the piles are taken.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['round_ended']):  Default: 'round_ended'.
        round_ (int):
        reason (str):
        cleared (int | None):
        next_ (str):
        chooser (int | None):
        at (float): when, in seconds since the epoch
    """

    version: int
    round_: int
    reason: str
    cleared: int | None
    next_: str
    chooser: int | None
    at: float
    type_: Literal["round_ended"] = "round_ended"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        round_ = self.round_

        reason = self.reason

        cleared: int | None
        cleared = self.cleared

        next_ = self.next_

        chooser: int | None
        chooser = self.chooser

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "round": round_,
                "reason": reason,
                "cleared": cleared,
                "next": next_,
                "chooser": chooser,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["round_ended"], d.pop("type"))
        if type_ != "round_ended":
            raise ValueError(f"type must match const 'round_ended', got '{type_}'")

        round_ = d.pop("round")

        reason = d.pop("reason")

        def _parse_cleared(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        cleared = _parse_cleared(d.pop("cleared"))

        next_ = d.pop("next")

        def _parse_chooser(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        chooser = _parse_chooser(d.pop("chooser"))

        at = d.pop("at")

        round_ended_event = cls(
            version=version,
            type_=type_,
            round_=round_,
            reason=reason,
            cleared=cleared,
            next_=next_,
            chooser=chooser,
            at=at,
        )

        round_ended_event.additional_properties = d
        return round_ended_event

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
