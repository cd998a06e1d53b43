from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Rating")


@_attrs_define
class Rating:
    """
    Attributes:
        rating (int):
        rd (float): Glicko-2 rating deviation
        volatility (float):
        provisional (bool): RD of 110 or more (as Lichess): too uncertain to rank, so not on the leaderboard
        games (int):
        wins (int | Unset):
        losses (int | Unset):
        draws (int | Unset):
    """

    rating: int
    rd: float
    volatility: float
    provisional: bool
    games: int
    wins: int | Unset = UNSET
    losses: int | Unset = UNSET
    draws: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rating = self.rating

        rd = self.rd

        volatility = self.volatility

        provisional = self.provisional

        games = self.games

        wins = self.wins

        losses = self.losses

        draws = self.draws

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rating": rating,
                "rd": rd,
                "volatility": volatility,
                "provisional": provisional,
                "games": games,
            }
        )
        if wins is not UNSET:
            field_dict["wins"] = wins
        if losses is not UNSET:
            field_dict["losses"] = losses
        if draws is not UNSET:
            field_dict["draws"] = draws

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rating = d.pop("rating")

        rd = d.pop("rd")

        volatility = d.pop("volatility")

        provisional = d.pop("provisional")

        games = d.pop("games")

        wins = d.pop("wins", UNSET)

        losses = d.pop("losses", UNSET)

        draws = d.pop("draws", UNSET)

        rating = cls(
            rating=rating,
            rd=rd,
            volatility=volatility,
            provisional=provisional,
            games=games,
            wins=wins,
            losses=losses,
            draws=draws,
        )

        rating.additional_properties = d
        return rating

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
