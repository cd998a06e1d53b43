from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SpeedSpitAction")


@_attrs_define
class SpeedSpitAction:
    """speed: spit

    Attributes:
        type_ (Literal['spit']):  Default: 'spit'.
    """

    type_: Literal["spit"] = "spit"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["spit"], d.pop("type"))
        if type_ != "spit":
            raise ValueError(f"type must match const 'spit', got '{type_}'")

        speed_spit_action = cls(
            type_=type_,
        )

        return speed_spit_action
