from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GameScoredEvent")


@_attrs_define
class GameScoredEvent:
    """Speed: a game was scored.

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['game_scored']):  Default: 'game_scored'.
        winner (int | None):
        points (int):
        scores (list[int]):
        reason (str):
        at (float): when, in seconds since the epoch
    """

    version: int
    winner: int | None
    points: int
    scores: list[int]
    reason: str
    at: float
    type_: Literal["game_scored"] = "game_scored"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        winner: int | None
        winner = self.winner

        points = self.points

        scores = self.scores

        reason = self.reason

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "winner": winner,
                "points": points,
                "scores": scores,
                "reason": reason,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["game_scored"], d.pop("type"))
        if type_ != "game_scored":
            raise ValueError(f"type must match const 'game_scored', got '{type_}'")

        def _parse_winner(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner = _parse_winner(d.pop("winner"))

        points = d.pop("points")

        scores = cast(list[int], d.pop("scores"))

        reason = d.pop("reason")

        at = d.pop("at")

        game_scored_event = cls(
            version=version,
            type_=type_,
            winner=winner,
            points=points,
            scores=scores,
            reason=reason,
            at=at,
        )

        game_scored_event.additional_properties = d
        return game_scored_event

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
