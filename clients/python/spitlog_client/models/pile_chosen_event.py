from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PileChosenEvent")


@_attrs_define
class PileChosenEvent:
    """Spit: a seat chose a spit pile (V-2).

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['pile_chosen']):  Default: 'pile_chosen'.
        seat (int):
        pile (int):
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    pile: int
    at: float
    type_: Literal["pile_chosen"] = "pile_chosen"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        pile = self.pile

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "pile": pile,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["pile_chosen"], d.pop("type"))
        if type_ != "pile_chosen":
            raise ValueError(f"type must match const 'pile_chosen', got '{type_}'")

        seat = d.pop("seat")

        pile = d.pop("pile")

        at = d.pop("at")

        pile_chosen_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            pile=pile,
            at=at,
        )

        pile_chosen_event.additional_properties = d
        return pile_chosen_event

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
