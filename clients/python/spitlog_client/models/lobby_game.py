from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.lobby_game_status import LobbyGameStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.lobby_player import LobbyPlayer


T = TypeVar("T", bound="LobbyGame")


@_attrs_define
class LobbyGame:
    """
    Attributes:
        id (str):
        game (str):
        status (LobbyGameStatus):
        version (int):
        created_at (str):
        players (list[LobbyPlayer]):
        rated (bool | Unset):
        winner (int | None | Unset): once the game is over: the seat that won, or null (no winner: a draw, an abort);
            absent while it runs
    """

    id: str
    game: str
    status: LobbyGameStatus
    version: int
    created_at: str
    players: list[LobbyPlayer]
    rated: bool | Unset = UNSET
    winner: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        game = self.game

        status = self.status.value

        version = self.version

        created_at = self.created_at

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        rated = self.rated

        winner: int | None | Unset
        if isinstance(self.winner, Unset):
            winner = UNSET
        else:
            winner = self.winner

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "game": game,
                "status": status,
                "version": version,
                "created_at": created_at,
                "players": players,
            }
        )
        if rated is not UNSET:
            field_dict["rated"] = rated
        if winner is not UNSET:
            field_dict["winner"] = winner

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lobby_player import LobbyPlayer  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        game = d.pop("game")

        status = LobbyGameStatus(d.pop("status"))

        version = d.pop("version")

        created_at = d.pop("created_at")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = LobbyPlayer.from_dict(players_item_data)

            players.append(players_item)

        rated = d.pop("rated", UNSET)

        def _parse_winner(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        winner = _parse_winner(d.pop("winner", UNSET))

        lobby_game = cls(
            id=id,
            game=game,
            status=status,
            version=version,
            created_at=created_at,
            players=players,
            rated=rated,
            winner=winner,
        )

        lobby_game.additional_properties = d
        return lobby_game

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
