from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LeaderRow")


@_attrs_define
class LeaderRow:
    """
    Attributes:
        rank (int):
        app (str):
        id (str):
        rating (int):
        rd (float):
        provisional (bool): always false: a provisional rating (RD of 110 or more) is not on the leaderboard
        games (int):
        name (None | str | Unset):
    """

    rank: int
    app: str
    id: str
    rating: int
    rd: float
    provisional: bool
    games: int
    name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        app = self.app

        id = self.id

        rating = self.rating

        rd = self.rd

        provisional = self.provisional

        games = self.games

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "app": app,
                "id": id,
                "rating": rating,
                "rd": rd,
                "provisional": provisional,
                "games": games,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        app = d.pop("app")

        id = d.pop("id")

        rating = d.pop("rating")

        rd = d.pop("rd")

        provisional = d.pop("provisional")

        games = d.pop("games")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        leader_row = cls(
            rank=rank,
            app=app,
            id=id,
            rating=rating,
            rd=rd,
            provisional=provisional,
            games=games,
            name=name,
        )

        leader_row.additional_properties = d
        return leader_row

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
