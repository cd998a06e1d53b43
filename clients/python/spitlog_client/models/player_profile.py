from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.player_profile_ratings import PlayerProfileRatings


T = TypeVar("T", bound="PlayerProfile")


@_attrs_define
class PlayerProfile:
    """
    Attributes:
        app (str):
        id (str):
        name (str):
        created_at (str):
        ratings (PlayerProfileRatings): per game kind (a newcomer's 1500, RD 350 until rated)
    """

    app: str
    id: str
    name: str
    created_at: str
    ratings: PlayerProfileRatings
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app = self.app

        id = self.id

        name = self.name

        created_at = self.created_at

        ratings = self.ratings.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app": app,
                "id": id,
                "name": name,
                "created_at": created_at,
                "ratings": ratings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_profile_ratings import PlayerProfileRatings  # noqa: PLC0415

        d = dict(src_dict)
        app = d.pop("app")

        id = d.pop("id")

        name = d.pop("name")

        created_at = d.pop("created_at")

        ratings = PlayerProfileRatings.from_dict(d.pop("ratings"))

        player_profile = cls(
            app=app,
            id=id,
            name=name,
            created_at=created_at,
            ratings=ratings,
        )

        player_profile.additional_properties = d
        return player_profile

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
