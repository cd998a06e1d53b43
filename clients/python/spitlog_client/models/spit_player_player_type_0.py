from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpitPlayerPlayerType0")


@_attrs_define
class SpitPlayerPlayerType0:
    """an app's player (README.md, *Players*); null: anonymous

    Attributes:
        app (str):
        id (str):
        rating (int | None): when it sat down
        provisional (bool | None): its rating was provisional when it sat down (RD 110 or more: not on the leaderboard);
            null: the game's record does not say
    """

    app: str
    id: str
    rating: int | None
    provisional: bool | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app = self.app

        id = self.id

        rating: int | None
        rating = self.rating

        provisional: bool | None
        provisional = self.provisional

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app": app,
                "id": id,
                "rating": rating,
                "provisional": provisional,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app = d.pop("app")

        id = d.pop("id")

        def _parse_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating = _parse_rating(d.pop("rating"))

        def _parse_provisional(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        provisional = _parse_provisional(d.pop("provisional"))

        spit_player_player_type_0 = cls(
            app=app,
            id=id,
            rating=rating,
            provisional=provisional,
        )

        spit_player_player_type_0.additional_properties = d
        return spit_player_player_type_0

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
