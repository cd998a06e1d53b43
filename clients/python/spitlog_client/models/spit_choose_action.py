from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SpitChooseAction")


@_attrs_define
class SpitChooseAction:
    """spit: choose

    Attributes:
        type_ (Literal['choose']):  Default: 'choose'.
        pile (int): a spit or centre pile, 0 or 1
    """

    pile: int
    type_: Literal["choose"] = "choose"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        pile = self.pile

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "pile": pile,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["choose"], d.pop("type"))
        if type_ != "choose":
            raise ValueError(f"type must match const 'choose', got '{type_}'")

        pile = d.pop("pile")

        spit_choose_action = cls(
            type_=type_,
            pile=pile,
        )

        return spit_choose_action
