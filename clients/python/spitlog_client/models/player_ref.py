from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayerRef")


@_attrs_define
class PlayerRef:
    """
    Attributes:
        id (str): 1-64 of A-Z a-z 0-9 _ . -, not starting with a dot, in your app's namespace (or qualified: <app
            id>:<id>, your app's)
        name (str): shown with the seat: 1-64 printable characters (Python's str.isprintable: no control, format,
            separator other than the space, private-use, surrogate or unassigned code point), no space at either end
    """

    id: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        player_ref = cls(
            id=id,
            name=name,
        )

        return player_ref
