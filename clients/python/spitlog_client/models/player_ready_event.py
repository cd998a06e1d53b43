from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerReadyEvent")


@_attrs_define
class PlayerReadyEvent:
    """A seat said it is ready (by the T-2 timeout when `by` says so).

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['player_ready']):  Default: 'player_ready'.
        seat (int):
        by (None | str):
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    by: None | str
    at: float
    type_: Literal["player_ready"] = "player_ready"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        by: None | str
        by = self.by

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "by": by,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["player_ready"], d.pop("type"))
        if type_ != "player_ready":
            raise ValueError(f"type must match const 'player_ready', got '{type_}'")

        seat = d.pop("seat")

        def _parse_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        by = _parse_by(d.pop("by"))

        at = d.pop("at")

        player_ready_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            by=by,
            at=at,
        )

        player_ready_event.additional_properties = d
        return player_ready_event

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
