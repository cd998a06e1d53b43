from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardPlayedEvent")


@_attrs_define
class CardPlayedEvent:
    """A card was played onto a pile: from a stockpile in Spit, from the hand in Speed.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['card_played']):  Default: 'card_played'.
        seat (int):
        card (str): a card: rank (A, 2-10, J, Q, K) and suit (C, D, H, S) (RULES C-1)
        to (int):
        src (int | None):
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    card: str
    to: int
    src: int | None
    at: float
    type_: Literal["card_played"] = "card_played"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        card = self.card

        to = self.to

        src: int | None
        src = self.src

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "card": card,
                "to": to,
                "src": src,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["card_played"], d.pop("type"))
        if type_ != "card_played":
            raise ValueError(f"type must match const 'card_played', got '{type_}'")

        seat = d.pop("seat")

        card = d.pop("card")

        to = d.pop("to")

        def _parse_src(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        src = _parse_src(d.pop("src"))

        at = d.pop("at")

        card_played_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            card=card,
            to=to,
            src=src,
            at=at,
        )

        card_played_event.additional_properties = d
        return card_played_event

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
