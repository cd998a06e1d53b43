from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PilesTakenEvent")


@_attrs_define
class PilesTakenEvent:
    """Spit: each seat took a spit pile (or none).

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['piles_taken']):  Default: 'piles_taken'.
        piles (list[int | None]):
        at (float): when, in seconds since the epoch
    """

    version: int
    piles: list[int | None]
    at: float
    type_: Literal["piles_taken"] = "piles_taken"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        piles = []
        for piles_item_data in self.piles:
            piles_item: int | None
            piles_item = piles_item_data
            piles.append(piles_item)

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "piles": piles,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["piles_taken"], d.pop("type"))
        if type_ != "piles_taken":
            raise ValueError(f"type must match const 'piles_taken', got '{type_}'")

        piles = []
        _piles = d.pop("piles")
        for piles_item_data in _piles:

            def _parse_piles_item(data: object) -> int | None:
                if data is None:
                    return data
                return cast(int | None, data)

            piles_item = _parse_piles_item(piles_item_data)

            piles.append(piles_item)

        at = d.pop("at")

        piles_taken_event = cls(
            version=version,
            type_=type_,
            piles=piles,
            at=at,
        )

        piles_taken_event.additional_properties = d
        return piles_taken_event

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
