from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpitStateRematchType0")


@_attrs_define
class SpitStateRematchType0:
    """a finished game's rematch; null before the end

    Attributes:
        game (None | str): the rematch, once made
        asked (list[bool]): per seat: has asked for one
        until (str): asks count until then (ISO 8601)
    """

    game: None | str
    asked: list[bool]
    until: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game: None | str
        game = self.game

        asked = self.asked

        until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "asked": asked,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_game(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        game = _parse_game(d.pop("game"))

        asked = cast(list[bool], d.pop("asked"))

        until = d.pop("until")

        spit_state_rematch_type_0 = cls(
            game=game,
            asked=asked,
            until=until,
        )

        spit_state_rematch_type_0.additional_properties = d
        return spit_state_rematch_type_0

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
