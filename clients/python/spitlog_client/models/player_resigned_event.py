from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerResignedEvent")


@_attrs_define
class PlayerResignedEvent:
    """A seat resigned.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['player_resigned']):  Default: 'player_resigned'.
        seat (int):
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    at: float
    type_: Literal["player_resigned"] = "player_resigned"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["player_resigned"], d.pop("type"))
        if type_ != "player_resigned":
            raise ValueError(f"type must match const 'player_resigned', got '{type_}'")

        seat = d.pop("seat")

        at = d.pop("at")

        player_resigned_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            at=at,
        )

        player_resigned_event.additional_properties = d
        return player_resigned_event

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
