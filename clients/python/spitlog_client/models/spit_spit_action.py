from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SpitSpitAction")


@_attrs_define
class SpitSpitAction:
    """spit: spit

    Attributes:
        type_ (Literal['spit']):  Default: 'spit'.
        pile (int | None | Unset): a spit or centre pile, 0 or 1
    """

    type_: Literal["spit"] = "spit"
    pile: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        pile: int | None | Unset
        if isinstance(self.pile, Unset):
            pile = UNSET
        else:
            pile = self.pile

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if pile is not UNSET:
            field_dict["pile"] = pile

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["spit"], d.pop("type"))
        if type_ != "spit":
            raise ValueError(f"type must match const 'spit', got '{type_}'")

        def _parse_pile(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pile = _parse_pile(d.pop("pile", UNSET))

        spit_spit_action = cls(
            type_=type_,
            pile=pile,
        )

        return spit_spit_action
