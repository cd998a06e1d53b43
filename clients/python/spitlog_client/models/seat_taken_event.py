from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SeatTakenEvent")


@_attrs_define
class SeatTakenEvent:
    """A seat was taken, by a person or a hosted bot.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['seat_taken']):  Default: 'seat_taken'.
        seat (int):
        kind (str):
        client_seed (str):
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    kind: str
    client_seed: str
    at: float
    type_: Literal["seat_taken"] = "seat_taken"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        kind = self.kind

        client_seed = self.client_seed

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "kind": kind,
                "client_seed": client_seed,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["seat_taken"], d.pop("type"))
        if type_ != "seat_taken":
            raise ValueError(f"type must match const 'seat_taken', got '{type_}'")

        seat = d.pop("seat")

        kind = d.pop("kind")

        client_seed = d.pop("client_seed")

        at = d.pop("at")

        seat_taken_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            kind=kind,
            client_seed=client_seed,
            at=at,
        )

        seat_taken_event.additional_properties = d
        return seat_taken_event

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
