from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardTurnedUpEvent")


@_attrs_define
class CardTurnedUpEvent:
    """Spit: a stockpile's top card was turned face up.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['card_turned_up']):  Default: 'card_turned_up'.
        seat (int):
        stockpile (int):
        card (str): a card: rank (A, 2-10, J, Q, K) and suit (C, D, H, S) (RULES C-1)
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    stockpile: int
    card: str
    at: float
    type_: Literal["card_turned_up"] = "card_turned_up"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        stockpile = self.stockpile

        card = self.card

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "stockpile": stockpile,
                "card": card,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["card_turned_up"], d.pop("type"))
        if type_ != "card_turned_up":
            raise ValueError(f"type must match const 'card_turned_up', got '{type_}'")

        seat = d.pop("seat")

        stockpile = d.pop("stockpile")

        card = d.pop("card")

        at = d.pop("at")

        card_turned_up_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            stockpile=stockpile,
            card=card,
            at=at,
        )

        card_turned_up_event.additional_properties = d
        return card_turned_up_event

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
