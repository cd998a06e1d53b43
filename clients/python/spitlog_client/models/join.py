from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Join")


@_attrs_define
class Join:
    """
    Attributes:
        client_seed (str | Unset): your contribution to every shuffle of the game (RULES H-6)
    """

    client_seed: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_seed = self.client_seed

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if client_seed is not UNSET:
            field_dict["client_seed"] = client_seed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_seed = d.pop("client_seed", UNSET)

        join = cls(
            client_seed=client_seed,
        )

        return join
