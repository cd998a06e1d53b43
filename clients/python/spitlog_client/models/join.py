from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.join_kind import JoinKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_ref import PlayerRef


T = TypeVar("T", bound="Join")


@_attrs_define
class Join:
    """
    Attributes:
        kind (JoinKind | Unset): human (the default) or bot: a client's bot, playing through the API as a person does;
            shown in views and the lobby
        name (str | Unset): a bot seat's name, without a player: 1-64 printable characters (Python's str.isprintable: no
            control, format, separator other than the space, private-use, surrogate or unassigned code point), no space at
            either end
        player (PlayerRef | Unset):
        client_seed (str | Unset): your contribution to every shuffle of the game (RULES H-6)
    """

    kind: JoinKind | Unset = UNSET
    name: str | Unset = UNSET
    player: PlayerRef | Unset = UNSET
    client_seed: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        name = self.name

        player: dict[str, Any] | Unset = UNSET
        if not isinstance(self.player, Unset):
            player = self.player.to_dict()

        client_seed = self.client_seed

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if kind is not UNSET:
            field_dict["kind"] = kind
        if name is not UNSET:
            field_dict["name"] = name
        if player is not UNSET:
            field_dict["player"] = player
        if client_seed is not UNSET:
            field_dict["client_seed"] = client_seed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_ref import PlayerRef  # noqa: PLC0415

        d = dict(src_dict)
        _kind = d.pop("kind", UNSET)
        kind: JoinKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = JoinKind(_kind)

        name = d.pop("name", UNSET)

        _player = d.pop("player", UNSET)
        player: PlayerRef | Unset
        if isinstance(_player, Unset):
            player = UNSET
        else:
            player = PlayerRef.from_dict(_player)

        client_seed = d.pop("client_seed", UNSET)

        join = cls(
            kind=kind,
            name=name,
            player=player,
            client_seed=client_seed,
        )

        return join
