from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SpitReadyAction")


@_attrs_define
class SpitReadyAction:
    """spit: ready

    Attributes:
        type_ (Literal['ready']):  Default: 'ready'.
    """

    type_: Literal["ready"] = "ready"

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
        type_ = cast(Literal["ready"], d.pop("type"))
        if type_ != "ready":
            raise ValueError(f"type must match const 'ready', got '{type_}'")

        spit_ready_action = cls(
            type_=type_,
        )

        return spit_ready_action
