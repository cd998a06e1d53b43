from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.lobby_player_player_type_0 import LobbyPlayerPlayerType0


T = TypeVar("T", bound="LobbyPlayer")


@_attrs_define
class LobbyPlayer:
    """
    Attributes:
        seat (int):
        kind (None | str):
        name (None | str | Unset):
        player (LobbyPlayerPlayerType0 | None | Unset):
        rating_diff (int | Unset):
    """

    seat: int
    kind: None | str
    name: None | str | Unset = UNSET
    player: LobbyPlayerPlayerType0 | None | Unset = UNSET
    rating_diff: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.lobby_player_player_type_0 import LobbyPlayerPlayerType0  # noqa: PLC0415

        seat = self.seat

        kind: None | str
        kind = self.kind

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        player: dict[str, Any] | None | Unset
        if isinstance(self.player, Unset):
            player = UNSET
        elif isinstance(self.player, LobbyPlayerPlayerType0):
            player = self.player.to_dict()
        else:
            player = self.player

        rating_diff = self.rating_diff

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "kind": kind,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if player is not UNSET:
            field_dict["player"] = player
        if rating_diff is not UNSET:
            field_dict["rating_diff"] = rating_diff

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lobby_player_player_type_0 import LobbyPlayerPlayerType0  # noqa: PLC0415

        d = dict(src_dict)
        seat = d.pop("seat")

        def _parse_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kind = _parse_kind(d.pop("kind"))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_player(data: object) -> LobbyPlayerPlayerType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                player_type_0 = LobbyPlayerPlayerType0.from_dict(data)

                return player_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LobbyPlayerPlayerType0 | None | Unset, data)

        player = _parse_player(d.pop("player", UNSET))

        rating_diff = d.pop("rating_diff", UNSET)

        lobby_player = cls(
            seat=seat,
            kind=kind,
            name=name,
            player=player,
            rating_diff=rating_diff,
        )

        lobby_player.additional_properties = d
        return lobby_player

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
