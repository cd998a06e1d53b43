from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SpitPlayAction")


@_attrs_define
class SpitPlayAction:
    """spit: play

    Attributes:
        type_ (Literal['play']):  Default: 'play'.
        from_ (int): a stockpile, 0 to 4 (0 to 3 under V-1)
        to (int): a spit or centre pile, 0 or 1
    """

    from_: int
    to: int
    type_: Literal["play"] = "play"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        from_ = self.from_

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "from": from_,
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

        from_ = d.pop("from")

        to = d.pop("to")

        spit_play_action = cls(
            type_=type_,
            from_=from_,
            to=to,
        )

        return spit_play_action
