from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SpeedPlayAction")


@_attrs_define
class SpeedPlayAction:
    """speed: play

    Attributes:
        type_ (Literal['play']):  Default: 'play'.
        card (str): a card of your hand, such as 10H or QD (C-1)
        to (int): a spit or centre pile, 0 or 1
    """

    card: str
    to: int
    type_: Literal["play"] = "play"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        card = self.card

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "card": card,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["play"], d.pop("type"))
        if type_ != "play":
            raise ValueError(f"type must match const 'play', got '{type_}'")

        card = d.pop("card")

        to = d.pop("to")

        speed_play_action = cls(
            type_=type_,
            card=card,
            to=to,
        )

        return speed_play_action
