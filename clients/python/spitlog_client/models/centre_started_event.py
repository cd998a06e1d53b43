from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CentreStartedEvent")


@_attrs_define
class CentreStartedEvent:
    """Speed: the centre piles were started with these cards.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['centre_started']):  Default: 'centre_started'.
        cards (list[str]):
        at (float): when, in seconds since the epoch
    """

    version: int
    cards: list[str]
    at: float
    type_: Literal["centre_started"] = "centre_started"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        cards = self.cards

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "cards": cards,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["centre_started"], d.pop("type"))
        if type_ != "centre_started":
            raise ValueError(f"type must match const 'centre_started', got '{type_}'")

        cards = cast(list[str], d.pop("cards"))

        at = d.pop("at")

        centre_started_event = cls(
            version=version,
            type_=type_,
            cards=cards,
            at=at,
        )

        centre_started_event.additional_properties = d
        return centre_started_event

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
