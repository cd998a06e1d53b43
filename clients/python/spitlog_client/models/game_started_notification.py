from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_started_data import GameStartedData


T = TypeVar("T", bound="GameStartedNotification")


@_attrs_define
class GameStartedNotification:
    """
    Attributes:
        id (str): `evt_<game id>_<version>_<n>`, the same at every try of one notification (delivery is at least once:
            drop an id you have seen)
        created (int): when its event happened, in whole seconds since the epoch
        game_id (str):
        game (str): the game's kind (`spit`, `speed`)
        version (int): the place in the game's log of the event it tells of (1 = first)
        type_ (Literal['game.started']):  Default: 'game.started'.
        data (GameStartedData):
    """

    id: str
    created: int
    game_id: str
    game: str
    version: int
    data: GameStartedData
    type_: Literal["game.started"] = "game.started"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created = self.created

        game_id = self.game_id

        game = self.game

        version = self.version

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created": created,
                "game_id": game_id,
                "game": game,
                "version": version,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_started_data import GameStartedData  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        created = d.pop("created")

        game_id = d.pop("game_id")

        game = d.pop("game")

        version = d.pop("version")

        type_ = cast(Literal["game.started"], d.pop("type"))
        if type_ != "game.started":
            raise ValueError(f"type must match const 'game.started', got '{type_}'")

        data = GameStartedData.from_dict(d.pop("data"))

        game_started_notification = cls(
            id=id,
            created=created,
            game_id=game_id,
            game=game,
            version=version,
            type_=type_,
            data=data,
        )

        game_started_notification.additional_properties = d
        return game_started_notification

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
