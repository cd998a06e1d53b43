from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.speed_player_player_type_0 import SpeedPlayerPlayerType0


T = TypeVar("T", bound="SpeedPlayer")


@_attrs_define
class SpeedPlayer:
    """A seat in Speed.

    Attributes:
        seat (int):
        kind (None | str): human, bot:...; null while free
        cards (int): every card the player holds (C-3)
        ready (bool):
        called (bool): has called spit in this stalemate
        name (None | str): the player's name, or a bot's
        player (None | SpeedPlayerPlayerType0): an app's player (README.md, *Players*); null: anonymous
        draw_pile (int | list[str]): its size; after the game, its cards, top first
        rating_diff (int | Unset): a rated game, once rated: the player's new rating minus the old
        hand (list[str] | Unset): your own hand (H-2); every hand after the game
        hand_size (int | Unset): while the game runs
    """

    seat: int
    kind: None | str
    cards: int
    ready: bool
    called: bool
    name: None | str
    player: None | SpeedPlayerPlayerType0
    draw_pile: int | list[str]
    rating_diff: int | Unset = UNSET
    hand: list[str] | Unset = UNSET
    hand_size: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.speed_player_player_type_0 import SpeedPlayerPlayerType0  # noqa: PLC0415

        seat = self.seat

        kind: None | str
        kind = self.kind

        cards = self.cards

        ready = self.ready

        called = self.called

        name: None | str
        name = self.name

        player: dict[str, Any] | None
        if isinstance(self.player, SpeedPlayerPlayerType0):
            player = self.player.to_dict()
        else:
            player = self.player

        draw_pile: int | list[str]
        if isinstance(self.draw_pile, list):
            draw_pile = self.draw_pile

        else:
            draw_pile = self.draw_pile

        rating_diff = self.rating_diff

        hand: list[str] | Unset = UNSET
        if not isinstance(self.hand, Unset):
            hand = self.hand

        hand_size = self.hand_size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "kind": kind,
                "cards": cards,
                "ready": ready,
                "called": called,
                "name": name,
                "player": player,
                "draw_pile": draw_pile,
            }
        )
        if rating_diff is not UNSET:
            field_dict["rating_diff"] = rating_diff
        if hand is not UNSET:
            field_dict["hand"] = hand
        if hand_size is not UNSET:
            field_dict["hand_size"] = hand_size

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.speed_player_player_type_0 import SpeedPlayerPlayerType0  # noqa: PLC0415

        d = dict(src_dict)
        seat = d.pop("seat")

        def _parse_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kind = _parse_kind(d.pop("kind"))

        cards = d.pop("cards")

        ready = d.pop("ready")

        called = d.pop("called")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_player(data: object) -> None | SpeedPlayerPlayerType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                player_type_0 = SpeedPlayerPlayerType0.from_dict(data)

                return player_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpeedPlayerPlayerType0, data)

        player = _parse_player(d.pop("player"))

        def _parse_draw_pile(data: object) -> int | list[str]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                draw_pile_type_1 = cast(list[str], data)

                return draw_pile_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[str], data)

        draw_pile = _parse_draw_pile(d.pop("draw_pile"))

        rating_diff = d.pop("rating_diff", UNSET)

        hand = cast(list[str], d.pop("hand", UNSET))

        hand_size = d.pop("hand_size", UNSET)

        speed_player = cls(
            seat=seat,
            kind=kind,
            cards=cards,
            ready=ready,
            called=called,
            name=name,
            player=player,
            draw_pile=draw_pile,
            rating_diff=rating_diff,
            hand=hand,
            hand_size=hand_size,
        )

        speed_player.additional_properties = d
        return speed_player

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
