from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.leader_row import LeaderRow


T = TypeVar("T", bound="Leaderboard")


@_attrs_define
class Leaderboard:
    """
    Attributes:
        game (str):
        players (list[LeaderRow]):
        next_ (None | str):
    """

    game: str
    players: list[LeaderRow]
    next_: None | str

    def to_dict(self) -> dict[str, Any]:
        game = self.game

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        next_: None | str
        next_ = self.next_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
                "players": players,
                "next": next_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leader_row import LeaderRow  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = LeaderRow.from_dict(players_item_data)

            players.append(players_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        leaderboard = cls(
            game=game,
            players=players,
            next_=next_,
        )

        return leaderboard
