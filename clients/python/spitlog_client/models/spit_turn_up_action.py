from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SpitTurnUpAction")


@_attrs_define
class SpitTurnUpAction:
    """spit: turn_up

    Attributes:
        type_ (Literal['turn_up']):  Default: 'turn_up'.
        stockpile (int): a stockpile, 0 to 4 (0 to 3 under V-1)
    """

    stockpile: int
    type_: Literal["turn_up"] = "turn_up"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        stockpile = self.stockpile

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "stockpile": stockpile,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["turn_up"], d.pop("type"))
        if type_ != "turn_up":
            raise ValueError(f"type must match const 'turn_up', got '{type_}'")

        stockpile = d.pop("stockpile")

        spit_turn_up_action = cls(
            type_=type_,
            stockpile=stockpile,
        )

        return spit_turn_up_action
