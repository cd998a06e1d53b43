from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

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
        draw_pile (int | list[str]): its size; after the game, its cards, top first
        hand (list[str] | Unset): your own hand (H-2); every hand after the game
        hand_size (int | Unset): while the game runs
    """

    seat: int
    kind: None | str
    cards: int
    ready: bool
    called: bool
    draw_pile: int | list[str]
    hand: list[str] | Unset = UNSET
    hand_size: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        kind: None | str
        kind = self.kind

        cards = self.cards

        ready = self.ready

        called = self.called

        draw_pile: int | list[str]
        if isinstance(self.draw_pile, list):
            draw_pile = self.draw_pile

        else:
            draw_pile = self.draw_pile

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
                "draw_pile": draw_pile,
            }
        )
        if hand is not UNSET:
            field_dict["hand"] = hand
        if hand_size is not UNSET:
            field_dict["hand_size"] = hand_size

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
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

        hand = cast(list[str], d.pop("hand", UNSET))

        hand_size = d.pop("hand_size", UNSET)

        speed_player = cls(
            seat=seat,
            kind=kind,
            cards=cards,
            ready=ready,
            called=called,
            draw_pile=draw_pile,
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
