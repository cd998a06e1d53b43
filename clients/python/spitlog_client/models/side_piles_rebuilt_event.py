from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SidePilesRebuiltEvent")


@_attrs_define
class SidePilesRebuiltEvent:
    """Speed: the side piles were rebuilt from the centre piles and shuffled. While the game runs a viewer sees less of:
    side_piles.

        Attributes:
            version (int): the event's place in the log (1 = first)
            type_ (Literal['side_piles_rebuilt']):  Default: 'side_piles_rebuilt'.
            nonce (int):
            side_piles (list[int] | list[list[str]]):
            at (float): when, in seconds since the epoch
    """

    version: int
    nonce: int
    side_piles: list[int] | list[list[str]]
    at: float
    type_: Literal["side_piles_rebuilt"] = "side_piles_rebuilt"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        nonce = self.nonce

        side_piles: list[int] | list[list[str]]
        if isinstance(self.side_piles, list):
            side_piles = []
            for side_piles_type_0_item_data in self.side_piles:
                side_piles_type_0_item = side_piles_type_0_item_data

                side_piles.append(side_piles_type_0_item)

        else:
            side_piles = self.side_piles

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "nonce": nonce,
                "side_piles": side_piles,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["side_piles_rebuilt"], d.pop("type"))
        if type_ != "side_piles_rebuilt":
            raise ValueError(f"type must match const 'side_piles_rebuilt', got '{type_}'")

        nonce = d.pop("nonce")

        def _parse_side_piles(data: object) -> list[int] | list[list[str]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                side_piles_type_0 = []
                _side_piles_type_0 = data
                for side_piles_type_0_item_data in _side_piles_type_0:
                    side_piles_type_0_item = cast(list[str], side_piles_type_0_item_data)

                    side_piles_type_0.append(side_piles_type_0_item)

                return side_piles_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            side_piles_type_1 = cast(list[int], data)

            return side_piles_type_1

        side_piles = _parse_side_piles(d.pop("side_piles"))

        at = d.pop("at")

        side_piles_rebuilt_event = cls(
            version=version,
            type_=type_,
            nonce=nonce,
            side_piles=side_piles,
            at=at,
        )

        side_piles_rebuilt_event.additional_properties = d
        return side_piles_rebuilt_event

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
