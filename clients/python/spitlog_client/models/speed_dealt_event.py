from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpeedDealtEvent")


@_attrs_define
class SpeedDealtEvent:
    """Speed: the cards were dealt: side piles, the middle, hands and draw piles. While the game runs a viewer sees less
    of: side_piles, middle, draw_piles, hands.

        Attributes:
            version (int): the event's place in the log (1 = first)
            type_ (Literal['speed_dealt']):  Default: 'speed_dealt'.
            game_no (int):
            nonce (int):
            side_piles (list[int] | list[list[str]]):
            middle (int | list[str]):
            hands (list[int | list[str]] | list[list[str]]):
            draw_piles (list[int] | list[list[str]]):
            at (float): when, in seconds since the epoch
    """

    version: int
    game_no: int
    nonce: int
    side_piles: list[int] | list[list[str]]
    middle: int | list[str]
    hands: list[int | list[str]] | list[list[str]]
    draw_piles: list[int] | list[list[str]]
    at: float
    type_: Literal["speed_dealt"] = "speed_dealt"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        game_no = self.game_no

        nonce = self.nonce

        side_piles: list[int] | list[list[str]]
        if isinstance(self.side_piles, list):
            side_piles = []
            for side_piles_type_0_item_data in self.side_piles:
                side_piles_type_0_item = side_piles_type_0_item_data

                side_piles.append(side_piles_type_0_item)

        else:
            side_piles = self.side_piles

        middle: int | list[str]
        if isinstance(self.middle, list):
            middle = self.middle

        else:
            middle = self.middle

        hands: list[int | list[str]] | list[list[str]]
        if isinstance(self.hands, list):
            hands = []
            for hands_type_0_item_data in self.hands:
                hands_type_0_item = hands_type_0_item_data

                hands.append(hands_type_0_item)

        else:
            hands = []
            for hands_type_1_item_data in self.hands:
                hands_type_1_item: int | list[str]
                if isinstance(hands_type_1_item_data, list):
                    hands_type_1_item = hands_type_1_item_data

                else:
                    hands_type_1_item = hands_type_1_item_data
                hands.append(hands_type_1_item)

        draw_piles: list[int] | list[list[str]]
        if isinstance(self.draw_piles, list):
            draw_piles = []
            for draw_piles_type_0_item_data in self.draw_piles:
                draw_piles_type_0_item = draw_piles_type_0_item_data

                draw_piles.append(draw_piles_type_0_item)

        else:
            draw_piles = self.draw_piles

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "game_no": game_no,
                "nonce": nonce,
                "side_piles": side_piles,
                "middle": middle,
                "hands": hands,
                "draw_piles": draw_piles,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["speed_dealt"], d.pop("type"))
        if type_ != "speed_dealt":
            raise ValueError(f"type must match const 'speed_dealt', got '{type_}'")

        game_no = d.pop("game_no")

        nonce = d.pop("nonce")

        def _parse_side_piles(data: object) -> list[int] | list[list[str]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                side_piles_type_0 = []
                _side_piles_type_0 = data
                for side_piles_type_0_item_data in _side_piles_type_0:
                    side_piles_type_0_item = cast(list[str], side_piles_type_0_item_data)

                    side_piles_type_0.append(side_piles_type_0_item)

                return side_piles_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            side_piles_type_1 = cast(list[int], data)

            return side_piles_type_1

        side_piles = _parse_side_piles(d.pop("side_piles"))

        def _parse_middle(data: object) -> int | list[str]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                middle_type_0 = cast(list[str], data)

                return middle_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[str], data)

        middle = _parse_middle(d.pop("middle"))

        def _parse_hands(data: object) -> list[int | list[str]] | list[list[str]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                hands_type_0 = []
                _hands_type_0 = data
                for hands_type_0_item_data in _hands_type_0:
                    hands_type_0_item = cast(list[str], hands_type_0_item_data)

                    hands_type_0.append(hands_type_0_item)

                return hands_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            hands_type_1 = []
            _hands_type_1 = data
            for hands_type_1_item_data in _hands_type_1:

                def _parse_hands_type_1_item(data: object) -> int | list[str]:
                    try:
                        if not isinstance(data, list):
                            raise TypeError()
                        hands_type_1_item_type_0 = cast(list[str], data)

                        return hands_type_1_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | list[str], data)

                hands_type_1_item = _parse_hands_type_1_item(hands_type_1_item_data)

                hands_type_1.append(hands_type_1_item)

            return hands_type_1

        hands = _parse_hands(d.pop("hands"))

        def _parse_draw_piles(data: object) -> list[int] | list[list[str]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                draw_piles_type_0 = []
                _draw_piles_type_0 = data
                for draw_piles_type_0_item_data in _draw_piles_type_0:
                    draw_piles_type_0_item = cast(list[str], draw_piles_type_0_item_data)

                    draw_piles_type_0.append(draw_piles_type_0_item)

                return draw_piles_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            draw_piles_type_1 = cast(list[int], data)

            return draw_piles_type_1

        draw_piles = _parse_draw_piles(d.pop("draw_piles"))

        at = d.pop("at")

        speed_dealt_event = cls(
            version=version,
            type_=type_,
            game_no=game_no,
            nonce=nonce,
            side_piles=side_piles,
            middle=middle,
            hands=hands,
            draw_piles=draw_piles,
            at=at,
        )

        speed_dealt_event.additional_properties = d
        return speed_dealt_event

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
