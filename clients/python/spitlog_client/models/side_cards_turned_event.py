from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SideCardsTurnedEvent")


@_attrs_define
class SideCardsTurnedEvent:
    """Speed: each side pile's top card was turned onto a centre pile.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['side_cards_turned']):  Default: 'side_cards_turned'.
        cards (list[None | str]):
        at (float): when, in seconds since the epoch
    """

    version: int
    cards: list[None | str]
    at: float
    type_: Literal["side_cards_turned"] = "side_cards_turned"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        cards = []
        for cards_item_data in self.cards:
            cards_item: None | str
            cards_item = cards_item_data
            cards.append(cards_item)

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

        type_ = cast(Literal["side_cards_turned"], d.pop("type"))
        if type_ != "side_cards_turned":
            raise ValueError(f"type must match const 'side_cards_turned', got '{type_}'")

        cards = []
        _cards = d.pop("cards")
        for cards_item_data in _cards:

            def _parse_cards_item(data: object) -> None | str:
                if data is None:
                    return data
                return cast(None | str, data)

            cards_item = _parse_cards_item(cards_item_data)

            cards.append(cards_item)

        at = d.pop("at")

        side_cards_turned_event = cls(
            version=version,
            type_=type_,
            cards=cards,
            at=at,
        )

        side_cards_turned_event.additional_properties = d
        return side_cards_turned_event

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
